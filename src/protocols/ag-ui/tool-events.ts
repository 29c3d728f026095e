/**
 * Tool call events (`TOOL_CALL_START`, `_ARGS`, `_END`, `_RESULT`): the tool
 * message, its state and its timeline row. The arguments' incremental parse
 * lives in `tool-calls.ts`.
 */
import type { MessagePlace, Op } from '../../core/index'
import { nonEmpty } from '../../protocol-kit/index'
import type { AgUiEvent, AgUiStream } from './stream-state'
import { finalArguments, inputSnapshot, MAX_INPUT_DEPTH, newToolTrack, pushArguments, resetArguments, unsentText, type ToolTrack } from './tool-calls'
import { readToolResult } from './tool-result'

/**
 * The tool calls of one stream.
 *
 * @example
 * const calls = createToolEvents(stream)
 * calls.start('c1', { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' })
 */
export interface ToolEvents {
  /**
   * Each handler keeps `extra` (the event's fields weft does not read) on the tool
   * message: the call's events in `props.extra`, the result's in `props.resultExtra`
   * (on the wire they are fields of the call and of the `role: "tool"` message).
   */
  start(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  args(id: string, delta: unknown, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  end(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  result(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  /** The arguments are complete: parse them and move the call on. */
  inputDone(track: ToolTrack): Op[]
  /** Every call still taking arguments is complete (a run ended). */
  closeOpen(): Op[]
  /**
   * Write the arguments of every call that got more since the last flush: their
   * text always, their parsed value except for `except` (whose end writes it
   * itself). The decoder calls it before any event that is not more arguments,
   * the client at each read's end. Long arguments are parsed and written once they
   * have grown enough to be worth a copy (`snapshotDue`), unless `force` (the
   * stream's end or release).
   */
  flush(except?: string, force?: boolean): Op[]
}

/**
 * Make the tool call handlers for one stream.
 *
 * @example
 * const calls = createToolEvents(createAgUiStream({ turnId: 't1', scope: 't1' }))
 */
export function createToolEvents(stream: AgUiStream): ToolEvents {
  const { turnId, tools } = stream

  /** Where the call's message is: its lane's thread, and the block it was first seen in. */
  const placeOf = (track: ToolTrack): MessagePlace => ({
    turnId, messageId: track.id, type: 'tool', role: 'assistant', blockId: track.blockId, threadId: track.lane || undefined,
  })
  /** Calls whose arguments grew since the last flush. */
  const pending = new Set<ToolTrack>()

  function flush(except?: string, force = false): Op[] {
    if (pending.size === 0 && !force) return []
    const ops: Op[] = []
    for (const track of pending) {
      const text = unsentText(track, { turnId, messageId: track.id })
      if (text) ops.push(text)
      if (track.id === except || (!force && !track.input.parsed().snapshotDue)) continue
      ops.push(inputSnapshot(track, placeOf(track)))
      pending.delete(track)
    }
    // The stream is over without its end: what is wrong with arguments still open is told now.
    if (force) for (const track of tools.values()) if (track.open) report(track, finalArguments(track), ops, false)
    return ops
  }

  /**
   * What the arguments leave out, and why they are not JSON, each told once.
   * Arguments that only stop early are told so when the call ends (`ended`).
   */
  function report(track: ToolTrack, parsed: ReturnType<typeof finalArguments>, ops: Op[], ended = true): void {
    const { id } = track
    const input = parsed.ended
    if (input?.unsafeKey !== undefined && !track.reportedKey) {
      track.reportedKey = true
      ops.push(stream.problem(`the arguments of tool call "${id}" have the key "${input.unsafeKey}", which is dropped`, undefined, 'tool_arguments'))
    }
    if (input && input.depth > MAX_INPUT_DEPTH + 1 && !track.reportedDepth) {
      track.reportedDepth = true
      ops.push(stream.problem(`the arguments of tool call "${id}" nest deeper than ${MAX_INPUT_DEPTH} levels; the deeper part is dropped`, undefined, 'too_deep'))
    }
    if (!parsed.ok && !track.reported && (ended || input?.error)) {
      track.reported = true
      const text = track.input.text
      const offset = input?.error?.offset
      ops.push(stream.problem(
        `the arguments of tool call "${id}" are not valid JSON: ${parsed.reason}`,
        offset === undefined ? text : text.slice(Math.max(0, offset - 40), offset + 40),
        'tool_arguments',
      ))
    }
  }

  function start(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const name = nonEmpty(e.toolCallName)
    const parentMessageId = nonEmpty(e.parentMessageId)
    const lane = stream.laneOf(e)
    const ops: Op[] = name ? [] : [stream.problem(`TOOL_CALL_START "${id}" without "toolCallName"`, e, 'missing_name')]
    let track = tools.get(id)
    if (track?.open) {
      // A start for a call still taking arguments is out of order (@ag-ui/client's verifier ends the
      // run here): the arguments received so far are kept, and the start's name and parent still apply.
      ops.push(stream.problem(`TOOL_CALL_START for tool call "${id}", which is still open; its arguments so far are kept`, e, 'start_while_open'))
      if (name) track.name = name
      if (parentMessageId) track.parentMessageId = parentMessageId
      return [...ops, ...renamed(track), ...kept(track, 'extra', extra)]
    }
    if (track) {
      // The call starts again after its end (a replayed run): its earlier text is written first.
      const text = unsentText(track, { turnId, messageId: track.id })
      if (text) ops.push(text)
      track.open = true
      if (name) track.name = name
      if (parentMessageId) track.parentMessageId = parentMessageId
      resetArguments(track)
    } else {
      track = newToolTrack(id, name ?? 'tool', lane, parentMessageId, stream.currentBlock(lane))
      tools.set(id, track)
    }
    return [...ops, ...opened(track), ...kept(track, 'extra', extra)]
  }

  /** The event's unread fields, merged into the tool message under `key`. */
  function kept(track: ToolTrack, key: 'extra' | 'resultExtra', extra: Record<string, unknown> | undefined): Op[] {
    if (!extra) return []
    return [{ op: 'message.delta', ...placeOf(track), action: 'merge', path: key, value: extra }]
  }

  /** A call's name and parent again, leaving its arguments as they are. */
  function renamed(track: ToolTrack): Op[] {
    const value: Record<string, unknown> = { name: track.name }
    if (track.parentMessageId) value.parentMessageId = track.parentMessageId
    return [
      { op: 'message.delta', ...placeOf(track), action: 'merge', path: '', value },
      { op: 'trace.node', turnId, node: { id: `tool:${track.id}`, label: track.name, tool: track.name } },
    ]
  }

  function opened(track: ToolTrack): Op[] {
    const value: Record<string, unknown> = { toolCallId: track.id, name: track.name, inputText: '' }
    if (track.parentMessageId) value.parentMessageId = track.parentMessageId
    if (!track.resulted) value.state = 'input-streaming'
    return [
      { op: 'message.delta', ...placeOf(track), action: 'set', path: '', value },
      {
        op: 'trace.node', turnId,
        node: {
          id: `tool:${track.id}`, kind: 'tool', label: track.name, tool: track.name, parentId: stream.traceParent(track.lane),
          ...(track.resulted ? {} : { status: 'start' as const }),
        },
      },
    ]
  }

  function args(id: string, delta: unknown, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    if (typeof delta !== 'string') return [stream.problem(`${String(e.type)} needs a string "delta"`, e, 'delta')]
    const ops: Op[] = []
    let track = tools.get(id)
    if (!track) {
      ops.push(stream.problem(`arguments for tool call "${id}" before its start; the call was created`, e, 'repaired'))
      const lane = stream.laneOf(e)
      track = newToolTrack(id, 'tool', lane, undefined, stream.currentBlock(lane))
      tools.set(id, track)
      ops.push(...opened(track))
    }
    if (!track.open) {
      // The call has ended (its END, its result, or a snapshot that completed it): @ag-ui/client's verifier
      // ends the run here. The arguments stay as they were at the end, and this is told once per call.
      if (track.reportedLate) return ops
      track.reportedLate = true
      return [...ops, stream.problem(`${String(e.type)} for tool call "${id}" after its end; it and any later arguments were ignored`, e, 'tool_arguments')]
    }
    pushArguments(track, delta)
    if (extra) ops.push(...kept(track, 'extra', extra))
    pending.add(track)
    return ops
  }

  function end(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const track = tools.get(id)
    if (!track) return [stream.problem(`TOOL_CALL_END for "${id}", which was not started`, e, 'end_without_start')]
    return [...inputDone(track), ...kept(track, 'extra', extra)]
  }

  function inputDone(track: ToolTrack): Op[] {
    track.open = false
    const at = placeOf(track)
    const text = unsentText(track, { turnId, messageId: track.id })
    const ops: Op[] = text ? [text] : []
    const parsed = finalArguments(track)
    const grew = pending.delete(track)
    if (parsed.ok) {
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'input', value: parsed.value })
    } else if (grew) {
      // Arguments that never became whole JSON stay as far as they parsed.
      ops.push(inputSnapshot(track, at))
    }
    report(track, parsed, ops)
    if (!track.resulted) ops.push({ op: 'message.delta', ...at, action: 'set', path: 'state', value: 'input-available' })
    ops.push({
      op: 'trace.node', turnId,
      node: { id: `tool:${track.id}`, ...(parsed.ok ? { args: parsed.value } : {}), ...(track.resulted ? {} : { status: 'progress' as const }) },
    })
    return ops
  }

  function closeOpen(): Op[] {
    const ops: Op[] = []
    for (const track of tools.values()) if (track.open) ops.push(...inputDone(track))
    return ops
  }

  function result(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const { props, refused } = readToolResult(e)
    let track = tools.get(id)
    if (!track) {
      // A result for a call this stream never opened: the call may come from history or an
      // earlier stream (an approved interrupt); a later TOOL_CALL_START fills in the rest.
      const lane = stream.laneOf(e)
      track = newToolTrack(id, nonEmpty(e.toolCallName) ?? 'tool', lane, undefined, stream.currentBlock(lane))
      track.open = false
      tools.set(id, track)
    }
    track.resulted = true
    const value: Record<string, unknown> = { ...props, toolCallId: id }
    if (nonEmpty(e.messageId)) value.resultMessageId = e.messageId
    if (nonEmpty(e.toolCallName)) value.name = e.toolCallName
    const failed = props.state === 'output-error'
    return [
      { op: 'message.delta', ...placeOf(track), action: 'set', path: '', value },
      ...kept(track, 'resultExtra', extra),
      { op: 'message.finish', messageId: id, status: failed ? 'error' : 'done' },
      {
        op: 'trace.node', turnId,
        node: {
          id: `tool:${id}`, kind: 'tool', label: track.name, tool: track.name, parentId: stream.traceParent(track.lane),
          status: failed ? 'error' : 'done', result: props.output, ...(failed ? { resultDetail: props.errorText } : {}),
        },
      },
      ...refused.map((reason) => stream.problem(`navigation action refused: ${reason}`, e.ui_schema ?? e.content, 'navigation')),
    ]
  }

  return { start, args, end, result, inputDone, closeOpen, flush }
}
