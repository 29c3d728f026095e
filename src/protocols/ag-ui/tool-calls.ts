/**
 * Tool calls while their arguments stream: one incremental JSON parser per call,
 * whose edits become `message.delta` ops on `input`, so each piece of arguments
 * costs its own length and never a re-parse or a copy of what came before.
 */
import { isSafeKey } from '../../core/util/record'
import type { Op } from '../../core/ops'
import { IncrementalJsonParser, type JsonEdit, type JsonPathSegment } from '../../core/util/partial-json'

/**
 * What the decoder remembers about one tool call.
 *
 * @example
 * const track: ToolTrack = newToolTrack('c1', 'search', '')
 * track.open // true
 */
export interface ToolTrack {
  id: string
  name: string
  lane: string
  parentMessageId?: string
  /** The arguments text so far. */
  text: string
  parser: IncrementalJsonParser
  /** Edits the parser made during the current push. */
  edits: JsonEdit[]
  /** Started and not yet ended. */
  open: boolean
  /** A result arrived: later events never move the call back to an earlier state. */
  resulted: boolean
  /** A parse failure was already reported. */
  reported: boolean
}

/**
 * A fresh track.
 *
 * @example
 * const track = newToolTrack('c1', 'search', '')
 */
export function newToolTrack(id: string, name: string, lane: string, parentMessageId?: string): ToolTrack {
  const track: ToolTrack = {
    id, name, lane, parentMessageId, text: '', edits: [], open: true, resulted: false, reported: false,
    parser: parserFor(() => track),
  }
  return track
}

function parserFor(track: () => ToolTrack): IncrementalJsonParser {
  return new IncrementalJsonParser({ onEdit: (edit) => track().edits.push(edit) })
}

/**
 * Forget the arguments (a call started again, e.g. when a run is replayed).
 *
 * @example
 * resetArguments(track); track.text === ''
 */
export function resetArguments(track: ToolTrack, text = ''): void {
  track.edits = []
  track.parser = parserFor(() => track)
  track.text = text
  track.reported = false
  if (text) {
    track.parser.push(text)
    track.edits = []
  }
}

/**
 * Feed a piece of arguments and get the ops that mirror the change on the tool
 * message: `inputText` and the edits to `input`.
 *
 * @example
 * pushArguments(track, { turnId: 't1', messageId: 'c1' }, '{"q":"we')
 */
export function pushArguments(track: ToolTrack, place: { turnId: string; messageId: string }, delta: string): Op[] {
  track.text += delta
  track.parser.push(delta)
  const edits = track.edits
  track.edits = []
  const ops: Op[] = [{ op: 'message.delta', ...place, action: 'append', path: 'inputText', value: delta }]
  if (edits.some((edit) => !pathIsPlain(edit.path))) {
    // A key the path syntax cannot spell (a dot, a bracket, a reserved name): send the whole value once.
    ops.push({ op: 'message.delta', ...place, action: 'set', path: 'input', value: copyOf(track.parser.value) })
    return ops
  }
  for (const edit of edits) {
    const path = ['input', ...edit.path].join('.')
    ops.push(edit.kind === 'set'
      ? { op: 'message.delta', ...place, action: 'set', path, value: edit.value }
      : { op: 'message.delta', ...place, action: 'append', path, value: edit.text })
  }
  return ops
}

/**
 * The arguments as a finished value: `{}` for no arguments, the parsed value when
 * complete, `undefined` when the text is not JSON.
 *
 * @example
 * finalArguments(track) // { q: 'weather' }
 */
export function finalArguments(track: ToolTrack): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (track.text.trim() === '') return { ok: true, value: {} }
  if (track.parser.complete) return { ok: true, value: copyOf(track.parser.value) }
  const failure = track.parser.error
  return { ok: false, reason: failure ? `${failure.message} at ${failure.offset}` : 'the arguments stop before the JSON ends' }
}

function pathIsPlain(path: readonly JsonPathSegment[]): boolean {
  return path.every((segment) => typeof segment === 'number' || (segment !== '' && isSafeKey(segment) && !/[.[\]]/.test(segment)))
}

/** A detached copy of the parser's live tree; JSON keeps an own `__proto__` key as data, for the fold to refuse. */
function copyOf(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
}
