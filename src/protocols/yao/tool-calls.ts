/**
 * Yao's `tool_call` and `execute` messages: a tool call's arguments text, kept
 * as it streams and exposed the way every protocol does, and its timeline row.
 */
import type { Op } from '../../core/index'
import { idOf, isRecord } from '../../protocol-kit/index'

/** What the decoder remembers about a tool call while its arguments stream. */
interface ToolCallTrack {
  toolCallId: string
  name: string
  inputText: string
  traceId: string
}

/**
 * The tool calls of one Yao request, by the wire id of their message.
 *
 * @example
 * const tools = createYaoToolCalls('t1', (id) => `t1/${id}`)
 * tools.toolCall('M1', { id: 'call-1', name: 'search', arguments: '{"q":' }, true)
 */
export interface YaoToolCalls {
  /** Keep a tool call's arguments text (`appends`: the chunk's text goes after what came) and expose it. */
  toolCall(wireId: string, props: Record<string, unknown>, appends: boolean): Op[]
  /** The call's message ended: its state and row settle (nothing when the message is no tool call). */
  finished(wireId: string, failed: boolean): Op[]
  /** An `execute` message's timeline row. */
  executeNode(wireId: string, props: Record<string, unknown>): Op
  /** A new request: its calls are new ones. */
  clear(): void
}

/**
 * Make the tool call handling of one Yao stream; `scoped` turns a wire id into a store id.
 *
 * @example
 * const tools = createYaoToolCalls('t1', (id) => `t1/${id}`)
 * tools.finished('M1', false) // [] until M1 is a tool call
 */
export function createYaoToolCalls(turnId: string, scoped: (id: string) => string): YaoToolCalls {
  const tools = new Map<string, ToolCallTrack>()

  function toolCall(wireId: string, props: Record<string, unknown>, appends: boolean): Op[] {
    let track = tools.get(wireId)
    if (!track) {
      track = { toolCallId: idOf(props.id) ?? wireId, name: idOf(props.name) ?? 'tool', inputText: '', traceId: scoped(`tool:${wireId}`) }
      tools.set(wireId, track)
    }
    if (idOf(props.id)) track.toolCallId = idOf(props.id) as string
    if (idOf(props.name)) track.name = idOf(props.name) as string
    const args = props.arguments
    if (typeof args === 'string') track.inputText = appends ? track.inputText + args : args
    else if (isRecord(args)) track.inputText = JSON.stringify(args)
    const input = tryParse(track.inputText)
    return [
      {
        op: 'message.delta', turnId, messageId: scoped(wireId), action: 'set', path: '',
        value: {
          toolCallId: track.toolCallId, name: track.name, inputText: track.inputText,
          ...(input.ok ? { input: input.value } : {}),
          state: input.ok ? 'input-available' : 'input-streaming',
        },
      },
      { op: 'trace.node', turnId, node: { id: track.traceId, kind: 'tool', tool: track.name, label: track.name, status: 'progress', ...(input.ok ? { args: input.value } : {}) } },
    ]
  }

  function finished(wireId: string, failed: boolean): Op[] {
    const track = tools.get(wireId)
    if (!track) return []
    const input = tryParse(track.inputText)
    return [
      {
        op: 'message.delta', turnId, messageId: scoped(wireId), action: 'set', path: '',
        value: { state: failed ? 'output-error' : 'input-available', ...(input.ok ? { input: input.value } : {}) },
      },
      { op: 'trace.node', turnId, node: { id: track.traceId, status: failed ? 'error' : 'done' } },
    ]
  }

  function executeNode(wireId: string, props: Record<string, unknown>): Op {
    const status = props.status === 'completed' ? 'done' : props.status === 'error' ? 'error' : 'progress'
    const tool = idOf(props.tool)
    return {
      op: 'trace.node', turnId,
      node: { id: scoped(`execute:${wireId}`), kind: 'tool', label: tool ?? 'execute', tool, args: props.input, result: props.output, status },
    }
  }

  return { toolCall, finished, executeNode, clear: () => tools.clear() }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}
