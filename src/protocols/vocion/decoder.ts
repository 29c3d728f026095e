/**
 * The Vocion AgentEvent rail: one typed union of events per turn (reasoning and
 * answer deltas, tool calls, search documents, a work timeline of `trace_node`
 * rows, recommended actions, human-in-the-loop gates) behind a `stream_meta`
 * frame that names the stream for resume.
 */
import { weftError, type ErrorType } from '../../core/errors'
import { isRecord } from '../../core/util/record'
import { defined, finiteNumber, idOf, safeJson } from '../../core/util/values'
import type { TraceStatus } from '../../core/model'
import type { Op, OpOf } from '../../core/ops'
import { protocolProblem } from '../../core/protocol/problem'
import type { DecodeContext, Decoder, DetectInput } from '../../core/protocol/types'

/** Event types only a Vocion rail sends. */
const DISTINCT_TYPES: ReadonlySet<string> = new Set([
  'thinking_delta', 'response_delta', 'tool_start', 'tool_end', 'tool_error', 'subagent_start', 'subagent_end',
  'documents', 'retrieval_progress', 'skill_result', 'recommended_action', 'trace_node', 'hitl_gate',
])

const TRACE_STATUSES: ReadonlySet<string> = new Set<TraceStatus>(['start', 'progress', 'done', 'error'])

/**
 * Events newer servers send that carry nothing the transcript shows: progress
 * notes, a tool name before its call, mounted memory files.
 */
const ADVISORY_TYPES: ReadonlySet<string> = new Set(['step_progress', 'composing', 'memories_mounted'])

/** How each retrieval stage reads on its timeline row. */
// A Map: a stage named `constructor` or `toString` must not find Object.prototype's.
const RETRIEVAL_LABELS: ReadonlyMap<string, (meta: Record<string, unknown>) => string> = new Map<string, (meta: Record<string, unknown>) => string>([
  ['started', () => 'Searching…'],
  ['candidates', (m) => withCount('Searching…', sum(m.vector, m.keyword), 'candidate')],
  ['fused', (m) => withCount('Searching…', finiteNumber(m.kept), 'result', 'kept')],
  ['reranking', (m) => withCount('Ranking', finiteNumber(m.candidates), 'candidate')],
  ['complete', (m) => withCount('Searched', finiteNumber(m.hits), 'hit')],
])

/** One tool call between its `tool_start` and its end. */
interface ToolCall {
  messageId: string
  toolCallId: string
  nodeId: string
  /** True once the server's own `trace_node` row draws this call: that row is then the record. */
  rowFromServer: boolean
}

/** What the decoder knows about one `trace_node` row the server sent. */
interface ServerRow {
  /** The store id the row folds into (its scoped id, or the row a tool event opened). */
  nodeId: string
  tool?: string
  open: boolean
  /** Claimed by a `tool_start`, so no second call takes it. */
  claimed: boolean
  /** Both tenses of the label, when the server sent them. */
  labels?: { running: string; done: string }
}

/** One sub-agent lane between its start and end. */
interface Subagent {
  threadId: string
  nodeId: string
}

/**
 * A decoder for one Vocion stream.
 *
 * @example
 * const d = createVocionDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ type: 'response_delta', delta: 'Hello' }, {})
 * // [{ op: 'message.delta', messageId: 't1/answer', type: 'text', path: 'content', action: 'append', value: 'Hello', ... }]
 */
export function createVocionDecoder(context: DecodeContext): Decoder {
  const { turnId, scope } = context
  const scoped = (id: string) => `${scope}/${id}`
  const answerId = scoped('answer')

  // Wire strings are only ever Map keys here, never object keys.
  const openTools = new Map<string, ToolCall[]>()
  const rows = new Map<string, ServerRow>()
  const subagents = new Map<string, Subagent[]>()
  let reasoningId: string | undefined
  let answer: string | undefined
  let retrievalId: string | undefined
  let counter = 0
  let ended = false

  const next = (kind: string) => scoped(`${kind}-${++counter}`)
  const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem(turnId, message, raw, code)

  function decode(event: unknown): Op[] {
    if (!isRecord(event)) return [problem('a Vocion event must be an object', event, 'not_object')]
    const type = event.type
    if (typeof type !== 'string' || type === '') return [problem('a Vocion event has no type', event, 'missing_type')]
    if (type === 'stream_meta') return streamMeta(event)
    if (type === 'usage' || ADVISORY_TYPES.has(type)) return []
    if (ended) return [problem(`"${type}" arrived after the turn ended; it was ignored`, event, 'after_end')]
    switch (type) {
      case 'thinking':
        return reasoning(undefined)
      case 'thinking_delta':
        return typeof event.delta === 'string' ? reasoning(event.delta) : [problem('thinking_delta without a delta', event, 'invalid')]
      case 'answering':
        return closeReasoning()
      case 'response_delta':
        return typeof event.delta === 'string' ? responseDelta(event.delta) : [problem('response_delta without a delta', event, 'invalid')]
      case 'tool_start':
        return toolStart(event)
      case 'tool_end':
        return toolEnd(event)
      case 'tool_error':
        return toolError(event)
      case 'subagent_start':
        return subagentStart(event)
      case 'subagent_end':
        return subagentEnd(event)
      case 'documents':
        return documents(event)
      case 'retrieval_progress':
        return retrievalProgress(event)
      case 'skill_result':
        return skillResult(event)
      case 'recommended_action':
        return recommendedAction(event)
      case 'trace_node':
        return traceNode(event)
      case 'hitl_gate':
        return hitlGate(event)
      case 'done':
        return done(event)
      case 'error':
        return failed(event)
      case 'run_meta':
        return [{ op: 'turn.update', turnId, metadata: pick(event, ['model', 'provider', 'strength', 'thinking']) }]
      case 'artifact':
      case 'record_created':
        return dataPart(type, event)
      default:
        return [problem(`unknown Vocion event "${type}"`, event, 'unknown_event')]
    }
  }

  function streamMeta(event: Record<string, unknown>): Op[] {
    const streamId = typeof event.streamId === 'string' ? idOf(event.streamId) : undefined
    if (!streamId) return [problem('stream_meta without a streamId', event, 'invalid')]
    return [{ op: 'cursor', cursor: { streamId, protocol: 'vocion' } }]
  }

  /** `thinking` (no delta) opens the reasoning message; each `thinking_delta` grows it. */
  function reasoning(delta: string | undefined): Op[] {
    if (!reasoningId) reasoningId = next('reasoning')
    return [{
      op: 'message.delta', turnId, messageId: reasoningId, type: 'reasoning', role: 'assistant',
      action: 'append', path: 'content', value: delta ?? '',
    }]
  }

  function closeReasoning(): Op[] {
    if (!reasoningId) return []
    const id = reasoningId
    reasoningId = undefined
    return [{ op: 'message.finish', messageId: id, status: 'done' }]
  }

  function responseDelta(delta: string): Op[] {
    answer = (answer ?? '') + delta
    return [
      ...closeReasoning(),
      { op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'append', path: 'content', value: delta },
    ]
  }

  function toolStart(event: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    if (!tool) return [problem('tool_start without a tool', event, 'invalid')]
    const input = isRecord(event.input) ? event.input : {}
    const messageId = next('tool')
    const call: ToolCall = { messageId, toolCallId: messageId, nodeId: messageId, rowFromServer: false }
    const row = openRowFor(tool)
    if (row) {
      row.claimed = true
      call.nodeId = row.nodeId
      call.rowFromServer = true
    }
    stackFor(openTools, tool).push(call)
    const ops: Op[] = [
      ...closeReasoning(),
      {
        op: 'message.put', turnId, messageId, type: 'tool', role: 'assistant', status: 'streaming',
        props: { toolCallId: call.toolCallId, name: tool, input, inputText: safeJson(input), state: 'input-available' },
      },
    ]
    if (!call.rowFromServer) {
      ops.push({ op: 'trace.node', turnId, node: { id: call.nodeId, kind: 'tool', tool, label: tool, status: 'start', args: input } })
    }
    return ops
  }

  function toolEnd(event: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    if (!tool) return [problem('tool_end without a tool', event, 'invalid')]
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
    }, { op: 'message.finish', messageId: call.messageId, status: 'done' }]
    if (!call.rowFromServer) {
      ops.push({
        op: 'trace.node', turnId,
        node: { id: call.nodeId, kind: 'tool', tool, label: tool, status: 'done', ...defined({ result: output, args: input }) },
      })
    }
    return ops
  }

  function toolError(event: Record<string, unknown>): Op[] {
    const tool = idOf(event.tool)
    const message = idOf(event.message) ?? 'the tool failed'
    const status = typeof event.status === 'number' ? event.status : undefined
    const call = tool ? stackFor(openTools, tool).pop() : undefined
    const target = call ?? orphanCall()
    // No call of ours: the latest open row the server drew for that tool fails, or else a new row shows the error.
    const nodeId = call?.nodeId ?? (tool ? latestOpenRow(tool)?.nodeId : undefined)
    const fail: OpOf<'trace.fail'> = nodeId ? { op: 'trace.fail', turnId, nodeId, message } : { op: 'trace.fail', turnId, tool, message }
    for (const row of rows.values()) if (row.nodeId === nodeId) row.open = false
    return [
      {
        op: 'message.delta', turnId, messageId: target.messageId, type: 'tool', role: 'assistant', action: 'set', path: '',
        value: {
          toolCallId: target.toolCallId, name: tool ?? 'tool', state: 'output-error', errorText: message,
          ...(status !== undefined ? { httpStatus: status } : {}),
        },
      },
      { op: 'message.finish', messageId: target.messageId, status: 'error' },
      fail,
    ]
  }

  function orphanCall(): ToolCall {
    const messageId = next('tool')
    return { messageId, toolCallId: messageId, nodeId: messageId, rowFromServer: false }
  }

  /** The latest open server row for a tool that no call has claimed yet. */
  function openRowFor(tool: string): ServerRow | undefined {
    let found: ServerRow | undefined
    for (const row of rows.values()) if (row.tool === tool && row.open && !row.claimed) found = row
    return found
  }

  function latestOpenRow(tool: string): ServerRow | undefined {
    let found: ServerRow | undefined
    for (const row of rows.values()) if (row.tool === tool && row.open) found = row
    return found
  }

  /** The latest call of a tool whose timeline row is still ours to draw. */
  function callAwaitingRow(tool: string): ToolCall | undefined {
    const stack = openTools.get(tool) ?? []
    for (let i = stack.length - 1; i >= 0; i--) if (!stack[i]!.rowFromServer) return stack[i]
    return undefined
  }

  function subagentStart(event: Record<string, unknown>): Op[] {
    const name = idOf(event.name)
    if (!name) return [problem('subagent_start without a name', event, 'invalid')]
    const id = next('subagent')
    stackFor(subagents, name).push({ threadId: id, nodeId: id })
    return [
      { op: 'thread.open', turnId, threadId: id, label: name },
      { op: 'trace.node', turnId, node: { id, kind: 'delegate', label: `Delegating to ${name}`, status: 'start', actor: { id, kind: 'specialist', name } } },
    ]
  }

  function subagentEnd(event: Record<string, unknown>): Op[] {
    const name = idOf(event.name)
    if (!name) return [problem('subagent_end without a name', event, 'invalid')]
    const lane = stackFor(subagents, name).pop()
    if (!lane) return [problem(`subagent_end for "${name}", which never started`, event, 'end_before_start')]
    return [
      { op: 'thread.close', threadId: lane.threadId, status: 'done' },
      { op: 'trace.node', turnId, node: { id: lane.nodeId, label: `${name} finished`, status: 'done' } },
    ]
  }

  function documents(event: Record<string, unknown>): Op[] {
    if (!Array.isArray(event.documents)) return [problem('documents without a documents list', event, 'invalid')]
    const ops: Op[] = []
    for (const doc of event.documents) {
      const id = isRecord(doc) ? idOf(doc.document_id) : undefined
      if (!isRecord(doc) || !id) {
        ops.push(problem('a search document has no document_id', doc, 'invalid'))
        continue
      }
      ops.push({
        op: 'source.add', turnId,
        source: {
          id, kind: 'document',
          ...defined({
            url: idOf(doc.link), title: idOf(doc.semantic_identifier), snippet: idOf(doc.blurb),
            citationIndex: typeof doc.citationIndex === 'number' ? doc.citationIndex : undefined,
          }),
        },
      })
    }
    return ops
  }

  function retrievalProgress(event: Record<string, unknown>): Op[] {
    const stage = idOf(event.stage) ?? 'started'
    const meta = isRecord(event.meta) ? event.meta : {}
    // One row per retrieval: `started` (or any stage with none open) opens it, `complete` closes it.
    if (!retrievalId || stage === 'started') retrievalId = next('retrieval')
    const id = retrievalId
    const complete = stage === 'complete'
    if (complete) retrievalId = undefined
    const label = (RETRIEVAL_LABELS.get(stage) ?? (() => `Searching… (${stage})`))(meta)
    return [{ op: 'trace.node', turnId, node: { id, kind: 'search', label, status: complete ? 'done' : 'progress', detail: meta } }]
  }

  function skillResult(event: Record<string, unknown>): Op[] {
    const skill = isRecord(event.skillResult) ? event.skillResult : undefined
    if (!skill) return [problem('skill_result without a skillResult', event, 'invalid')]
    const runId = idOf(skill.runId)
    const id = runId ? scoped(`skill-run-${runId}`) : next('skill')
    const name = idOf(skill.skillName) ?? idOf(skill.skillSlug) ?? 'Skill'
    return [{
      op: 'trace.node', turnId,
      node: { id, kind: 'skill', label: name, tool: idOf(skill.skillSlug), status: 'done', result: skill.content, detail: skill },
    }]
  }

  function recommendedAction(event: Record<string, unknown>): Op[] {
    if (!isRecord(event.recommendation)) return [problem('recommended_action without a recommendation', event, 'invalid')]
    // Stored only: emitting a recommendation has no side effect until a person activates it.
    return [{
      op: 'message.put', turnId, messageId: next('action'), type: 'recommended-action', role: 'assistant', status: 'done',
      props: event.recommendation,
    }]
  }

  function traceNode(event: Record<string, unknown>): Op[] {
    const wireId = idOf(event.id)
    if (!wireId) return [problem('trace_node without an id', event, 'missing_id')]
    const ops: Op[] = []
    const tool = idOf(event.tool)
    let row = rows.get(wireId)
    if (!row) {
      row = { nodeId: scoped(`trace/${wireId}`), open: true, claimed: false }
      // The server drew a row for a call a tool event already opened: fold both into one row.
      const call = tool ? callAwaitingRow(tool) : undefined
      if (call) {
        call.rowFromServer = true
        row.nodeId = call.nodeId
        row.claimed = true
      }
      rows.set(wireId, row)
    }
    if (tool) row.tool = tool
    const labels = labelPair(event.labels) ?? row.labels
    if (labels) row.labels = labels

    const node: OpOf<'trace.node'>['node'] = { id: row.nodeId }
    const parentId = idOf(event.parentId)
    if (parentId) node.parentId = rows.get(parentId)?.nodeId ?? scoped(`trace/${parentId}`)
    if (isRecord(event.actor)) node.actor = event.actor as unknown as NonNullable<typeof node.actor>
    if (idOf(event.kind)) node.kind = idOf(event.kind)
    if (event.status !== undefined) {
      if (typeof event.status === 'string' && TRACE_STATUSES.has(event.status)) {
        node.status = event.status as TraceStatus
        row.open = node.status === 'start' || node.status === 'progress'
      } else {
        ops.push(problem(`trace_node "${wireId}" has an unknown status; the status was ignored`, event.status, 'invalid'))
      }
    }
    if (typeof event.label === 'string') node.label = event.label
    // Once both tenses are known, the label follows the status (a `done` that carries only the status reads past tense).
    if (labels && node.status && node.status !== 'error') node.label = node.status === 'done' ? labels.done : labels.running
    if (Array.isArray(event.citations)) node.citations = event.citations
    if (tool) node.tool = tool
    for (const key of ['detail', 'args', 'result', 'resultDetail'] as const) if (event[key] !== undefined) node[key] = event[key]
    if (typeof event.confidence === 'number') node.confidence = event.confidence
    const delta = typeof event.delta === 'string' && event.delta !== '' ? event.delta : undefined
    ops.unshift({ op: 'trace.node', turnId, node, ...(delta ? { delta } : {}) })
    return ops
  }

  function hitlGate(event: Record<string, unknown>): Op[] {
    const gate = isRecord(event.gate) ? event.gate : undefined
    const name = gate ? idOf(gate.name) : undefined
    if (!gate || !name) return [problem('hitl_gate without a gate name', event, 'invalid')]
    return [{
      op: 'gate.open',
      gate: {
        id: scoped(`gate/${name}#${++counter}`), turnId, kind: 'hitl',
        question: idOf(gate.question) ?? '', payload: gate.payload ?? {},
        ...(idOf(gate.resumeUrl) ? { url: idOf(gate.resumeUrl) } : {}),
      },
    }]
  }

  function done(event: Record<string, unknown>): Op[] {
    ended = true
    const ops: Op[] = [...closeReasoning(), ...closeLanes(), ...pastTenseForOpenRows()]
    // Deltas can be lost on the way; the server's final response is the answer.
    const response = typeof event.response === 'string' ? event.response : undefined
    if (event.response !== undefined && event.response !== null && response === undefined) {
      ops.push(problem('done.response must be text; the streamed answer was kept', event, 'invalid'))
    }
    if (response && response !== answer) {
      ops.push({ op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'set', path: 'content', value: response })
      answer = response
    }
    const traceId = idOf(event.traceId)
    if (traceId) ops.push({ op: 'turn.update', turnId, metadata: { traceId } })
    ops.push({ op: 'turn.finish', turnId, status: 'done' })
    return ops
  }

  function failed(event: Record<string, unknown>): Op[] {
    ended = true
    const message = idOf(event.message) ?? 'the agent stream ended with an error'
    return [
      ...closeReasoning(),
      ...closeLanes(),
      ...pastTenseForOpenRows(),
      { op: 'turn.finish', turnId, status: 'error', error: weftError(classify(message), message) },
    ]
  }

  /** Sub-agent lanes still open when the turn ends close with it (they sit in no block the fold would close). */
  function closeLanes(): Op[] {
    const ops: Op[] = []
    for (const stack of subagents.values()) {
      for (const lane of stack) ops.push({ op: 'thread.close', threadId: lane.threadId, status: 'done' })
    }
    subagents.clear()
    return ops
  }

  /** Rows that know both tenses read past tense when the turn closes them. */
  function pastTenseForOpenRows(): Op[] {
    const ops: Op[] = []
    for (const row of rows.values()) {
      if (row.open && row.labels) ops.push({ op: 'trace.node', turnId, node: { id: row.nodeId, label: row.labels.done } })
    }
    return ops
  }

  function dataPart(type: 'artifact' | 'record_created', event: Record<string, unknown>): Op[] {
    const data = type === 'artifact' ? event.artifact : event.record
    if (!isRecord(data)) return [problem(`${type} without its payload`, event, 'invalid')]
    // An artifact keeps one message across its versions, so a later version replaces the earlier one.
    const artifactId = type === 'artifact' ? idOf(data.id) : undefined
    const messageId = artifactId ? scoped(`artifact-${artifactId}`) : next(type === 'artifact' ? 'artifact' : 'record')
    return [{
      op: 'message.put', turnId, messageId, role: 'assistant', status: 'done',
      type: type === 'artifact' ? 'data-artifact' : 'data-record',
      props: { data, ...(event.pending === true ? { pending: true } : {}) },
    }]
  }

  return {
    protocol: 'vocion',
    decode,
    end() {
      if (ended) return []
      ended = true
      // The body ended without `done`: keep what arrived and close the turn.
      return [...closeReasoning(), ...closeLanes(), ...pastTenseForOpenRows(), { op: 'turn.finish', turnId, status: 'done' }]
    },
    get ended() {
      return ended
    },
  }
}

/**
 * The error type a Vocion `error` message reads as. The rail sends only a
 * message, so the type is `unknown` unless the words name a known failure.
 *
 * @example
 * classifyVocionError('Rate limit exceeded') // 'rate_limit'
 * classifyVocionError('Something broke')     // 'unknown'
 */
export function classifyVocionError(message: string): ErrorType {
  return classify(message)
}

function classify(message: string): ErrorType {
  if (/rate.?limit|too many requests|\b429\b/i.test(message)) return 'rate_limit'
  if (/timed?.?out|timeout|deadline/i.test(message)) return 'timeout'
  if (/unauthori[sz]ed|forbidden|authenticat|\b40[13]\b|api key/i.test(message)) return 'authentication'
  if (/network|econn|fetch failed|unreachable|socket/i.test(message)) return 'network'
  return 'unknown'
}

function stackFor<T>(map: Map<string, T[]>, key: string): T[] {
  let stack = map.get(key)
  if (!stack) {
    stack = []
    map.set(key, stack)
  }
  return stack
}

function labelPair(value: unknown): { running: string; done: string } | undefined {
  if (!isRecord(value) || typeof value.running !== 'string' || typeof value.done !== 'string') return undefined
  return { running: value.running, done: value.done }
}

function pick(source: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) if (source[name] !== undefined) out[name] = source[name]
  return out
}

function sum(...values: unknown[]): number | undefined {
  const numbers = values.map(finiteNumber).filter((n): n is number => n !== undefined)
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) : undefined
}

function withCount(base: string, count: number | undefined, noun: string, verb?: string): string {
  if (count === undefined) return base
  const phrase = `${count} ${noun}${count === 1 ? '' : 's'}`
  return `${base} · ${verb ? `${verb} ${phrase}` : phrase}`
}

/**
 * How sure it is that a stream speaks Vocion, from its first event's `type`.
 *
 * @example
 * sniffVocion({ first: { type: 'stream_meta', stream_id: 's1' } }) // 1
 */
export function sniffVocion({ first }: DetectInput): number {
  if (!isRecord(first) || typeof first.type !== 'string') return 0
  if (first.type === 'stream_meta') return 1
  // Yao also names a type; its chunks carry props or a chunk_id, Vocion events never do.
  if ('props' in first || 'chunk_id' in first) return 0
  if (DISTINCT_TYPES.has(first.type)) return 0.9
  if ((first.type === 'thinking' || first.type === 'answering') && Object.keys(first).length === 1) return 0.9
  if (first.type === 'done' && typeof first.response === 'string') return 0.6
  if (first.type === 'error' && typeof first.message === 'string' && Object.keys(first).length === 2) return 0.6
  return 0
}
