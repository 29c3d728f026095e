/**
 * Tool calls while their arguments stream. The pieces are gathered as they come
 * and parsed once per batch (`inputSnapshot`), where the value so far reaches the
 * message as a snapshot that shares every part that did not change; arguments that
 * end within one batch are parsed once, natively (see `StreamedInput`).
 */
import type { Op } from '../../core/index'
import { type EndedInput, MAX_PATH_SEGMENTS, StreamedInput } from '../../protocol-kit/index'

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
  /**
   * The block the call's message goes into, fixed when the call is first seen: a
   * later write never moves it into a step that began meanwhile, so where a batch
   * ended can never decide which block holds it.
   */
  blockId: string | undefined
  parentMessageId?: string
  /** The arguments so far. */
  input: StreamedInput
  /** Arguments that came since the message's `inputText` was last written. */
  unsent: string
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
  /** Arguments that came after the call ended were reported (and ignored). */
  reportedLate: boolean
}

/**
 * A fresh track.
 *
 * @example
 * const track = newToolTrack('c1', 'search', '')
 */
export function newToolTrack(id: string, name: string, lane: string, parentMessageId?: string, blockId?: string): ToolTrack {
  const track: ToolTrack = {
    id, name, lane, blockId, parentMessageId, open: true, resulted: false, reported: false,
    reportedKey: false, reportedDepth: false, reportedLate: false, input: new StreamedInput(MAX_INPUT_DEPTH), unsent: '',
  }
  return track
}

/**
 * Forget the arguments (a call started again, e.g. when a run is replayed).
 *
 * @example
 * resetArguments(track); track.input.text === ''
 */
export function resetArguments(track: ToolTrack, text = ''): void {
  track.input = new StreamedInput(MAX_INPUT_DEPTH, text)
  track.unsent = ''
  track.reported = track.reportedKey = track.reportedDepth = track.reportedLate = false
}

/**
 * Add a piece of arguments. Nothing is written yet: `unsentText` writes the
 * pieces to `inputText` in one append and `inputSnapshot` the parsed value, both
 * once per batch; what is wrong with the arguments is told when they end
 * (`finalArguments`).
 *
 * @example
 * pushArguments(track, '{"q":"we')
 */
export function pushArguments(track: ToolTrack, delta: string): void {
  track.input.append(delta)
  track.unsent += delta
}

/**
 * The `inputText` append of every piece since the last one, if any came. A batch's
 * pieces reach the message in one op, so a long call costs one op per batch, not
 * one per piece; the text is the same wherever batches end.
 *
 * @example
 * const op = unsentText(track, { turnId: 't1', messageId: 'c1' })
 */
export function unsentText(track: ToolTrack, place: { turnId: string; messageId: string }): Op | undefined {
  if (track.unsent === '') return undefined
  const value = track.unsent
  track.unsent = ''
  return { op: 'message.delta', ...place, action: 'append', path: 'inputText', value }
}

/**
 * The arguments parsed so far as a `set` of the message's `input`: a sealed
 * snapshot sharing what did not change since the previous one.
 *
 * @example
 * inputSnapshot(track, { turnId: 't1', messageId: 'c1', type: 'tool' })
 */
export function inputSnapshot(track: ToolTrack, place: Omit<Extract<Op, { op: 'message.delta' }>, 'op' | 'action' | 'path' | 'value'>): Op {
  return { op: 'message.delta', ...place, action: 'set', path: 'input', value: track.input.parsed().snapshot({ maxDepth: MAX_INPUT_DEPTH }) }
}

/**
 * The arguments as a finished value: `{}` for no arguments, the parsed value
 * (sealed) when complete, else why not; with what the value leaves out.
 *
 * @example
 * finalArguments(track) // { ok: true, value: { q: 'weather' }, ended: { ... } }
 */
export function finalArguments(track: ToolTrack): ({ ok: true; value: unknown } | { ok: false; reason: string }) & { ended?: EndedInput } {
  if (track.input.text.trim() === '') return { ok: true, value: {} }
  const ended = track.input.end()
  if (ended.complete) return { ok: true, value: ended.value, ended }
  const failure = ended.error
  return { ok: false, reason: failure ? `${failure.message} at ${failure.offset}` : 'the arguments stop before the JSON ends', ended }
}
