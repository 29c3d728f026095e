/**
 * The AG-UI event stream, decoded into weft ops. AG-UI ids (messages, tool
 * calls, sub-agent runs, interrupts) are global, so they are used as they come:
 * a run the stream replays lands on the messages it already made instead of
 * adding new ones. Text and arguments are rebuilt from this stream's own events
 * (`set`, not `append`), which makes a replay idempotent.
 */
// The default export works both in Node's ESM loader (CJS main) and in bundlers.
import jsonPatch from 'fast-json-patch'
import { toErrorType, weftError } from '../../core/errors'
import { isRecord } from '../../core/util/record'
import type { Message } from '../../core/model'
import type { MessagePlace, Op } from '../../core/ops'
import { protocolProblem } from '../../core/protocol/problem'
import type { DecodeContext, Decoder, FrameMeta } from '../../core/protocol/types'
import { nonEmpty } from '../../core/util/values'
import { AG_UI_EVENT_TYPES, textField } from './event-types'
import { readAgUiMessage, type MessagePart } from './messages'
import { finalArguments, newToolTrack, pushArguments, resetArguments, type ToolTrack } from './tool-calls'
import { readToolResult } from './tool-result'

type Event = Record<string, unknown>
type ChunkKind = 'text' | 'reasoning' | 'tool'

/** How many `RAW` events the turn keeps (the host gets every one through `onData`). */
const RAW_KEPT = 20

/** Events that end an implicit chunk stream in their lane, as the AG-UI client does. */
const LANE_CLOSERS = new Set([
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'CUSTOM', 'STEP_STARTED', 'STEP_FINISHED',
  'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
  'THINKING_START', 'THINKING_END', 'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_CONTENT', 'THINKING_TEXT_MESSAGE_END',
])
/** Events that end every implicit chunk stream. */
const ALL_CLOSERS = new Set(['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'MESSAGES_SNAPSHOT'])

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
 * A decoder for one AG-UI event stream.
 *
 * @example
 * const d = createAgUiDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, { event: 'TEXT_MESSAGE_START' })
 */
/**
 * What of a replayed earlier run reaches the live turn: its messages, which
 * merge by id into the turn history put them in (or arrive here if history did
 * not have them), and the thread's shared state. Its timeline rows, steps,
 * sources, gates and run status belong to that earlier run, not to this answer.
 */
function keepFromReplay(op: Op): Op[] {
  switch (op.op) {
    case 'message.put':
    case 'message.delta': {
      const { blockId: _block, threadId: _thread, ...unplaced } = op
      return [unplaced as Op]
    }
    case 'message.finish':
    case 'message.remove':
    case 'agentState.set':
    case 'agentState.patch':
    case 'problem':
    case 'cursor':
      return [op]
    default:
      return []
  }
}

export function createAgUiDecoder(context: DecodeContext): Decoder {
  const { turnId, scope, onData } = context
  let currentRunId: string | undefined
  const inputId = agUiInputMessageId(turnId)

  /** Text and reasoning messages this stream started (their text lives in the store). */
  const texts = new Set<string>()
  const openMessages = new Set<string>()
  const tools = new Map<string, ToolTrack>()
  /** Open steps per lane ('' is the agent itself, otherwise a sub-agent run). */
  const steps = new Map<string, Array<{ name: string; blockId: string }>>()
  const subagents = new Map<string, { nodeId: string; blockId?: string }>()
  const reasoningSpans = new Map<string, string>()
  const chunks = new Map<string, { kind: ChunkKind; id: string }>()
  const activities = new Map<string, unknown>()
  const thinking: { span?: string; message?: string } = {}
  const rawEvents: unknown[] = []
  let counter = 0
  let ended = false
  let finished = false
  /** The event that closed the last run on the wire, until the next RUN_STARTED. */
  let closedBy: 'RUN_FINISHED' | 'RUN_ERROR' | undefined

  const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem(turnId, message, raw, code)
  const laneOf = (event: Event): string => nonEmpty(event.subagentRunId) ?? ''
  const stepsOf = (lane: string) => {
    let list = steps.get(lane)
    if (!list) steps.set(lane, (list = []))
    return list
  }
  const currentBlock = (lane: string): string | undefined => stepsOf(lane).at(-1)?.blockId ?? subagents.get(lane)?.blockId
  const traceParent = (lane: string): string | undefined => stepsOf(lane).at(-1)?.blockId ?? subagents.get(lane)?.nodeId
  const place = (messageId: string, type: string, role: Message['role'], lane: string): MessagePlace => ({
    turnId, messageId, type, role, blockId: currentBlock(lane), threadId: lane || undefined,
  })

  function decode(raw: unknown, meta: FrameMeta): Op[] {
    if (!isRecord(raw)) return [problem('an AG-UI event must be an object', raw)]
    const type = nonEmpty(raw.type) ?? (meta.event !== undefined && AG_UI_EVENT_TYPES.has(meta.event) ? meta.event : undefined)
    if (!type) return [problem('an AG-UI event has no type', raw, 'missing_type')]
    if (!AG_UI_EVENT_TYPES.has(type)) return [problem(`unknown AG-UI event type "${type}"`, raw, 'unknown_event')]
    // As @ag-ui/client verifies: after a run's end only a new run (or an error of a finished run) may follow.
    if (closedBy && type !== 'RUN_STARTED' && !(type === 'RUN_ERROR' && closedBy === 'RUN_FINISHED')) {
      return [problem(`${type} arrived after ${closedBy}; it was ignored until a new RUN_STARTED`, raw, 'after_end')]
    }
    const ops: Op[] = []
    if (ALL_CLOSERS.has(type)) for (const lane of [...chunks.keys()]) ops.push(...closeChunk(lane))
    else if (LANE_CLOSERS.has(type)) ops.push(...closeChunk(laneOf(raw)))
    ops.push(...handle(type, raw))
    return replaying() ? ops.flatMap(keepFromReplay) : ops
  }

  /** The stream is replaying a run other than the one it was opened for. */
  function replaying(): boolean {
    return context.runId !== undefined && currentRunId !== undefined && currentRunId !== context.runId
  }

  function handle(type: string, e: Event): Op[] {
    switch (type) {
      case 'RUN_STARTED': return runStarted(e)
      case 'RUN_FINISHED': return runFinished(e)
      case 'RUN_ERROR': return runError(e)
      case 'STEP_STARTED': return stepStarted(e)
      case 'STEP_FINISHED': return stepFinished(e)
      case 'TEXT_MESSAGE_START': return withId(e, 'messageId', type, (id) => messageStart(id, 'text', roleOf(e.role), laneOf(e), e))
      case 'TEXT_MESSAGE_CONTENT': return withId(e, 'messageId', type, (id) => messageContent(id, 'text', laneOf(e), e.delta, e))
      case 'TEXT_MESSAGE_END': return withId(e, 'messageId', type, (id) => messageEnd(id, 'text', laneOf(e), e))
      case 'TEXT_MESSAGE_CHUNK': return chunk('text', e)
      case 'REASONING_START': return withId(e, 'messageId', type, (id) => reasoningStart(id, laneOf(e)))
      case 'REASONING_END': return withId(e, 'messageId', type, (id) => reasoningEnd(id))
      case 'REASONING_MESSAGE_START': return withId(e, 'messageId', type, (id) => messageStart(id, 'reasoning', 'assistant', laneOf(e), e))
      case 'REASONING_MESSAGE_CONTENT': return withId(e, 'messageId', type, (id) => messageContent(id, 'reasoning', laneOf(e), e.delta, e))
      case 'REASONING_MESSAGE_END': return withId(e, 'messageId', type, (id) => messageEnd(id, 'reasoning', laneOf(e), e))
      case 'REASONING_MESSAGE_CHUNK': return chunk('reasoning', e)
      case 'REASONING_ENCRYPTED_VALUE': return encryptedValue(e)
      case 'TOOL_CALL_START': return withId(e, 'toolCallId', type, (id) => toolStart(id, e))
      case 'TOOL_CALL_ARGS': return withId(e, 'toolCallId', type, (id) => toolArgs(id, e.delta, e))
      case 'TOOL_CALL_END': return withId(e, 'toolCallId', type, (id) => toolEnd(id, e))
      case 'TOOL_CALL_RESULT': return withId(e, 'toolCallId', type, (id) => toolResult(id, e))
      case 'TOOL_CALL_CHUNK': return chunk('tool', e)
      case 'STATE_SNAPSHOT': return stateSnapshot(e)
      case 'STATE_DELTA':
        return Array.isArray(e.delta)
          ? [{ op: 'agentState.patch', patch: e.delta, turnId }]
          : [problem('STATE_DELTA needs a JSON Patch array in "delta"', e, 'state_delta')]
      case 'MESSAGES_SNAPSHOT':
        return Array.isArray(e.messages)
          ? mergeMessages(e.messages)
          : [problem('MESSAGES_SNAPSHOT needs a "messages" array', e, 'messages_snapshot')]
      case 'ACTIVITY_SNAPSHOT': return withId(e, 'messageId', type, (id) => activitySnapshot(id, e))
      case 'ACTIVITY_DELTA': return withId(e, 'messageId', type, (id) => activityDelta(id, e))
      case 'RAW': return rawEvent(e)
      case 'CUSTOM': return customEvent(e)
      case 'SUBAGENT_STARTED': return withId(e, 'subagentRunId', type, (id) => subagentStarted(id, e))
      case 'SUBAGENT_FINISHED': return withId(e, 'subagentRunId', type, (id) => subagentFinished(id, e))
      case 'SUBAGENT_ERROR': return withId(e, 'subagentRunId', type, (id) => subagentError(id, e))
      case 'THINKING_START':
        thinking.span = `${scope}/thinking-${++counter}`
        return reasoningStart(thinking.span, laneOf(e), nonEmpty(e.title))
      case 'THINKING_END': {
        const span = thinking.span
        thinking.span = undefined
        return span ? reasoningEnd(span) : [problem('THINKING_END without THINKING_START', e, 'end_without_start')]
      }
      case 'THINKING_TEXT_MESSAGE_START':
        thinking.message = `${scope}/thinking-${++counter}`
        return messageStart(thinking.message, 'reasoning', 'assistant', laneOf(e), e)
      case 'THINKING_TEXT_MESSAGE_CONTENT':
        thinking.message ??= `${scope}/thinking-${++counter}`
        return messageContent(thinking.message, 'reasoning', laneOf(e), e.delta, e)
      case 'THINKING_TEXT_MESSAGE_END': {
        const id = thinking.message
        thinking.message = undefined
        return id ? messageEnd(id, 'reasoning', laneOf(e), e) : [problem('THINKING_TEXT_MESSAGE_END without a start', e, 'end_without_start')]
      }
      default:
        return [problem(`unhandled AG-UI event type "${type}"`, e, 'unknown_event')]
    }
  }

  function withId(e: Event, field: string, type: string, then: (id: string) => Op[]): Op[] {
    const id = nonEmpty(e[field])
    return id ? then(id) : [problem(`${type} without "${field}"`, e, 'missing_id')]
  }

  // ------------------------------------------------------------------ runs

  function runStarted(e: Event): Op[] {
    const ops: Op[] = []
    // A second run on the same stream (the stream replayed an earlier run first) makes the turn stream again.
    if (finished) ops.push({ op: 'turn.open', turnId, role: 'assistant' })
    finished = false
    ended = false
    closedBy = undefined
    currentRunId = nonEmpty(e.runId) ?? currentRunId
    const metadata: Record<string, unknown> = {}
    if (nonEmpty(e.parentRunId)) metadata.parentRunId = e.parentRunId
    ops.push({ op: 'turn.update', turnId, runId: nonEmpty(e.runId), threadId: nonEmpty(e.threadId), ...(Object.keys(metadata).length ? { metadata } : {}) })
    const input = isRecord(e.input) ? e.input : undefined
    if (input && Array.isArray(input.messages)) ops.push(...mergeMessages(input.messages))
    return ops
  }

  function runFinished(e: Event): Op[] {
    const ops: Op[] = [...closeOpenTools()]
    const metadata: Record<string, unknown> = {}
    if (e.result !== undefined) metadata.result = e.result
    const outcome = isRecord(e.outcome) ? e.outcome : undefined
    if (outcome && Array.isArray(outcome.pendingToolCallIds)) metadata.pendingToolCallIds = outcome.pendingToolCallIds
    const usage = usageOf(e.usage)
    if (Object.keys(metadata).length > 0 || usage) ops.push({ op: 'turn.update', turnId, ...(usage ? { usage } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) })
    if (outcome?.type === 'interrupt') {
      ops.push(...interrupts(outcome.interrupts))
      ops.push({ op: 'turn.finish', turnId, status: 'done', finishReason: 'interrupt' })
    } else if (outcome?.type === 'cancelled') {
      ops.push({ op: 'turn.finish', turnId, status: 'aborted', finishReason: 'cancelled' })
    } else {
      ops.push({ op: 'turn.finish', turnId, status: 'done' })
    }
    runClosed(nonEmpty(e.runId))
    closedBy = 'RUN_FINISHED'
    return ops
  }

  function interrupts(list: unknown): Op[] {
    if (!Array.isArray(list)) return [problem('an interrupt outcome without an "interrupts" list', list, 'interrupt')]
    const ops: Op[] = []
    for (const item of list) {
      const id = isRecord(item) ? nonEmpty(item.id) : undefined
      if (!isRecord(item) || !id) {
        ops.push(problem('an interrupt without an id', item, 'missing_id'))
        continue
      }
      const toolCallId = nonEmpty(item.toolCallId)
      ops.push({
        op: 'gate.open',
        gate: {
          id, turnId, kind: 'interrupt', question: nonEmpty(item.message) ?? nonEmpty(item.reason) ?? 'The agent is waiting for your answer.',
          payload: item, ...(toolCallId ? { toolCallId } : {}),
        },
      })
      const track = toolCallId ? tools.get(toolCallId) : undefined
      if (track && !track.resulted) {
        ops.push({ op: 'message.delta', ...place(track.id, 'tool', 'assistant', track.lane), action: 'set', path: 'state', value: 'approval-requested' })
      }
    }
    return ops
  }

  function runError(e: Event): Op[] {
    const code = nonEmpty(e.code)
    const known = toErrorType(code)
    const error = weftError(known === 'unknown' ? 'internal' : known, nonEmpty(e.message) ?? 'the agent run failed', { code })
    const usage = usageOf(e.usage)
    const ops: Op[] = [
      ...closeOpenTools(),
      ...(usage ? [{ op: 'turn.update', turnId, usage } as Op] : []),
      { op: 'turn.finish', turnId, status: 'error', error },
    ]
    runClosed(nonEmpty(e.runId))
    closedBy = 'RUN_ERROR'
    return ops
  }

  /** Forget what the run left open; the fold closes the turn's blocks, threads and timeline. */
  function runClosed(runId: string | undefined): void {
    // A replayed earlier run ends before the one this stream was opened for.
    const closed = runId ?? currentRunId
    ended = !context.runId || closed === undefined || closed === context.runId
    finished = true
    steps.clear()
    openMessages.clear()
    reasoningSpans.clear()
    thinking.span = undefined
    thinking.message = undefined
  }

  // ------------------------------------------------------------------ steps and sub-agents

  function stepStarted(e: Event): Op[] {
    const lane = laneOf(e)
    const name = nonEmpty(e.stepName)
    const blockId = `${scope}/step-${++counter}`
    const parentId = traceParent(lane)
    stepsOf(lane).push({ name: name ?? 'step', blockId })
    return [
      ...(name ? [] : [problem('STEP_STARTED without "stepName"', e, 'missing_id')]),
      { op: 'block.open', turnId, blockId, kind: 'step', label: name ?? 'step' },
      { op: 'trace.node', turnId, node: { id: blockId, kind: 'step', label: name ?? 'step', status: 'start', parentId } },
    ]
  }

  function stepFinished(e: Event): Op[] {
    const list = stepsOf(laneOf(e))
    const name = nonEmpty(e.stepName) ?? 'step'
    let at = -1
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]?.name === name) {
        at = i
        break
      }
    }
    if (at < 0) return [problem(`STEP_FINISHED for "${name}", which was not started`, e, 'end_without_start')]
    // Steps opened inside it and never finished close with it.
    return list.splice(at).reverse().flatMap(({ blockId }): Op[] => [
      { op: 'block.close', blockId, status: 'done' },
      { op: 'trace.node', turnId, node: { id: blockId, status: 'done' } },
    ])
  }

  function subagentStarted(id: string, e: Event): Op[] {
    const name = nonEmpty(e.name) ?? 'sub-agent'
    const parentLane = nonEmpty(e.parentSubagentRunId) ?? ''
    const parentToolCallId = nonEmpty(e.parentToolCallId)
    const parentId = parentToolCallId && tools.has(parentToolCallId) ? `tool:${parentToolCallId}` : traceParent(parentLane)
    const nodeId = `delegate:${id}`
    const blockId = currentBlock(parentLane)
    subagents.set(id, { nodeId, blockId })
    const detail: Record<string, unknown> = {}
    for (const key of ['description', 'parentToolCallId', 'parentMessageId', 'parentSubagentRunId']) if (e[key] !== undefined) detail[key] = e[key]
    return [
      { op: 'thread.open', turnId, threadId: id, blockId, label: name },
      {
        op: 'trace.node', turnId,
        node: {
          id: nodeId, kind: 'delegate', label: name, status: 'start', parentId, actor: { id, kind: 'subagent', name },
          ...(Object.keys(detail).length ? { detail } : {}),
        },
      },
    ]
  }

  function subagentFinished(id: string, e: Event): Op[] {
    const ops: Op[] = [...closeChunk(id)]
    if (!subagents.has(id)) ops.push(problem(`SUBAGENT_FINISHED for "${id}", which was not started`, e, 'end_without_start'))
    const outcome = isRecord(e.outcome) ? e.outcome : undefined
    const suspended = outcome?.type === 'suspended'
    if (!suspended) ops.push({ op: 'thread.close', threadId: id, status: 'done' })
    ops.push({
      op: 'trace.node', turnId,
      node: {
        id: `delegate:${id}`, kind: 'delegate', status: suspended ? 'progress' : 'done',
        ...(e.result !== undefined ? { result: e.result } : {}), ...(outcome ? { resultDetail: outcome } : {}),
      },
    })
    closeLane(id)
    return ops
  }

  function subagentError(id: string, e: Event): Op[] {
    const message = nonEmpty(e.message) ?? 'the sub-agent failed'
    const ops: Op[] = [...closeChunk(id)]
    if (!subagents.has(id)) ops.push(problem(`SUBAGENT_ERROR for "${id}", which was not started`, e, 'end_without_start'))
    ops.push(
      { op: 'thread.close', threadId: id, status: 'error' },
      { op: 'trace.node', turnId, node: { id: `delegate:${id}`, kind: 'delegate', ...(nonEmpty(e.code) ? { detail: { code: e.code } } : {}) } },
      { op: 'trace.fail', turnId, nodeId: `delegate:${id}`, message },
    )
    closeLane(id)
    return ops
  }

  function closeLane(lane: string): void {
    steps.delete(lane)
    subagents.delete(lane)
  }

  // ------------------------------------------------------------------ text and reasoning

  function messageStart(id: string, type: 'text' | 'reasoning', role: Message['role'], lane: string, e: Event): Op[] {
    texts.add(id)
    openMessages.add(id)
    // A start begins the text afresh (a replayed run folds onto what it folded before).
    const props: Record<string, unknown> = { content: '' }
    if (typeof e.name === 'string') props.name = e.name
    if (role === 'system' && e.role === 'developer') props.sourceRole = 'developer'
    if (isRecord(e.metadata)) props.metadata = e.metadata
    const ops: Op[] = [{ op: 'message.delta', ...place(id, type, role, lane), action: 'merge', path: '', value: props }]
    if (type === 'reasoning' && !reasoningSpans.has(lane)) {
      ops.push({ op: 'trace.node', turnId, node: { id: `reason:${id}`, kind: 'reason', label: 'Reasoning', status: 'start', parentId: traceParent(lane) } })
    }
    return ops
  }

  function messageContent(id: string, type: 'text' | 'reasoning', lane: string, delta: unknown, e: Event): Op[] {
    if (typeof delta !== 'string') return [problem(`${String(e.type)} needs a string "delta"`, e, 'delta')]
    const ops: Op[] = []
    if (!texts.has(id)) {
      ops.push(problem(`content for message "${id}" before its start; the message was created`, e, 'repaired'))
      ops.push(...messageStart(id, type, type === 'text' ? roleOf(e.role) : 'assistant', lane, e))
    }
    // An append, not a set of the text so far: the fold merges a batch's appends into one write.
    ops.push({ op: 'message.delta', ...place(id, type, 'assistant', lane), action: 'append', path: 'content', value: delta })
    return ops
  }

  function messageEnd(id: string, type: 'text' | 'reasoning', lane: string, e: Event): Op[] {
    const ops: Op[] = []
    // The document's back end sends no CONTENT: END carries the whole text.
    const whole = textField(e, 'content', 'text', 'delta')
    const structured = whole === undefined && e.content !== undefined ? e.content : undefined
    if (!texts.has(id)) {
      if (whole === undefined && structured === undefined) return [problem(`${String(e.type)} for message "${id}", which was not started`, e, 'end_without_start')]
      ops.push(...messageStart(id, type, type === 'text' ? roleOf(e.role) : 'assistant', lane, e))
    }
    const at = place(id, type, 'assistant', lane)
    if (whole !== undefined) {
      texts.add(id)
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'content', value: whole })
    } else if (structured !== undefined) {
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'result', value: structured })
    }
    if (isRecord(e.metadata)) ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'metadata', value: e.metadata })
    openMessages.delete(id)
    ops.push({ op: 'message.finish', messageId: id, status: 'done' })
    if (type === 'reasoning' && !reasoningSpans.has(lane)) ops.push({ op: 'trace.node', turnId, node: { id: `reason:${id}`, status: 'done' } })
    return ops
  }

  function reasoningStart(id: string, lane: string, label = 'Reasoning'): Op[] {
    reasoningSpans.set(lane, id)
    return [{ op: 'trace.node', turnId, node: { id: `reason:${id}`, kind: 'reason', label, status: 'start', parentId: traceParent(lane) } }]
  }

  function reasoningEnd(id: string): Op[] {
    for (const [lane, span] of reasoningSpans) if (span === id) reasoningSpans.delete(lane)
    return [{ op: 'trace.node', turnId, node: { id: `reason:${id}`, kind: 'reason', status: 'done' } }]
  }

  function encryptedValue(e: Event): Op[] {
    const entityId = nonEmpty(e.entityId)
    const value = e.encryptedValue
    if (!entityId || typeof value !== 'string') return [problem('REASONING_ENCRYPTED_VALUE needs "entityId" and "encryptedValue"', e, 'missing_id')]
    const isTool = e.subtype === 'tool-call'
    const lane = isTool ? tools.get(entityId)?.lane ?? laneOf(e) : laneOf(e)
    return [{
      op: 'message.delta', ...place(entityId, isTool ? 'tool' : 'reasoning', 'assistant', lane), action: 'set', path: '',
      value: isTool ? { encryptedValue: value, toolCallId: entityId } : { encryptedValue: value },
    }]
  }

  // ------------------------------------------------------------------ tool calls

  function toolStart(id: string, e: Event): Op[] {
    const name = nonEmpty(e.toolCallName)
    const parentMessageId = nonEmpty(e.parentMessageId)
    const lane = laneOf(e)
    const ops: Op[] = name ? [] : [problem(`TOOL_CALL_START "${id}" without "toolCallName"`, e, 'missing_name')]
    let track = tools.get(id)
    if (track) {
      track.open = true
      if (name) track.name = name
      if (parentMessageId) track.parentMessageId = parentMessageId
      resetArguments(track)
    } else {
      track = newToolTrack(id, name ?? 'tool', lane, parentMessageId)
      tools.set(id, track)
    }
    return [...ops, ...toolOpened(track)]
  }

  function toolOpened(track: ToolTrack): Op[] {
    const value: Record<string, unknown> = { toolCallId: track.id, name: track.name, inputText: '' }
    if (track.parentMessageId) value.parentMessageId = track.parentMessageId
    if (!track.resulted) value.state = 'input-streaming'
    return [
      { op: 'message.delta', ...place(track.id, 'tool', 'assistant', track.lane), action: 'set', path: '', value },
      {
        op: 'trace.node', turnId,
        node: {
          id: `tool:${track.id}`, kind: 'tool', label: track.name, tool: track.name, parentId: traceParent(track.lane),
          ...(track.resulted ? {} : { status: 'start' as const }),
        },
      },
    ]
  }

  function toolArgs(id: string, delta: unknown, e: Event): Op[] {
    if (typeof delta !== 'string') return [problem(`${String(e.type)} needs a string "delta"`, e, 'delta')]
    const ops: Op[] = []
    let track = tools.get(id)
    if (!track) {
      ops.push(problem(`arguments for tool call "${id}" before its start; the call was created`, e, 'repaired'))
      track = newToolTrack(id, 'tool', laneOf(e))
      tools.set(id, track)
      ops.push(...toolOpened(track))
    }
    ops.push(...pushArguments(track, { turnId, messageId: id }, delta))
    if (track.parser.error && !track.reported) {
      track.reported = true
      ops.push(problem(`the arguments of tool call "${id}" are not valid JSON: ${track.parser.error.message}`, e, 'tool_arguments'))
    }
    return ops
  }

  function toolEnd(id: string, e: Event): Op[] {
    const track = tools.get(id)
    if (!track) return [problem(`TOOL_CALL_END for "${id}", which was not started`, e, 'end_without_start')]
    return toolInputDone(track)
  }

  function toolInputDone(track: ToolTrack): Op[] {
    track.open = false
    const ops: Op[] = []
    const args = finalArguments(track)
    const at = place(track.id, 'tool', 'assistant', track.lane)
    if (args.ok) {
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'input', value: args.value })
    } else if (!track.reported) {
      track.reported = true
      ops.push(problem(`the arguments of tool call "${track.id}" are not valid JSON: ${args.reason}`, track.text, 'tool_arguments'))
    }
    if (!track.resulted) ops.push({ op: 'message.delta', ...at, action: 'set', path: 'state', value: 'input-available' })
    ops.push({
      op: 'trace.node', turnId,
      node: { id: `tool:${track.id}`, ...(args.ok ? { args: args.value } : {}), ...(track.resulted ? {} : { status: 'progress' as const }) },
    })
    return ops
  }

  function closeOpenTools(): Op[] {
    const ops: Op[] = []
    for (const track of tools.values()) if (track.open) ops.push(...toolInputDone(track))
    return ops
  }

  function toolResult(id: string, e: Event): Op[] {
    const { props, refused } = readToolResult(e)
    let track = tools.get(id)
    if (!track) {
      // A result for a call this stream never opened: the call may come from history or an
      // earlier stream (an approved interrupt); a later TOOL_CALL_START fills in the rest.
      track = newToolTrack(id, nonEmpty(e.toolCallName) ?? 'tool', laneOf(e))
      track.open = false
      tools.set(id, track)
    }
    track.resulted = true
    const value: Record<string, unknown> = { ...props, toolCallId: id }
    if (nonEmpty(e.messageId)) value.resultMessageId = e.messageId
    if (nonEmpty(e.toolCallName)) value.name = e.toolCallName
    const failed = props.state === 'output-error'
    return [
      { op: 'message.delta', ...place(id, 'tool', 'assistant', track.lane), action: 'set', path: '', value },
      { op: 'message.finish', messageId: id, status: failed ? 'error' : 'done' },
      {
        op: 'trace.node', turnId,
        node: {
          id: `tool:${id}`, kind: 'tool', label: track.name, tool: track.name, parentId: traceParent(track.lane),
          status: failed ? 'error' : 'done', result: props.output, ...(failed ? { resultDetail: props.errorText } : {}),
        },
      },
      ...refused.map((reason) => problem(`navigation action refused: ${reason}`, e.ui_schema ?? e.content, 'navigation')),
    ]
  }

  // ------------------------------------------------------------------ implicit chunks

  function chunk(kind: ChunkKind, e: Event): Op[] {
    const idField = kind === 'tool' ? 'toolCallId' : 'messageId'
    const id = nonEmpty(e[idField])
    const lane = chunkLane(kind, id, e)
    const open = chunks.get(lane)
    const ops: Op[] = []
    let current = open?.kind === kind && (id === undefined || id === open.id) ? open.id : undefined
    if (current === undefined) {
      ops.push(...closeChunk(lane))
      if (!id) return [...ops, problem(`the first ${String(e.type)} of a ${kind === 'tool' ? 'tool call' : 'message'} needs "${idField}"`, e, 'missing_id')]
      current = id
      chunks.set(lane, { kind, id })
      if (kind === 'tool') {
        ops.push(...toolStart(id, { ...e, subagentRunId: lane || undefined }))
      } else {
        ops.push(...messageStart(id, kind, kind === 'text' ? roleOf(e.role) : 'assistant', lane, e))
      }
    }
    if (typeof e.delta === 'string') {
      if (kind === 'tool') ops.push(...toolArgs(current, e.delta, e))
      else ops.push(...messageContent(current, kind, lane, e.delta, e))
    }
    return ops
  }

  function chunkLane(kind: ChunkKind, id: string | undefined, e: Event): string {
    const lane = nonEmpty(e.subagentRunId)
    if (lane !== undefined) return lane
    if (id !== undefined) {
      for (const [key, open] of chunks) if (open.kind === kind && open.id === id) return key
      return ''
    }
    if (chunks.get('')?.kind === kind) return ''
    const lanes = [...chunks].filter(([, open]) => open.kind === kind)
    return lanes.length === 1 ? (lanes[0] as [string, unknown])[0] : ''
  }

  function closeChunk(lane: string): Op[] {
    const open = chunks.get(lane)
    if (!open) return []
    chunks.delete(lane)
    if (open.kind === 'tool') {
      const track = tools.get(open.id)
      return track?.open ? toolInputDone(track) : []
    }
    return openMessages.has(open.id) ? messageEnd(open.id, open.kind, lane, { type: 'chunk end' }) : []
  }

  // ------------------------------------------------------------------ snapshots

  function stateSnapshot(e: Event): Op[] {
    if (!('snapshot' in e)) return [problem('STATE_SNAPSHOT without "snapshot"', e, 'state_snapshot')]
    const snapshot = e.snapshot
    // The store keeps an object; any other JSON value is wrapped so that nothing is lost.
    return [{ op: 'agentState.set', value: isRecord(snapshot) ? snapshot : { value: snapshot } }]
  }

  /** Merge AG-UI messages by id: known ids update in place, new ones join this turn. A snapshot never removes. */
  function mergeMessages(list: unknown[]): Op[] {
    const ops: Op[] = []
    for (const raw of list) {
      if (isRecord(raw) && raw.id === inputId) continue
      const { parts, problems } = readAgUiMessage(raw)
      for (const reason of problems) ops.push(problem(reason, raw, 'message'))
      for (const part of parts) ops.push(...snapshotPart(part))
    }
    return ops
  }

  function snapshotPart(part: MessagePart): Op[] {
    const props = { ...part.props }
    const lane = part.threadId ?? ''
    if (part.type === 'text' || part.type === 'reasoning') texts.add(part.id)
    if (part.type === 'activity') activities.set(part.id, props.content)
    if (part.type === 'tool') {
      let track = tools.get(part.id)
      if (!track) {
        track = newToolTrack(part.id, typeof props.name === 'string' ? props.name : 'tool', lane)
        track.open = false
        tools.set(part.id, track)
      }
      if (part.isResult) {
        track.resulted = true
      } else {
        if (typeof props.name === 'string') track.name = props.name
        if (typeof props.inputText === 'string') resetArguments(track, props.inputText)
        if (track.resulted || track.open) delete props.state
      }
    }
    const ops: Op[] = [{
      op: 'message.delta', turnId, messageId: part.id, type: part.type, role: part.role, threadId: part.threadId,
      action: 'set', path: '', value: props, retype: true,
    }]
    const streaming = openMessages.has(part.id) || (part.type === 'tool' && tools.get(part.id)?.open)
    if (!streaming) ops.push({ op: 'message.finish', messageId: part.id, status: part.props.state === 'output-error' ? 'error' : 'done' })
    return ops
  }

  // ------------------------------------------------------------------ activity, raw, custom

  function activitySnapshot(id: string, e: Event): Op[] {
    if (e.replace === false && activities.has(id)) return []
    const content = isRecord(e.content) ? e.content : {}
    activities.set(id, content)
    return [{
      op: 'message.put', ...place(id, 'activity', 'assistant', laneOf(e)), type: 'activity',
      props: { activityType: nonEmpty(e.activityType) ?? 'activity', content }, status: 'done',
    }]
  }

  function activityDelta(id: string, e: Event): Op[] {
    const current = activities.get(id)
    if (current === undefined) return [problem(`ACTIVITY_DELTA for "${id}", which has no snapshot`, e, 'activity_delta')]
    if (!Array.isArray(e.patch)) return [problem('ACTIVITY_DELTA needs a JSON Patch array in "patch"', e, 'activity_delta')]
    let next: unknown
    try {
      next = jsonPatch.applyPatch(jsonPatch.deepClone(current), e.patch as never, true, false).newDocument
    } catch (thrown) {
      return [problem(`ACTIVITY_DELTA could not be applied: ${thrown instanceof Error ? thrown.message : String(thrown)}`, e, 'activity_delta')]
    }
    activities.set(id, next)
    const at = place(id, 'activity', 'assistant', laneOf(e))
    return [
      { op: 'message.delta', ...at, action: 'set', path: 'content', value: next },
      ...(nonEmpty(e.activityType) ? [{ op: 'message.delta', ...at, action: 'set', path: 'activityType', value: e.activityType } as Op] : []),
      { op: 'message.finish', messageId: id, status: 'done' },
    ]
  }

  function rawEvent(e: Event): Op[] {
    const data = { event: e.event, ...(e.source !== undefined ? { source: e.source } : {}) }
    onData?.({ type: 'raw', data })
    rawEvents.push(data)
    if (rawEvents.length > RAW_KEPT) rawEvents.shift()
    return [{ op: 'turn.update', turnId, metadata: { rawEvents: rawEvents.slice() } }]
  }

  function customEvent(e: Event): Op[] {
    const name = nonEmpty(e.name)
    if (!name) return [problem('CUSTOM without "name"', e, 'missing_name')]
    const value = e.value
    const ownId = isRecord(value) ? nonEmpty(value.id) : undefined
    const messageId = ownId ? `${scope}/custom/${name}/${ownId}` : `${scope}/custom-${++counter}`
    return [{ op: 'message.put', ...place(messageId, `data-${name}`, 'assistant', laneOf(e)), type: `data-${name}`, props: { data: value }, status: 'done' }]
  }

  return {
    protocol: 'ag-ui',
    decode,
    end() {
      if (ended) return []
      const ops: Op[] = []
      for (const lane of [...chunks.keys()]) ops.push(...closeChunk(lane))
      ops.push(...closeOpenTools(), { op: 'turn.finish', turnId, status: 'done' })
      runClosed(undefined)
      ended = true
      return ops
    },
    get ended() {
      return ended
    },
  }
}

function roleOf(role: unknown): Message['role'] {
  switch (role) {
    case 'user': return 'user'
    case 'system':
    case 'developer': return 'system'
    default: return 'assistant'
  }
}

/** AG-UI sends usage as a list per model; the turn keeps the totals and the list. */
function usageOf(raw: unknown): Record<string, unknown> | undefined {
  if (isRecord(raw)) return raw
  if (!Array.isArray(raw) || raw.length === 0) return undefined
  const totals: Record<string, unknown> = { entries: raw }
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens']) {
    let sum = 0
    let seen = false
    for (const entry of raw) {
      if (isRecord(entry) && typeof entry[key] === 'number') {
        sum += entry[key] as number
        seen = true
      }
    }
    if (seen) totals[key] = sum
  }
  return totals
}
