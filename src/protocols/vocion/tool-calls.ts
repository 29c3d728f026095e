/**
 * Tool calls (`tool_start`, `tool_end`, `tool_error`): a tool message and,
 * unless the server draws the call's timeline row itself, a row of our own.
 */
import type { Op, OpOf } from '../../core/index'
import { defined, idOf, isRecord, safeJson } from '../../protocol-kit/index'
import { stackFor, type ToolCall, type VocionEvent, type VocionStream } from './stream-state'
import type { Answer } from './answer'
import type { TraceRows } from './trace-rows'

/**
 * The tool call handlers of one stream.
 *
 * @example
 * const tools = createToolCalls(stream, rows, answer)
 * tools.start({ type: 'tool_start', tool: 'search', input: { q: 'renewals' } })
 */
export interface ToolCalls {
  /** Each keeps `extra` (the event's fields weft does not read) in the tool message's `props.extra`. */
  start(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  end(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  error(event: VocionEvent, extra?: Record<string, unknown>): Op[]
}

/** The merge of an event's unread fields into a tool message, or nothing. */
function kept(turnId: string, messageId: string, extra: Record<string, unknown> | undefined): Op[] {
  return extra ? [{ op: 'message.delta', turnId, messageId, type: 'tool', role: 'assistant', action: 'merge', path: 'extra', value: extra }] : []
}

/**
 * Make the tool call handlers for one stream.
 *
 * @example
 * const tools = createToolCalls(stream, createTraceRows(stream), createAnswer(stream))
 */
export function createToolCalls(stream: VocionStream, rows: TraceRows, answer: Answer): ToolCalls {
  const { turnId, openTools } = stream

  function orphanCall(): ToolCall {
    const messageId = stream.fresh('tool')
    return { messageId, toolCallId: messageId, nodeId: messageId, rowFromServer: false }
  }

  function start(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    if (!tool) return [stream.problem('tool_start without a tool', event, 'invalid')]
    const input = isRecord(event.input) ? event.input : {}
    const messageId = stream.fresh('tool')
    const call: ToolCall = { messageId, toolCallId: messageId, nodeId: messageId, rowFromServer: false }
    const row = rows.unclaimedRowFor(tool)
    if (row) {
      row.claimed = true
      call.nodeId = row.nodeId
      call.rowFromServer = true
    }
    stackFor(openTools, tool).push(call)
    const ops: Op[] = [
      // A call ends the reasoning before it.
      ...answer.closeReasoning(),
      {
        op: 'message.put', turnId, messageId, type: 'tool', role: 'assistant', status: 'streaming',
        props: { toolCallId: call.toolCallId, name: tool, input, inputText: safeJson(input), state: 'input-available', ...(extra ? { extra } : {}) },
      },
    ]
    if (!call.rowFromServer) {
      ops.push({ op: 'trace.node', turnId, node: { id: call.nodeId, kind: 'tool', tool, label: tool, status: 'start', args: input } })
    }
    return ops
  }

  function end(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    if (!tool) return [stream.problem('tool_end without a tool', event, 'invalid')]
    const input = isRecord(event.input) ? event.input : undefined
    const output = event.output
    // An end without a start (a resumed stream can skip it) still shows the finished call.
    const call = stackFor(openTools, tool).pop() ?? orphanCall()
    const ops: Op[] = [{
      op: 'message.delta', turnId, messageId: call.messageId, type: 'tool', role: 'assistant', action: 'set', path: '',
      value: {
        toolCallId: call.toolCallId, name: tool, state: 'output-available',
        ...(output !== undefined ? { output } : {}),
        ...(input ? { input, inputText: safeJson(input) } : {}),
      },
    }, ...kept(turnId, call.messageId, extra), { op: 'message.finish', messageId: call.messageId, status: 'done' }]
    if (!call.rowFromServer) {
      ops.push({
        op: 'trace.node', turnId,
        node: { id: call.nodeId, kind: 'tool', tool, label: tool, status: 'done', ...defined({ result: output, args: input }) },
      })
    }
    return ops
  }

  function error(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    const message = idOf(event.message) ?? 'the tool failed'
    const status = typeof event.status === 'number' ? event.status : undefined
    const call = tool ? stackFor(openTools, tool).pop() : undefined
    const target = call ?? orphanCall()
    // No call of ours: the latest open row the server drew for that tool fails, or else a new row shows the error.
    const nodeId = call?.nodeId ?? (tool ? rows.latestOpenRow(tool)?.nodeId : undefined)
    const fail: OpOf<'trace.fail'> = nodeId ? { op: 'trace.fail', turnId, nodeId, message } : { op: 'trace.fail', turnId, tool, message }
    for (const row of stream.rows.values()) if (row.nodeId === nodeId) row.open = false
    return [
      {
        op: 'message.delta', turnId, messageId: target.messageId, type: 'tool', role: 'assistant', action: 'set', path: '',
        value: {
          toolCallId: target.toolCallId, name: tool ?? 'tool', state: 'output-error', errorText: message,
          ...(status !== undefined ? { httpStatus: status } : {}),
        },
      },
      ...kept(turnId, target.messageId, extra),
      { op: 'message.finish', messageId: target.messageId, status: 'error' },
      fail,
    ]
  }

  return { start, end, error }
}
