/**
 * The LangGraph run stream (`POST /threads/{id}/runs/stream`, or a join of a
 * run) as ops. Each frame is `event: <mode>[|<namespace>...]` with one JSON
 * value: `messages` tuples stream the AI's tokens and tool calls; `updates` say
 * which node finished and carry what it returned (and `__interrupt__`); `values`
 * is the state after each superstep; `tasks`, `checkpoints` and `custom` add the
 * timeline, the branch points and the host's own data. No frame ends the run:
 * the body closes.
 */
import { weftError, type DecodeContext, type Decoder, type FrameMeta, type Op, type StreamCursor, type WeftError } from '../../core/index'
import { isRecord, nonEmpty, safeJson } from '../../protocol-kit/index'
import { closeStep, enterLane, finishNode, nodeOfMetadata, nodeRow, parseEventName } from './graph-rows'
import { interruptOps } from './interrupts'
import { contentText, lcMessage } from './lc-messages'
import { aiChunk, completeOpenCalls, flushCalls, partId, toolMessage, wholeAi } from './messages'
import { createLangGraphStream } from './stream-state'

/** Modes weft reads nothing from; a host that asks for them gets them through its own handlers. */
const IGNORED: ReadonlySet<string> = new Set(['debug', 'events', 'tools', 'feedback', 'messages/metadata'])

/**
 * Make a decoder for one LangGraph run stream.
 *
 * @example
 * const decoder = createLangGraphDecoder({ turnId: 't1', scope: 't1' })
 * decoder.decode({ run_id: 'r1', attempt: 1 }, { event: 'metadata' })
 */
export function createLangGraphDecoder(context: DecodeContext): Decoder {
  const stream = createLangGraphStream(context)
  const { turnId } = stream
  let runId: string | undefined
  let threadSeen = false
  let finished = false
  let lastState: string | undefined
  let valuesSeen = false
  /** The root checkpoint whose `values` come next: a branch point when they end with the user's message. */
  let checkpoint: { id: string; parentId?: string } | undefined
  /** Text already shown per message, for the older `messages/partial` mode (it sends the whole text so far). */
  const partial = new Map<string, number>()
  const unknown = new Set<string>()

  function decode(event: unknown, meta: FrameMeta): Op[] {
    const { mode, namespace } = parseEventName(meta.event)
    const ops: Op[] = mode === 'messages' || mode === 'updates' || mode === 'tasks' ? [] : flushCalls(stream, false)
    switch (mode) {
      case 'metadata': return [...ops, ...metadata(event)]
      case 'messages': messages(event, namespace, ops); break
      case 'messages/partial': case 'messages/complete': older(event, mode, ops); break
      case 'updates': updates(event, namespace, ops); break
      case 'values': values(event, namespace, ops); break
      case 'tasks': tasks(event, namespace, ops); break
      case 'checkpoints': if (namespace.length === 0) checkpoints(event, ops); break
      case 'custom': stream.onData?.({ type: 'custom', ...(namespace.length ? { id: namespace.join('|') } : {}), data: event }); break
      case 'error': return [...ops, ...failed(event)]
      case 'end': finished = true; break
      default:
        if (!IGNORED.has(mode) && !unknown.has(mode)) {
          unknown.add(mode)
          ops.push(stream.problem(`an event of an unknown stream mode "${mode}"; it and any like it were ignored`, event, 'unknown_event'))
        }
    }
    return ops
  }

  function metadata(event: unknown): Op[] {
    const id = isRecord(event) ? nonEmpty(event.run_id) : undefined
    if (!id) return [stream.problem('a "metadata" event without "run_id"', event, 'missing_id')]
    runId = id
    return [{ op: 'turn.update', turnId, runId: id }]
  }

  function messages(event: unknown, namespace: string[], ops: Op[]): void {
    const [chunk, info] = Array.isArray(event) ? event : []
    const message = lcMessage(chunk)
    if (!message) {
      ops.push(stream.problem('a "messages" event that is not a [message, metadata] pair', event, 'malformed'))
      return
    }
    const lane = enterLane(stream, namespace, ops)
    const where = nodeOfMetadata(info)
    const row = where ? nodeRow(stream, lane, where.node, where.taskId, ops) : undefined
    if (!threadSeen && isRecord(info) && nonEmpty(info.thread_id)) {
      threadSeen = true
      ops.push({ op: 'turn.update', turnId, threadId: info.thread_id as string })
    }
    if (message.kind === 'ai') aiChunk(stream, message, lane, row, ops)
    else if (message.kind === 'tool') toolMessage(stream, message, lane, ops)
  }

  function older(event: unknown, mode: string, ops: Op[]): void {
    if (!Array.isArray(event)) return
    for (const item of event) {
      const message = lcMessage(item)
      if (!message) continue
      if (message.kind === 'tool') toolMessage(stream, message, '', ops)
      if (message.kind !== 'ai') continue
      const id = nonEmpty(message.id)
      if (mode === 'messages/complete' || !id) {
        wholeAi(stream, message, '', undefined, ops)
        continue
      }
      // Each partial holds the text so far: only what is new is appended.
      const { text } = contentText(message.content)
      const shown = partial.get(id) ?? 0
      partial.set(id, text.length)
      aiChunk(stream, { ...message, content: text.slice(shown), tool_call_chunks: [], usage_metadata: undefined }, '', undefined, ops)
    }
  }

  function updates(event: unknown, namespace: string[], ops: Op[]): void {
    if (!isRecord(event)) {
      ops.push(stream.problem('an "updates" event that is not an object', event, 'malformed'))
      return
    }
    const lane = enterLane(stream, namespace, ops)
    for (const [node, update] of Object.entries(event)) {
      if (node === '__interrupt__') {
        ops.push(...interruptOps(stream, update, namespace))
        continue
      }
      if (node.startsWith('__')) continue
      const row = nodeRow(stream, lane, node, undefined, ops)
      const list = isRecord(update) ? update.messages : undefined
      for (const item of Array.isArray(list) ? list : list === undefined ? [] : [list]) {
        const message = lcMessage(item)
        if (message?.kind === 'ai') wholeAi(stream, message, lane, row, ops)
        else if (message?.kind === 'tool') toolMessage(stream, message, lane, ops)
      }
      finishNode(stream, lane, node, undefined, ops)
    }
  }

  function values(event: unknown, namespace: string[], ops: Op[]): void {
    if (!isRecord(event)) {
      ops.push(stream.problem('a "values" event that is not an object', event, 'malformed'))
      return
    }
    const lane = enterLane(stream, namespace, ops)
    if (event.__interrupt__ !== undefined) {
      ops.push(...interruptOps(stream, event.__interrupt__, namespace))
      // After an interrupt the frame holds only the interrupts, not the state.
      if (Object.keys(event).length === 1) return
    }
    closeStep(stream, lane, ops)
    if (lane !== '') return
    const { messages: list, __interrupt__: _interrupts, ...state } = event
    const text = safeJson(state)
    if (text !== lastState) {
      lastState = text
      ops.push({ op: 'agentState.set', value: state })
    }
    // Only a run's first state can be the question just asked: a later one that still ends
    // with it (nodes that add no messages) is not where the answer began.
    const first = !valuesSeen
    valuesSeen = true
    const last = Array.isArray(list) ? lcMessage(list.at(-1)) : undefined
    if (first && checkpoint && last?.kind === 'human') {
      ops.push({
        op: 'turn.update', turnId,
        metadata: { forkCheckpointId: checkpoint.id, ...(checkpoint.parentId ? { inputCheckpointId: checkpoint.parentId } : {}), ...(nonEmpty(last.id) ? { inputMessageId: last.id } : {}) },
      })
    }
    checkpoint = undefined
  }

  function tasks(event: unknown, namespace: string[], ops: Op[]): void {
    const task = isRecord(event) ? event : undefined
    const id = task ? nonEmpty(task.id) : undefined
    const name = task ? nonEmpty(task.name) : undefined
    if (!task || !id || !name) {
      ops.push(stream.problem('a "tasks" event without "id" and "name"', event, 'missing_id'))
      return
    }
    const lane = enterLane(stream, namespace, ops)
    if (name.startsWith('__')) return
    if (!('result' in task) && !('error' in task)) nodeRow(stream, lane, name, id, ops)
    else finishNode(stream, lane, name, id, ops, task.error ? (nonEmpty(task.error) ?? safeJson(task.error)) : undefined)
  }

  function checkpoints(event: unknown, ops: Op[]): void {
    if (!isRecord(event)) return
    const config = isRecord(event.config) && isRecord(event.config.configurable) ? event.config.configurable : undefined
    const parent = isRecord(event.parent_config) && isRecord(event.parent_config.configurable) ? event.parent_config.configurable : undefined
    const id = nonEmpty(event.id) ?? nonEmpty(config?.checkpoint_id)
    if (!id) return
    const parentId = nonEmpty(event.parent_id) ?? nonEmpty(parent?.checkpoint_id)
    checkpoint = { id, ...(parentId ? { parentId } : {}) }
    ops.push({ op: 'turn.update', turnId, metadata: { checkpointId: id } })
  }

  function failed(event: unknown): Op[] {
    const record = isRecord(event) ? event : {}
    const ops: Op[] = [...closeAll(), { op: 'turn.finish', turnId, status: 'error', error: weftErrorOf(record) }]
    finished = true
    return ops
  }

  function closeAll(): Op[] {
    const ops = flushCalls(stream, true)
    completeOpenCalls(stream, ops)
    for (const ai of stream.ai.values()) for (const kind of ['text', 'reasoning'] as const) if (ai[kind]) ops.push({ op: 'message.finish', messageId: partId(ai.id, kind), status: 'done' })
    return ops
  }

  return {
    protocol: 'langgraph',
    endsAtClose: true,
    decode,
    flush: () => flushCalls(stream, false),
    release: () => flushCalls(stream, true),
    end() {
      if (finished) return flushCalls(stream, true)
      finished = true
      const pending = stream.gates.size > 0
      return [...closeAll(), { op: 'turn.finish', turnId, status: 'done', ...(pending ? { finishReason: 'interrupt' } : {}) }]
    },
    get ended() {
      return finished
    },
    cursor: (): Partial<StreamCursor> => (runId ? { streamId: runId } : {}),
  }
}

/** A run's `error` event (`{ error: 'GraphRecursionError', message }`) as a typed error. */
function weftErrorOf(record: Record<string, unknown>): WeftError {
  const name = nonEmpty(record.error)
  return weftError('internal', nonEmpty(record.message) ?? name ?? 'the graph run failed', name ? { code: name } : {})
}
