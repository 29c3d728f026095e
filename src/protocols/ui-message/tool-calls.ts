/**
 * Tool calls: streamed input, output, errors, denial and approval gates. Every
 * call is also a timeline row.
 *
 * Streamed input is gathered as it comes and parsed once per batch of deltas (see
 * `flush`), where its value so far is written to the message as a snapshot that
 * shares what did not change: a long input costs its length to parse, and one write
 * per network read instead of one per JSON value. An input that ends within one
 * batch is parsed once, natively. What is wrong with an input is reported when it
 * ends (see `StreamedInput`).
 */
import type { Op } from '../../core/index'
import { booleanOf, idOf, MAX_PATH_SEGMENTS, safeJson, StreamedInput, stringOf } from '../../protocol-kit/index'
import type { StreamContext } from './stream-context'
import { createToolApprovals } from './tool-approvals'
import { type Chunk, createToolTracks, type ToolTrack } from './tool-tracks'

/**
 * The tool calls of one stream, keyed by `toolCallId`.
 *
 * @example
 * const tools = createToolCalls(stream)
 * tools.inputStart({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'search' })
 */
export interface ToolCalls {
  inputStart(chunk: Chunk): Op[]
  inputDelta(chunk: Chunk): Op[]
  inputAvailable(chunk: Chunk): Op[]
  inputError(chunk: Chunk): Op[]
  /**
   * Write the parsed input of every call whose input grew since the last flush.
   * The decoder calls it before any chunk that is not an input delta, so the order
   * of everything else is kept, and the client at the end of each network read.
   * A `next` chunk that sets a call's whole input itself makes that call's write moot.
   * A long input is written once it has grown enough to be worth a copy
   * (`snapshotDue`), unless `force` (the stream's end or release).
   */
  flush(next?: Chunk, force?: boolean): Op[]
  outputAvailable(chunk: Chunk): Op[]
  outputError(chunk: Chunk): Op[]
  outputDenied(chunk: Chunk): Op[]
  approvalRequest(chunk: Chunk): Op[]
  approvalResponse(chunk: Chunk): Op[]
  /** Forget the calls a reset step made; their messages leave with the step's block. */
  forgetStep(blockId: string): void
}

/**
 * Make the tool call handling for one stream.
 *
 * @example
 * const tools = createToolCalls(createStreamContext({ turnId: 't1', scope: 't1' }))
 */
export function createToolCalls(stream: StreamContext): ToolCalls {
  const { turnId } = stream
  const calls = createToolTracks(stream)
  const { tracks, newTrack, delta, props, kept, row, known } = calls
  const { approvalRequest, approvalResponse, resolveGate, ...approvals } = createToolApprovals(stream, calls)
  /** Calls whose input grew since the last flush. */
  const pending = new Set<ToolTrack>()
  /** Input nested deeper than this would not fit in a path under `props.input`. */
  const maxDepth = MAX_PATH_SEGMENTS - 1

  function inputStart(chunk: Chunk): Op[] {
    const toolCallId = idOf(chunk.toolCallId)
    if (!toolCallId) return [stream.problem('tool-input-start without a toolCallId', chunk, 'missing_id')]
    const ops: Op[] = []
    let name = idOf(chunk.toolName)
    if (!name) {
      ops.push(stream.problem('tool-input-start without a toolName', chunk, 'invalid'))
      name = 'tool'
    }
    const earlier = tracks.get(toolCallId)
    if (earlier) {
      // The call starts again: its earlier input ended here.
      sendText(earlier, ops)
      pending.delete(earlier)
      endInput(earlier, ops)
    }
    const track = newTrack(toolCallId, name, chunk)
    ops.push(
      props(track, {
        toolCallId, name, state: 'input-streaming', inputText: '', title: track.title,
        dynamic: chunk.dynamic === true ? true : undefined, providerExecuted: booleanOf(chunk.providerExecuted),
        inputEncoding: chunk.inputEncoding === 'text' || chunk.inputEncoding === 'json' ? chunk.inputEncoding : undefined,
      }),
      row(track, { status: 'start', parentId: track.blockId }),
    )
    kept(track, chunk, 'callProviderMetadata', ops)
    return ops
  }

  function inputDelta(chunk: Chunk): Op[] {
    const text = stringOf(chunk.inputTextDelta)
    if (text === undefined) return [stream.problem('tool-input-delta without an inputTextDelta string', chunk, 'invalid')]
    const found = known(chunk, 'tool-input-delta')
    if (!('track' in found)) return found.ops
    const { track, ops } = found
    track.streamed = true
    kept(track, chunk, undefined, ops)
    if (track.encoding === 'text') {
      ops.push(delta(track, 'append', 'inputText', text), delta(track, 'append', 'input', text))
      return ops
    }
    // The text waits for the batch's end too: one append per batch, not one per delta.
    track.unsent += text
    ;(track.input ??= new StreamedInput(maxDepth)).append(text)
    pending.add(track)
    return ops
  }

  /** The `inputText` append of what came since the last one, if anything did. */
  function sendText(track: ToolTrack, ops: Op[]): void {
    if (track.unsent === '') return
    ops.push(delta(track, 'append', 'inputText', track.unsent))
    track.unsent = ''
  }

  function flush(next?: Chunk, force = false): Op[] {
    if (pending.size === 0 && !force) return []
    const settled = next && (next.type === 'tool-input-available' || next.type === 'tool-input-error') && next.input !== undefined
      ? idOf(next.toolCallId)
      : undefined
    const ops: Op[] = []
    for (const track of pending) {
      sendText(track, ops)
      // A call whose next chunk brings its whole input needs no value of its own.
      if (track.input && track.toolCallId !== settled) {
        const parser = track.input.parsed()
        if (!force && !parser.snapshotDue) continue
        ops.push(delta(track, 'set', 'input', parser.snapshot({ maxDepth })))
      }
      pending.delete(track)
    }
    // The stream is over: every input still open has ended.
    if (force) for (const track of tracks.values()) endInput(track, ops)
    return ops
  }

  /** The call's streamed input ended: report what is wrong with it, once. */
  function endInput(track: ToolTrack, ops: Op[]): void {
    const input = track.input
    if (!input) return
    track.input = undefined
    const ended = input.end()
    if (ended.unsafeKey !== undefined) {
      ops.push(stream.problem(`the input of tool call "${track.toolCallId}" has the key "${ended.unsafeKey}", which is dropped`, undefined, 'invalid'))
    }
    if (ended.depth > maxDepth + 1) {
      ops.push(stream.problem(`the input of tool call "${track.toolCallId}" nests deeper than ${maxDepth} levels; the deeper part is dropped`, undefined, 'too_deep'))
    }
    if (ended.error) {
      const { message, offset } = ended.error
      ops.push(stream.problem(`the input of tool call "${track.toolCallId}" is not valid JSON: ${message} (at ${offset})`, textAround(input.text, offset), 'tool_input_json'))
    }
  }

  function inputAvailable(chunk: Chunk): Op[] {
    const toolCallId = idOf(chunk.toolCallId)
    if (!toolCallId) return [stream.problem('tool-input-available without a toolCallId', chunk, 'missing_id')]
    const ops: Op[] = []
    const existing = tracks.get(toolCallId)
    const name = idOf(chunk.toolName) ?? existing?.name ?? 'tool'
    const track = existing ?? newTrack(toolCallId, name, chunk)
    track.name = name
    track.title = stringOf(chunk.title) ?? track.title
    sendText(track, ops)
    pending.delete(track)
    endInput(track, ops)
    const hasInput = 'input' in chunk
    if (!hasInput) ops.push(stream.problem(`tool-input-available for "${toolCallId}" without an input`, chunk, 'invalid'))
    ops.push(
      props(track, {
        toolCallId, name, state: 'input-available', title: track.title,
        input: hasInput ? chunk.input : undefined,
        inputText: hasInput && !track.streamed ? safeJson(chunk.input) : undefined,
        dynamic: chunk.dynamic === true ? true : undefined, providerExecuted: booleanOf(chunk.providerExecuted),
      }),
      row(track, { status: 'progress', args: hasInput ? chunk.input : undefined, parentId: existing ? undefined : track.blockId }),
    )
    kept(track, chunk, 'callProviderMetadata', ops)
    return ops
  }

  function inputError(chunk: Chunk): Op[] {
    const toolCallId = idOf(chunk.toolCallId)
    if (!toolCallId) return [stream.problem('tool-input-error without a toolCallId', chunk, 'missing_id')]
    const existing = tracks.get(toolCallId)
    const track = existing ?? newTrack(toolCallId, idOf(chunk.toolName) ?? 'tool', chunk)
    const ops: Op[] = []
    sendText(track, ops)
    pending.delete(track)
    endInput(track, ops)
    const errorText = stringOf(chunk.errorText) ?? 'the tool input was not valid'
    track.title = stringOf(chunk.title) ?? track.title
    ops.push(
      props(track, {
        toolCallId, name: track.name, state: 'output-error', input: chunk.input, errorText, title: track.title,
        dynamic: chunk.dynamic === true ? true : undefined, providerExecuted: booleanOf(chunk.providerExecuted),
      }),
      row(track, { args: chunk.input, parentId: existing ? undefined : track.blockId }),
      { op: 'trace.fail', turnId, nodeId: track.messageId, tool: track.name, message: errorText },
    )
    kept(track, chunk, 'resultProviderMetadata', ops)
    return ops
  }

  function outputAvailable(chunk: Chunk): Op[] {
    const found = known(chunk, 'tool-output-available')
    if (!('track' in found)) return found.ops
    const { track, ops } = found
    if (!('output' in chunk)) ops.push(stream.problem(`tool-output-available for "${track.toolCallId}" without an output`, chunk, 'invalid'))
    const preliminary = chunk.preliminary === true
    ops.push(
      props(track, {
        state: 'output-available', output: chunk.output, preliminary: preliminary ? true : track.preliminary ? false : undefined,
        providerExecuted: booleanOf(chunk.providerExecuted), dynamic: chunk.dynamic === true ? true : undefined,
      }),
      row(track, { status: preliminary ? 'progress' : 'done', result: chunk.output }),
    )
    kept(track, chunk, 'resultProviderMetadata', ops)
    track.preliminary = preliminary
    // The tool ran, so whatever approval it waited for was given.
    if (track.gatePending && track.gateId) ops.push(resolveGate(track, 'approved'))
    return ops
  }

  function outputError(chunk: Chunk): Op[] {
    const found = known(chunk, 'tool-output-error')
    if (!('track' in found)) return found.ops
    const { track, ops } = found
    const errorText = stringOf(chunk.errorText) ?? 'the tool failed'
    ops.push(
      props(track, { state: 'output-error', errorText, providerExecuted: booleanOf(chunk.providerExecuted), dynamic: chunk.dynamic === true ? true : undefined }),
      { op: 'trace.fail', turnId, nodeId: track.messageId, tool: track.name, message: errorText },
    )
    kept(track, chunk, 'resultProviderMetadata', ops)
    return ops
  }

  function outputDenied(chunk: Chunk): Op[] {
    const found = known(chunk, 'tool-output-denied')
    if (!('track' in found)) return found.ops
    const { track, ops } = found
    ops.push(props(track, { state: 'output-denied' }), row(track, { status: 'done', resultDetail: 'denied' }))
    kept(track, chunk, undefined, ops)
    if (track.gatePending && track.gateId) ops.push(resolveGate(track, 'rejected'))
    return ops
  }

  return {
    inputStart, inputDelta, inputAvailable, inputError, outputAvailable, outputError, outputDenied, approvalRequest, approvalResponse, flush,
    forgetStep(blockId) {
      for (const [id, track] of tracks) {
        if (track.blockId !== blockId) continue
        tracks.delete(id)
        pending.delete(track)
      }
      approvals.forgetStep(blockId)
    },
  }
}

/** The input text around a parse failure's offset, for the problem's detail. */
function textAround(text: string, offset: number): string {
  return text.slice(Math.max(0, offset - 40), offset + 40)
}
