/**
 * What the parts of the AG-UI decoder share for one stream: the turn, the
 * messages and tool calls it has seen, the lanes (the agent itself and each
 * sub-agent run) with their open steps, and where a new message goes.
 */
import type { DataPart, DecodeContext, Message, MessagePlace, Op } from '../../core/index'
import { createIdScope, nonEmpty, protocolProblem } from '../../protocol-kit/index'
import type { ToolTrack } from './tool-calls'

/** One AG-UI event, already known to be an object. */
export type AgUiEvent = Record<string, unknown>

/**
 * The id of the user message the runs flow sends for a turn. The kit already
 * shows that message (the user's turn), so when the server echoes it back in a
 * `MESSAGES_SNAPSHOT` or `RUN_STARTED.input` it is not added a second time.
 *
 * @example
 * agUiInputMessageId('turn-1') // 'turn-1:input'
 */
export function agUiInputMessageId(turnId: string): string {
  return `${turnId}:input`
}

/**
 * Shared per-stream state and helpers.
 *
 * @example
 * const stream = createAgUiStream({ turnId: 't1', scope: 't1' })
 * stream.place('m1', 'text', 'assistant', '') // { turnId: 't1', messageId: 'm1', ... }
 */
export interface AgUiStream {
  readonly turnId: string
  readonly scope: string
  readonly onData: ((part: DataPart) => void) | undefined
  /** Text and reasoning messages this stream started (their text lives in the store). */
  readonly texts: Set<string>
  /** Text and reasoning messages started and not yet ended. */
  readonly openMessages: Set<string>
  readonly tools: Map<string, ToolTrack>
  /** Open steps per lane ('' is the agent itself, otherwise a sub-agent run). */
  readonly steps: Map<string, Array<{ name: string; blockId: string }>>
  readonly subagents: Map<string, { nodeId: string; blockId?: string }>
  /** A fresh stream-scoped id for something the wire gives no id. */
  fresh(kind: string): string
  problem(message: string, raw?: unknown, code?: string): Op
  /** The lane an event belongs to: its sub-agent run, or '' for the agent itself. */
  laneOf(event: AgUiEvent): string
  /** The open steps of a lane, innermost last. */
  stepsOf(lane: string): Array<{ name: string; blockId: string }>
  /** The block a new message of the lane goes into. */
  currentBlock(lane: string): string | undefined
  /** The timeline row a new row of the lane hangs under. */
  traceParent(lane: string): string | undefined
  place(messageId: string, type: string, role: Message['role'], lane: string): MessagePlace
}

/**
 * Make the shared state for one stream.
 *
 * @example
 * const stream = createAgUiStream({ turnId: 't1', scope: 't1' })
 */
export function createAgUiStream(context: DecodeContext): AgUiStream {
  const { turnId, scope } = context
  const ids = createIdScope(scope)
  const stream: AgUiStream = {
    turnId,
    scope,
    onData: context.onData,
    texts: new Set(),
    openMessages: new Set(),
    tools: new Map(),
    steps: new Map(),
    subagents: new Map(),
    fresh: ids.fresh,
    problem: (message, raw, code) => protocolProblem(turnId, message, raw, code),
    laneOf: (event) => nonEmpty(event.subagentRunId) ?? '',
    stepsOf(lane) {
      let list = stream.steps.get(lane)
      if (!list) stream.steps.set(lane, (list = []))
      return list
    },
    currentBlock: (lane) => stream.stepsOf(lane).at(-1)?.blockId ?? stream.subagents.get(lane)?.blockId,
    traceParent: (lane) => stream.stepsOf(lane).at(-1)?.blockId ?? stream.subagents.get(lane)?.nodeId,
    place: (messageId, type, role, lane) => ({
      turnId, messageId, type, role, blockId: stream.currentBlock(lane), threadId: lane || undefined,
    }),
  }
  return stream
}

/**
 * The kit's role for an AG-UI role (`developer` reads as `system`).
 *
 * @example
 * roleOf('developer') // 'system'
 */
export function roleOf(role: unknown): Message['role'] {
  switch (role) {
    case 'user': return 'user'
    case 'system':
    case 'developer': return 'system'
    default: return 'assistant'
  }
}
