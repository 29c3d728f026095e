/**
 * Tool calls while their arguments stream: one incremental JSON parser per call,
 * so each piece of arguments costs its own length to parse, never a re-parse.
 * The parsed value reaches the message once per batch of pieces (`inputSnapshot`),
 * as a snapshot that shares every part that did not change.
 */
import { isSafeKey } from '../../core/util/record'
import type { Op } from '../../core/ops'
import { IncrementalJsonParser } from '../../core/util/partial-json'
import { MAX_PATH_SEGMENTS } from '../../core/util/paths'

/**
 * Arguments nested deeper than this would not fit in a path under `props.input`.
 *
 * @example
 * parser.depth > MAX_INPUT_DEPTH + 1 // some of the arguments are left out
 */
export const MAX_INPUT_DEPTH = MAX_PATH_SEGMENTS - 1

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
  /** The key the snapshot drops (the parser's `unsafeKey`) was reported. */
  reportedKey: boolean
  /** Arguments deeper than `MAX_INPUT_DEPTH` were reported. */
  reportedDepth: boolean
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
    id, name, lane, parentMessageId, text: '', open: true, resulted: false, reported: false,
    reportedKey: false, reportedDepth: false, parser: new IncrementalJsonParser(),
  }
  return track
}

/**
 * Forget the arguments (a call started again, e.g. when a run is replayed).
 *
 * @example
 * resetArguments(track); track.text === ''
 */
export function resetArguments(track: ToolTrack, text = ''): void {
  track.parser = new IncrementalJsonParser()
  track.text = text
  track.reported = track.reportedKey = track.reportedDepth = false
  if (text) track.parser.push(text)
}

/**
 * Feed a piece of arguments and get the `inputText` append for it. The parsed
 * value is written by `inputSnapshot`, once per batch; what it leaves out shows
 * in the parser's `unsafeKey` and `depth`.
 *
 * @example
 * pushArguments(track, { turnId: 't1', messageId: 'c1' }, '{"q":"we')
 */
export function pushArguments(track: ToolTrack, place: { turnId: string; messageId: string }, delta: string): Op {
  track.text += delta
  track.parser.push(delta)
  return { op: 'message.delta', ...place, action: 'append', path: 'inputText', value: delta }
}

/**
 * The arguments parsed so far as a `set` of the message's `input`: a sealed
 * snapshot sharing what did not change since the previous one.
 *
 * @example
 * inputSnapshot(track, { turnId: 't1', messageId: 'c1', type: 'tool' })
 */
export function inputSnapshot(track: ToolTrack, place: Omit<Extract<Op, { op: 'message.delta' }>, 'op' | 'action' | 'path' | 'value'>): Op {
  return { op: 'message.delta', ...place, action: 'set', path: 'input', value: track.parser.snapshot({ maxDepth: MAX_INPUT_DEPTH }) }
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
  // A sealed snapshot: it shares what the last batch's snapshot already copied.
  if (track.parser.complete) return { ok: true, value: track.parser.snapshot({ maxDepth: MAX_INPUT_DEPTH }) }
  const failure = track.parser.error
  return { ok: false, reason: failure ? `${failure.message} at ${failure.offset}` : 'the arguments stop before the JSON ends' }
}
