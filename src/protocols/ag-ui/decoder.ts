/**
 * The AG-UI event stream, decoded into weft ops. AG-UI ids (messages, tool
 * calls, sub-agent runs, interrupts) are global, so they are used as they come:
 * a run the stream replays lands on the messages it already made instead of
 * adding new ones. Text and arguments are rebuilt from this stream's own events
 * (`set`, not `append`), which makes a replay idempotent. This file reads the
 * runs and hands each event kind to its own module.
 */
import { type DecodeContext, type Decoder, type FrameMeta, type Op, type TokenUsage, weftError } from '../../core/index'
import { isRecord, nonEmpty, patchJsonData, toErrorType } from '../../protocol-kit/index'
import { CHUNK_TYPES, createChunks } from './chunks'
import { eventExtras } from './event-fields'
import { AG_UI_EVENT_TYPES } from './event-types'
import { createLanes } from './lanes'
import { createSnapshots } from './snapshots'
import { createAgUiStream, roleOf, type AgUiEvent } from './stream-state'
import { createTextMessages } from './text-messages'
import { createToolEvents } from './tool-events'
import { agUiUsage } from './usage'

export { agUiInputMessageId } from './stream-state'

/** No ops, shared: the common answer of the checks every event passes through. */
const NO_OPS: readonly Op[] = Object.freeze([])

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
    case 'problem':
    case 'cursor':
      return [op]
    default:
      return []
  }
}

/**
 * A decoder for one AG-UI event stream.
 *
 * @example
 * const d = createAgUiDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, { event: 'TEXT_MESSAGE_START' })
 */
export function createAgUiDecoder(context: DecodeContext): Decoder {
  const stream = createAgUiStream(context)
  const { turnId, problem, laneOf } = stream
  const texts = createTextMessages(stream)
  const calls = createToolEvents(stream)
  const chunks = createChunks(stream, texts, calls)
  const lanes = createLanes(stream, chunks)
  const snapshots = createSnapshots(stream)
  let currentRunId: string | undefined
  let ended = false
  let finished = false
  /** The event that closed the last run on the wire, until the next RUN_STARTED. */
  let closedBy: 'RUN_FINISHED' | 'RUN_ERROR' | undefined

  function decode(raw: unknown, meta: FrameMeta): Op[] {
    const type = isRecord(raw) ? raw.type : undefined
    // An event that is not a token first writes what the tokens gathered; one that is not
    // more of a call's arguments, the arguments parsed so far.
    // A text chunk is a token too: one that does more (starts or ends a message) writes what is held itself.
    const token = type === 'TEXT_MESSAGE_CONTENT' || type === 'REASONING_MESSAGE_CONTENT' || type === 'THINKING_TEXT_MESSAGE_CONTENT'
      || type === 'TEXT_MESSAGE_CHUNK' || type === 'REASONING_MESSAGE_CHUNK'
    const args = type === 'TOOL_CALL_ARGS' || type === 'TOOL_CALL_CHUNK'
    const input = written(token, !args, type === 'TOOL_CALL_END' && isRecord(raw) ? nonEmpty(raw.toolCallId) : undefined)
    const ops = decodeEvent(raw, meta)
    if (input.length === 0) return ops
    for (const op of ops) input.push(op)
    return input
  }

  function flush(except?: string, force = false): Op[] {
    return written(false, true, except, force)
  }

  /** What the tokens gathered (unless `keepText`) and the arguments parsed so far (if `withArgs`). */
  function written(keepText: boolean, withArgs: boolean, except?: string, force = false): Op[] {
    const ops = keepText ? [] : texts.takeHeld()
    if (withArgs) for (const op of calls.flush(except, force)) ops.push(op)
    return replaying() && ops.length > 0 ? ops.flatMap(keepFromReplay) : ops
  }

  function decodeEvent(raw: unknown, meta: FrameMeta): Op[] {
    if (!isRecord(raw)) return [problem('an AG-UI event must be an object', raw)]
    const type = nonEmpty(raw.type) ?? (meta.event !== undefined && AG_UI_EVENT_TYPES.has(meta.event) ? meta.event : undefined)
    if (!type) return [problem('an AG-UI event has no type', raw, 'missing_type')]
    if (!AG_UI_EVENT_TYPES.has(type)) return [problem(`unknown AG-UI event type "${type}"`, raw, 'unknown_event')]
    // As @ag-ui/client verifies: after a run's end only a new run (or an error of a finished run) may follow.
    if (closedBy && type !== 'RUN_STARTED' && !(type === 'RUN_ERROR' && closedBy === 'RUN_FINISHED')) {
      return [problem(`${type} arrived after ${closedBy}; it was ignored until a new RUN_STARTED`, raw, 'after_end')]
    }
    const handedOn = raw.rawEvent === undefined ? NO_OPS : handOnRawEvent(raw, type)
    const before = chunks.closeBefore(type, raw)
    const handled = handle(type, raw)
    // Most events (every token's) bring only their own ops: no array is built around them.
    const ops: Op[] = handedOn.length === 0 && before.length === 0 ? handled : [...handedOn, ...before, ...handled]
    return replaying() ? ops.flatMap(keepFromReplay) : ops
  }

  /** The stream is replaying a run other than the one it was opened for. */
  function replaying(): boolean {
    return context.runId !== undefined && currentRunId !== undefined && currentRunId !== context.runId
  }

  function handle(type: string, e: AgUiEvent): Op[] {
    // What the event carries beyond weft's fields, for what it makes (chunks read their own: a
    // chunk that goes on with an open stream reads differently from the one that starts it).
    const extra = CHUNK_TYPES.has(type) ? undefined : eventExtras(e, type)
    switch (type) {
      case 'RUN_STARTED': return [...runStarted(e), ...turnExtra(extra)]
      case 'RUN_FINISHED': return withTurnExtra(runFinished(e), extra)
      case 'RUN_ERROR': return withTurnExtra(runError(e), extra)
      case 'STEP_STARTED': return lanes.stepStarted(e, extra)
      case 'STEP_FINISHED': return lanes.stepFinished(e, extra)
      case 'TEXT_MESSAGE_START': return withId(e, 'messageId', type, (id) => texts.start(id, 'text', roleOf(e.role), laneOf(e), e, extra))
      case 'TEXT_MESSAGE_CONTENT': return withId(e, 'messageId', type, (id) => texts.content(id, 'text', laneOf(e), e.delta, e, extra))
      case 'TEXT_MESSAGE_END': return withId(e, 'messageId', type, (id) => texts.end(id, 'text', laneOf(e), e, extra))
      case 'TEXT_MESSAGE_CHUNK': return chunks.chunk('text', e)
      case 'REASONING_START': return withId(e, 'messageId', type, (id) => texts.reasoningStart(id, laneOf(e), undefined, extra))
      case 'REASONING_END': return withId(e, 'messageId', type, (id) => texts.reasoningEnd(id, extra))
      case 'REASONING_MESSAGE_START': return withId(e, 'messageId', type, (id) => texts.start(id, 'reasoning', 'assistant', laneOf(e), e, extra))
      case 'REASONING_MESSAGE_CONTENT': return withId(e, 'messageId', type, (id) => texts.content(id, 'reasoning', laneOf(e), e.delta, e, extra))
      case 'REASONING_MESSAGE_END': return withId(e, 'messageId', type, (id) => texts.end(id, 'reasoning', laneOf(e), e, extra))
      case 'REASONING_MESSAGE_CHUNK': return chunks.chunk('reasoning', e)
      case 'REASONING_ENCRYPTED_VALUE': return texts.encryptedValue(e, extra)
      case 'TOOL_CALL_START': return withId(e, 'toolCallId', type, (id) => calls.start(id, e, extra))
      case 'TOOL_CALL_ARGS': return withId(e, 'toolCallId', type, (id) => calls.args(id, e.delta, e, extra))
      case 'TOOL_CALL_END': return withId(e, 'toolCallId', type, (id) => calls.end(id, e, extra))
      case 'TOOL_CALL_RESULT': return withId(e, 'toolCallId', type, (id) => calls.result(id, e, extra))
      case 'TOOL_CALL_CHUNK': return chunks.chunk('tool', e)
      case 'STATE_SNAPSHOT': return withTurnExtra(stateShown(snapshots.stateSnapshot(e)), extra)
      case 'STATE_DELTA':
        return Array.isArray(e.delta)
          ? [...statePatched(e.delta), ...turnExtra(extra)]
          : [problem('STATE_DELTA needs a JSON Patch array in "delta"', e, 'state_delta')]
      case 'MESSAGES_SNAPSHOT':
        return Array.isArray(e.messages)
          ? [...snapshots.mergeMessages(e.messages), ...turnExtra(extra)]
          : [problem('MESSAGES_SNAPSHOT needs a "messages" array', e, 'messages_snapshot')]
      case 'ACTIVITY_SNAPSHOT': return withId(e, 'messageId', type, (id) => snapshots.activitySnapshot(id, e, extra))
      case 'ACTIVITY_DELTA': return withId(e, 'messageId', type, (id) => snapshots.activityDelta(id, e, extra))
      case 'RAW': return snapshots.rawEvent(e, extra)
      case 'CUSTOM': return snapshots.customEvent(e, extra)
      case 'SUBAGENT_STARTED': return withId(e, 'subagentRunId', type, (id) => lanes.subagentStarted(id, e, extra))
      case 'SUBAGENT_FINISHED': return withId(e, 'subagentRunId', type, (id) => lanes.subagentFinished(id, e, extra))
      case 'SUBAGENT_ERROR': return withId(e, 'subagentRunId', type, (id) => lanes.subagentError(id, e, extra))
      case 'THINKING_START':
      case 'THINKING_END':
      case 'THINKING_TEXT_MESSAGE_START':
      case 'THINKING_TEXT_MESSAGE_CONTENT':
      case 'THINKING_TEXT_MESSAGE_END':
        return texts.thinking(type, e, extra)
      default:
        return [problem(`unhandled AG-UI event type "${type}"`, e, 'unknown_event')]
    }
  }

  /**
   * A run's, the state's and a snapshot's own extra fields belong to the turn. A replayed
   * earlier run's do not reach it (its turn updates are left out, and so are they).
   */
  function turnExtra(extra: Record<string, unknown> | undefined): readonly Op[] {
    // The fold merges `metadata.extra`, so a later event adds to what an earlier one kept.
    return extra && !replaying() ? [{ op: 'turn.update', turnId, metadata: { extra } }] : NO_OPS
  }

  /** The turn's extras before what the event did (a run's finish comes last). */
  function withTurnExtra(ops: Op[], extra: Record<string, unknown> | undefined): Op[] {
    if (!extra || ops.every((op) => op.op === 'problem')) return ops
    return [...turnExtra(extra), ...ops]
  }

  /** A known event's `rawEvent`, the upstream framework's own event, goes to the host as a `raw` part; the store does not keep it. */
  function handOnRawEvent(e: AgUiEvent, type: string): Op[] {
    if (!stream.onData) return []
    try {
      stream.onData({ type: 'raw', data: { event: e.rawEvent, eventType: type } })
      return []
    } catch (thrown) {
      return [problem(`the host's onData failed on the rawEvent of ${type}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, undefined, 'invalid')]
    }
  }

  function withId(e: AgUiEvent, field: string, type: string, then: (id: string) => Op[]): Op[] {
    const id = nonEmpty(e[field])
    return id ? then(id) : [problem(`${type} without "${field}"`, e, 'missing_id')]
  }

  /**
   * The shared state as this stream left it: a snapshot sets it, a patch applies
   * to it (to the store's state before the stream when no snapshot came first).
   */
  let sharedState: Record<string, unknown> | undefined

  function stateShown(ops: Op[]): Op[] {
    for (const op of ops) if (op.op === 'agentState.set') sharedState = op.value
    return ops
  }

  /**
   * A `STATE_DELTA` applied here, all or nothing, on a JSON copy: a patch that
   * names anything but the state's own data (an inherited `/constructor`, an
   * array's `length`) or brings a value that is not JSON is refused, a problem,
   * and the state stays as it was. The store gets the whole new state.
   */
  function statePatched(delta: unknown[]): Op[] {
    const base = sharedState ?? context.agentState?.() ?? {}
    let patched: unknown
    try {
      patched = patchJsonData(base, delta)
    } catch (thrown) {
      const reason = thrown instanceof Error ? thrown.message : String(thrown)
      return [{ op: 'problem', turnId, error: weftError('protocol', `could not apply agentState.patch: ${reason}`, { code: 'agentState.patch' }) }]
    }
    sharedState = isRecord(patched) ? patched : { value: patched }
    return [{ op: 'agentState.set', value: sharedState }]
  }

  function runStarted(e: AgUiEvent): Op[] {
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
    if (input && Array.isArray(input.messages)) ops.push(...snapshots.mergeMessages(input.messages))
    return ops
  }

  function runFinished(e: AgUiEvent): Op[] {
    const ops: Op[] = [...calls.closeOpen()]
    const metadata: Record<string, unknown> = {}
    if (e.result !== undefined) metadata.result = e.result
    const outcome = isRecord(e.outcome) ? e.outcome : undefined
    if (outcome && Array.isArray(outcome.pendingToolCallIds)) metadata.pendingToolCallIds = outcome.pendingToolCallIds
    const usage = usageOps(e.usage)
    ops.push(...usage.problems)
    if (Object.keys(metadata).length > 0 || usage.usage) ops.push({ op: 'turn.update', turnId, ...(usage.usage ? { usage: usage.usage } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) })
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
      const track = toolCallId ? stream.tools.get(toolCallId) : undefined
      if (track && !track.resulted) {
        ops.push({ op: 'message.delta', ...stream.place(track.id, 'tool', 'assistant', track.lane), action: 'set', path: 'state', value: 'approval-requested' })
      }
    }
    return ops
  }

  function runError(e: AgUiEvent): Op[] {
    const code = nonEmpty(e.code)
    const known = toErrorType(code)
    const error = weftError(known === 'unknown' ? 'internal' : known, nonEmpty(e.message) ?? 'the agent run failed', { code })
    const usage = usageOps(e.usage)
    const ops: Op[] = [
      ...calls.closeOpen(),
      ...usage.problems,
      ...(usage.usage ? [{ op: 'turn.update', turnId, usage: usage.usage } as Op] : []),
      { op: 'turn.finish', turnId, status: 'error', error },
    ]
    runClosed(nonEmpty(e.runId))
    closedBy = 'RUN_ERROR'
    return ops
  }

  /** An event's usage, and a problem for each thing wrong with it. */
  function usageOps(raw: unknown): { usage?: TokenUsage; problems: Op[] } {
    const read = agUiUsage(raw)
    return { usage: read?.usage, problems: (read?.problems ?? []).map((message) => problem(message, raw, 'invalid_usage')) }
  }

  /** Forget what the run left open; the fold closes the turn's blocks, threads and timeline. */
  function runClosed(runId: string | undefined): void {
    // A replayed earlier run ends before the one this stream was opened for.
    const closed = runId ?? currentRunId
    ended = !context.runId || closed === undefined || closed === context.runId
    finished = true
    stream.steps.clear()
    texts.reset()
  }

  return {
    protocol: 'ag-ui',
    decode,
    flush: () => flush(),
    // A connection lost for good: the arguments held back since the last snapshot are written.
    release: () => flush(undefined, true),
    end() {
      if (ended) return flush(undefined, true)
      const ops: Op[] = [...written(false, false), ...chunks.closeAll(), ...calls.closeOpen(), ...flush(undefined, true), { op: 'turn.finish', turnId, status: 'done' }]
      runClosed(undefined)
      ended = true
      return ops
    },
    get ended() {
      return ended
    },
  }
}
