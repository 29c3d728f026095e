import { describe, expect, it } from 'vitest'
import { createVocionDecoder, classifyVocionError } from '../../../src/protocols/vocion/decoder'
import { vocionProtocol } from '../../../src/protocols/vocion/index'
import { foldStream, streamToOps } from '../../../src/umbrella/defaults'
import type { AgentState, Message, TraceNode } from '../../../src/core/model/model'
import { selectCitation, selectTraceList, selectTurnMessages } from '../../../src/core/store/selectors'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { traceRecord } from '../../../src/core/model/trace-table'

// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problemsOf = (state: AgentState) => state.turns['turn-1']!.problems.filter((p) => p.code !== STREAM_TRUNCATED)

type Event = Record<string, unknown>

const fold = (events: Event[], turnId = 'turn-1', state?: AgentState) =>
  foldStream(events, { protocol: 'vocion', turnId, state })

const messagesOfType = (state: AgentState, type: string, turnId = 'turn-1'): Message[] =>
  selectTurnMessages(state, turnId).filter((m) => m.type === type)

const onlyMessage = (state: AgentState, type: string): Message => {
  const found = messagesOfType(state, type)
  expect(found).toHaveLength(1)
  return found[0]!
}

const nodes = (state: AgentState, turnId = 'turn-1'): TraceNode[] => [...selectTraceList(state, turnId)]

const nodeLabelled = (state: AgentState, label: string): TraceNode => {
  const node = nodes(state).find((n) => n.label === label)
  expect(node, `a node labelled "${label}"`).toBeDefined()
  return node!
}

describe('vocion decoder: stream_meta', () => {
  it('turns stream_meta into a cursor op and nothing else', () => {
    const decoder = createVocionDecoder({ turnId: 't1', scope: 't1' })
    expect(decoder.decode({ type: 'stream_meta', streamId: 'abc' }, {})).toEqual([
      { op: 'cursor', cursor: { streamId: 'abc', protocol: 'vocion' } },
    ])
  })

  it('records the stream id without counting the frame as an event', () => {
    const state = fold([{ type: 'stream_meta', streamId: 'abc' }, { type: 'response_delta', delta: 'Hi' }])
    expect(state.cursor).toEqual({ eventCount: 0, streamId: 'abc', protocol: 'vocion' })
  })

  it('reports a stream_meta without a stream id', () => {
    const state = fold([{ type: 'stream_meta' }])
    expect(problemsOf(state).map((p) => p.message)).toEqual(['stream_meta without a streamId'])
    expect(state.cursor.streamId).toBeUndefined()
  })
})

describe('vocion decoder: reasoning and answer', () => {
  it('folds thinking and thinking_delta into one reasoning message', () => {
    const state = fold([
      { type: 'thinking' },
      { type: 'thinking_delta', delta: 'Look up ' },
      { type: 'thinking_delta', delta: 'the deal.' },
    ])
    const reasoning = onlyMessage(state, 'reasoning')
    expect(reasoning.props.content).toBe('Look up the deal.')
    expect(reasoning.role).toBe('assistant')
  })

  it('opens an empty reasoning message on `thinking` alone', () => {
    const decoder = createVocionDecoder({ turnId: 't1', scope: 's' })
    const ops = decoder.decode({ type: 'thinking' }, {})
    expect(ops).toEqual([expect.objectContaining({ op: 'message.delta', type: 'reasoning', path: 'content', value: '' })])
  })

  it('closes the reasoning when the answer phase begins, and starts a new one when thinking resumes', () => {
    const events = [
      { type: 'thinking_delta', delta: 'first' },
      { type: 'answering' },
      { type: 'thinking_delta', delta: 'second' },
    ]
    const decoder = createVocionDecoder({ turnId: 't1', scope: 's' })
    const ops = events.flatMap((e) => decoder.decode(e, {}))
    expect(ops.filter((o) => o.op === 'message.finish')).toEqual([{ op: 'message.finish', messageId: 's/reasoning-1', status: 'done' }])
    const state = foldStream(events, { protocol: 'vocion', turnId: 't1' })
    expect(messagesOfType(state, 'reasoning', 't1').map((m) => m.props.content)).toEqual(['first', 'second'])
  })

  it('marks the reasoning done (while the turn still streams) when the first answer token lands', () => {
    const decoder = createVocionDecoder({ turnId: 't1', scope: 's' })
    decoder.decode({ type: 'thinking_delta', delta: 'hmm' }, {})
    const ops = decoder.decode({ type: 'response_delta', delta: 'Hi' }, {})
    expect(ops[0]).toMatchObject({ op: 'message.finish', status: 'done' })
    expect(ops[1]).toMatchObject({ op: 'message.delta', type: 'text', action: 'append', path: 'content', value: 'Hi' })
  })

  it('appends response_delta into one text message', () => {
    const state = fold([
      { type: 'response_delta', delta: 'Contoso ' },
      { type: 'response_delta', delta: 'renews ' },
      { type: 'response_delta', delta: 'in September.' },
    ])
    expect(onlyMessage(state, 'text').props.content).toBe('Contoso renews in September.')
  })
})

describe('vocion decoder: tools', () => {
  it('turns tool_start/tool_end into a tool message and a tool row', () => {
    const state = fold([
      { type: 'tool_start', tool: 'lookup_objects', input: { type_slug: 'deal' } },
      { type: 'tool_end', tool: 'lookup_objects', input: { type_slug: 'deal' }, output: '3 records' },
    ])
    const tool = onlyMessage(state, 'tool')
    expect(tool.props).toMatchObject({
      name: 'lookup_objects', input: { type_slug: 'deal' }, inputText: '{"type_slug":"deal"}',
      output: '3 records', state: 'output-available',
    })
    expect(typeof tool.props.toolCallId).toBe('string')
    expect(tool.status).toBe('done')
    const [node] = nodes(state)
    expect(node).toMatchObject({ kind: 'tool', tool: 'lookup_objects', args: { type_slug: 'deal' }, result: '3 records', status: 'done' })
  })

  it('shows a running call as input-available with a running row', () => {
    const state = foldStream([{ type: 'tool_start', tool: 'search', input: { q: 'x' } }], { protocol: 'vocion' })
    // The stream ended without tool_end: the fold closed the row, the call never got an output.
    const tool = onlyMessage(state, 'tool')
    expect(tool.props.state).toBe('input-available')
    expect(tool.props.output).toBeUndefined()
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    const ops = decoder.decode({ type: 'tool_start', tool: 'search', input: { q: 'x' } }, {})
    expect(ops).toContainEqual(expect.objectContaining({ op: 'trace.node', node: expect.objectContaining({ status: 'start', kind: 'tool' }) }))
  })

  it('gives every call its own toolCallId', () => {
    const state = fold([
      { type: 'tool_start', tool: 'search', input: { q: 'a' } },
      { type: 'tool_end', tool: 'search', input: { q: 'a' }, output: 'A' },
      { type: 'tool_start', tool: 'search', input: { q: 'b' } },
      { type: 'tool_end', tool: 'search', input: { q: 'b' }, output: 'B' },
    ])
    const ids = messagesOfType(state, 'tool').map((m) => m.props.toolCallId)
    expect(new Set(ids).size).toBe(2)
  })

  it('matches an end to the latest open start of the same tool', () => {
    const state = fold([
      { type: 'tool_start', tool: 'search', input: { q: 'first' } },
      { type: 'tool_start', tool: 'search', input: { q: 'second' } },
      { type: 'tool_end', tool: 'search', input: { q: 'second' }, output: 'second result' },
      { type: 'tool_end', tool: 'search', input: { q: 'first' }, output: 'first result' },
    ])
    const [first, second] = messagesOfType(state, 'tool')
    expect(first!.props).toMatchObject({ input: { q: 'first' }, output: 'first result' })
    expect(second!.props).toMatchObject({ input: { q: 'second' }, output: 'second result' })
    expect(nodes(state).map((n) => [n.args, n.result])).toEqual([
      [{ q: 'first' }, 'first result'],
      [{ q: 'second' }, 'second result'],
    ])
  })

  it('shows a finished call even when its start never arrived', () => {
    const state = fold([{ type: 'tool_end', tool: 'search', input: { q: 'x' }, output: 'found' }])
    expect(onlyMessage(state, 'tool').props).toMatchObject({ name: 'search', output: 'found', state: 'output-available' })
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ tool: 'search', status: 'done', result: 'found' })
  })

  it('draws one row when the server sends its own trace_node for a call (row first)', () => {
    const state = fold([
      { type: 'trace_node', id: 'n1', kind: 'search', status: 'start', label: 'Searching notes', tool: 'search_knowledge', detail: '"renewal"' },
      { type: 'tool_start', tool: 'search_knowledge', input: { query: 'renewal' } },
      { type: 'tool_end', tool: 'search_knowledge', input: { query: 'renewal' }, output: 'raw tool text' },
      { type: 'trace_node', id: 'n1', status: 'done', label: 'Searched notes', result: '2 sources' },
    ])
    expect(nodes(state)).toHaveLength(1)
    // The server's curated row is the record; the raw tool output stays on the tool message.
    expect(nodes(state)[0]).toMatchObject({ kind: 'search', label: 'Searched notes', result: '2 sources', detail: '"renewal"', status: 'done' })
    expect(onlyMessage(state, 'tool').props.output).toBe('raw tool text')
  })

  it('draws one row when the server sends its own trace_node for a call (call first)', () => {
    const state = fold([
      { type: 'tool_start', tool: 'search_knowledge', input: { query: 'renewal' } },
      { type: 'trace_node', id: 'n1', kind: 'search', status: 'start', label: 'Searching notes', tool: 'search_knowledge' },
      { type: 'trace_node', id: 'n1', status: 'done', label: 'Searched notes', result: '2 sources' },
      { type: 'tool_end', tool: 'search_knowledge', input: { query: 'renewal' }, output: 'raw tool text' },
    ])
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ kind: 'search', label: 'Searched notes', result: '2 sources', status: 'done' })
  })
})

describe('vocion decoder: tool_error', () => {
  it('fails the call: message output-error with the message, row error with the message visible', () => {
    const state = fold([
      { type: 'tool_start', tool: 'lookup_invoice', input: { id: 'INV-1' } },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'endpoint unreachable', status: 502 },
      { type: 'response_delta', delta: 'The invoice is paid.' },
      { type: 'done', response: 'The invoice is paid.' },
    ])
    const tool = onlyMessage(state, 'tool')
    expect(tool.status).toBe('error')
    expect(tool.props).toMatchObject({ state: 'output-error', errorText: 'endpoint unreachable', httpStatus: 502, input: { id: 'INV-1' } })
    const [node] = nodes(state)
    expect(node!.status).toBe('error')
    expect(node!.text).toContain('endpoint unreachable')
    expect(node!.resultDetail).toBe('endpoint unreachable')
    // The turn still lands, and the failed step is not closed as done by finalization.
    expect(state.turns['turn-1']!.status).toBe('done')
  })

  it('shows a failed call and row even when the tool never started', () => {
    const state = fold([{ type: 'tool_error', tool: 'send_email', message: 'SMTP refused' }])
    const tool = onlyMessage(state, 'tool')
    expect(tool.status).toBe('error')
    expect(tool.props).toMatchObject({ name: 'send_email', state: 'output-error', errorText: 'SMTP refused' })
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ kind: 'tool', tool: 'send_email', status: 'error' })
    expect(nodes(state)[0]!.text).toContain('SMTP refused')
  })

  it('fails the row the server drew for the call', () => {
    const state = fold([
      { type: 'trace_node', id: 'b1', kind: 'tool', status: 'start', label: 'Checking billing', tool: 'lookup_invoice', detail: 'INV-1' },
      { type: 'tool_start', tool: 'lookup_invoice', input: { id: 'INV-1' } },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'timed out' },
    ])
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ label: 'Checking billing', detail: 'INV-1', status: 'error', resultDetail: 'timed out' })
  })

  it('fails an open server row for that tool when there was no tool_start', () => {
    const state = fold([
      { type: 'trace_node', id: 'b1', kind: 'tool', status: 'start', label: 'Checking billing', tool: 'lookup_invoice' },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'timed out' },
    ])
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ label: 'Checking billing', status: 'error' })
  })
})

describe('vocion decoder: sub-agents, retrieval, skills', () => {
  it('opens and closes a thread per sub-agent, with a delegate row', () => {
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    const open = decoder.decode({ type: 'subagent_start', name: 'Pipeline Analyst' }, {})
    expect(open).toContainEqual(expect.objectContaining({ op: 'thread.open', label: 'Pipeline Analyst' }))
    const state = fold([
      { type: 'subagent_start', name: 'Pipeline Analyst' },
      { type: 'subagent_end', name: 'Pipeline Analyst' },
    ])
    const threads = Object.values(state.threads)
    expect(threads).toHaveLength(1)
    expect(threads[0]).toMatchObject({ label: 'Pipeline Analyst', status: 'done', turnId: 'turn-1' })
    expect(nodes(state)).toEqual([expect.objectContaining({ kind: 'delegate', status: 'done', label: 'Pipeline Analyst finished' })])
  })

  it('keeps a sub-agent open until its own end', () => {
    const state = foldStream([{ type: 'subagent_start', name: 'A' }, { type: 'subagent_start', name: 'B' }, { type: 'subagent_end', name: 'A' }], {
      protocol: 'vocion',
    })
    const byLabel = Object.fromEntries(Object.values(state.threads).map((t) => [t.label, t.status]))
    // B was closed only by the end of the turn; the decoder reported no mismatch.
    expect(byLabel).toEqual({ A: 'done', B: 'done' })
    expect(problemsOf(state)).toEqual([])
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    decoder.decode({ type: 'subagent_start', name: 'A' }, {})
    decoder.decode({ type: 'subagent_start', name: 'B' }, {})
    const closing = decoder.decode({ type: 'subagent_end', name: 'A' }, {})
    expect(closing.find((o) => o.op === 'thread.close')).toEqual({ op: 'thread.close', threadId: 's/subagent-1', status: 'done' })
  })

  it('reports a sub-agent end that never started', () => {
    const state = fold([{ type: 'subagent_end', name: 'Ghost' }])
    expect(problemsOf(state)[0]!.code).toBe('end_before_start')
  })

  it('updates one search row through the retrieval stages', () => {
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    const labels = [
      { type: 'retrieval_progress', stage: 'started', meta: { mode: 'hybrid' } },
      { type: 'retrieval_progress', stage: 'candidates', meta: { vector: 14, keyword: 8 } },
      { type: 'retrieval_progress', stage: 'reranking', meta: { candidates: 22 } },
    ].flatMap((e) => decoder.decode(e, {})).map((op) => (op.op === 'trace.node' ? op.node.label : undefined))
    expect(labels).toEqual(['Searching…', 'Searching… · 22 candidates', 'Ranking · 22 candidates'])

    const state = fold([
      { type: 'retrieval_progress', stage: 'started', meta: { mode: 'hybrid' } },
      { type: 'retrieval_progress', stage: 'candidates', meta: { vector: 14, keyword: 8 } },
      { type: 'retrieval_progress', stage: 'complete', meta: { hits: 1 } },
    ])
    expect(nodes(state)).toHaveLength(1)
    expect(nodes(state)[0]).toMatchObject({ kind: 'search', label: 'Searched · 1 hit', status: 'done', detail: { hits: 1 } })
  })

  it('starts a new search row for a second retrieval', () => {
    const state = fold([
      { type: 'retrieval_progress', stage: 'started' },
      { type: 'retrieval_progress', stage: 'complete', meta: { hits: 3 } },
      { type: 'retrieval_progress', stage: 'started' },
    ])
    expect(nodes(state).map((n) => n.kind)).toEqual(['search', 'search'])
  })

  it('turns skill_result into a skill row with its result', () => {
    const state = fold([{
      type: 'skill_result',
      skillResult: { skillName: 'Follow-up writer', skillSlug: 'follow-up', runId: 9, content: 'Hi Nadia, …', status: 'pending' },
    }])
    expect(nodes(state)).toEqual([
      expect.objectContaining({ kind: 'skill', label: 'Follow-up writer', tool: 'follow-up', result: 'Hi Nadia, …', status: 'done' }),
    ])
  })
})

describe('vocion decoder: documents and citations', () => {
  const docs = {
    type: 'documents',
    documents: [
      { document_id: 'd1', semantic_identifier: 'Renewal record', link: 'https://crm/1', source_type: 'hubspot', blurb: 'Renews 30 Sep', citationIndex: 1 },
      { document_id: 'd2', semantic_identifier: 'Call notes', link: 'https://notes/2', source_type: 'granola', blurb: 'Two-year term', citationIndex: 2 },
    ],
  }

  it('adds every document as a source of the turn, what weft does not read (source_type) in its extra', () => {
    const state = fold([docs])
    expect(state.turns['turn-1']!.sources).toEqual([
      { id: 'd1', kind: 'document', url: 'https://crm/1', title: 'Renewal record', snippet: 'Renews 30 Sep', citationIndex: 1, extra: { source_type: 'hubspot' } },
      { id: 'd2', kind: 'document', url: 'https://notes/2', title: 'Call notes', snippet: 'Two-year term', citationIndex: 2, extra: { source_type: 'granola' } },
    ])
  })

  it('maps a [n] marker in the answer to its source', () => {
    const state = fold([docs, { type: 'response_delta', delta: 'Renews 30 Sep [1], two-year term [2].' }])
    const text = onlyMessage(state, 'text').props.content as string
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))
    expect(markers.map((n) => selectCitation(state, 'turn-1', n)?.title)).toEqual(['Renewal record', 'Call notes'])
    expect(selectCitation(state, 'turn-1', 3)).toBeUndefined()
  })

  it('a citationIndex out of document order is the one the server sent, not the position', () => {
    const state = fold([{
      type: 'documents',
      documents: [
        { document_id: 'd3', semantic_identifier: 'Third cited', citationIndex: 3 },
        { document_id: 'd1', semantic_identifier: 'First cited', citationIndex: 1 },
        { document_id: 'd2', semantic_identifier: 'Second cited', citationIndex: 2 },
      ],
    }])
    expect(state.turns['turn-1']!.sources.map((s) => [s.id, s.citationIndex])).toEqual([['d3', 3], ['d1', 1], ['d2', 2]])
    expect([1, 2, 3].map((n) => selectCitation(state, 'turn-1', n)?.title)).toEqual(['First cited', 'Second cited', 'Third cited'])
  })

  it('reports a document without an id and keeps the others', () => {
    const state = fold([{ type: 'documents', documents: [{ semantic_identifier: 'nameless' }, { document_id: 'd9' }] }])
    expect(state.turns['turn-1']!.sources).toEqual([{ id: 'd9', kind: 'document' }])
    expect(problemsOf(state)).toHaveLength(1)
  })
})

describe('vocion decoder: recommended_action', () => {
  const recommendation = { actionId: 'gmail.send', input: { to: 'nadia@example.com' }, label: 'Draft the note', confidence: 0.8 }

  it('stores the recommendation as a message, and does nothing else', () => {
    const received: unknown[] = []
    const decoder = createVocionDecoder({ turnId: 't', scope: 's', onData: (part) => received.push(part) })
    const ops = decoder.decode({ type: 'recommended_action', recommendation }, {})
    expect(ops).toEqual([expect.objectContaining({ op: 'message.put', type: 'recommended-action', props: recommendation, status: 'done' })])
    expect(received).toEqual([])
  })

  it('leaves no gate and no tool call behind', () => {
    const state = fold([{ type: 'recommended_action', recommendation }])
    expect(onlyMessage(state, 'recommended-action').props).toEqual(recommendation)
    expect(state.gates).toEqual({})
    expect(messagesOfType(state, 'tool')).toEqual([])
  })
})

describe('vocion decoder: trace_node folding', () => {
  it('keeps what the start set when a done carries only status and result', () => {
    const state = fold([
      {
        type: 'trace_node', id: 'n1', actor: { id: 'lead', kind: 'lead', name: 'Lead' }, kind: 'tool', status: 'start',
        label: 'Looking up deals', detail: 'deal records', tool: 'lookup_objects', args: '{"type_slug":"deal"}', confidence: 0.7,
      },
      { type: 'trace_node', id: 'n1', status: 'done', result: '3 records' },
    ])
    expect(nodes(state)).toEqual([expect.objectContaining({
      status: 'done', result: '3 records', label: 'Looking up deals', detail: 'deal records', tool: 'lookup_objects',
      args: '{"type_slug":"deal"}', confidence: 0.7, kind: 'tool', actor: { id: 'lead', kind: 'lead', name: 'Lead' },
    })])
  })

  it('appends delta to the row text and lets every other field win latest', () => {
    const state = fold([
      { type: 'trace_node', id: 'r', kind: 'reason', status: 'start', label: 'Thinking', delta: 'The user ' },
      { type: 'trace_node', id: 'r', status: 'progress', label: 'Thinking', delta: 'wants numbers.', resultDetail: 'a', citations: [{ title: 'A' }] },
      { type: 'trace_node', id: 'r', status: 'done', label: 'Thought through it', resultDetail: 'b', citations: [{ title: 'B' }] },
    ])
    expect(nodes(state)).toEqual([expect.objectContaining({
      text: 'The user wants numbers.', label: 'Thought through it', status: 'done', resultDetail: 'b', citations: [{ title: 'B' }],
    })])
  })

  it('nests a child that arrives before its parent once the parent comes', () => {
    const state = fold([
      { type: 'trace_node', id: 'child', parentId: 'task-7', kind: 'search', status: 'start', label: 'Searching' },
      { type: 'trace_node', id: 'task-7', kind: 'delegate', status: 'start', label: 'Delegating' },
    ])
    const turn = state.turns['turn-1']!
    expect(turn.traceRootIds).toHaveLength(1)
    const parent = traceRecord(state.trace)[turn.traceRootIds[0]!]!
    expect(parent.label).toBe('Delegating')
    expect(parent.childIds.map((id) => traceRecord(state.trace)[id]!.label)).toEqual(['Searching'])
    expect(traceRecord(state.trace)[parent.childIds[0]!]!.parentId).toBe(parent.id)
  })

  it('closes every open row when the turn ends, and leaves failed rows failed', () => {
    const state = fold([
      { type: 'trace_node', id: 'a', kind: 'tool', status: 'start', label: 'A' },
      { type: 'trace_node', id: 'b', kind: 'tool', status: 'progress', label: 'B' },
      { type: 'trace_node', id: 'c', kind: 'tool', status: 'error', label: 'C' },
      { type: 'done', response: 'ok' },
    ])
    expect(nodes(state).map((n) => [n.label, n.status])).toEqual([['A', 'done'], ['B', 'done'], ['C', 'error']])
  })

  it('closes open rows when the body ends without done; the turn is cut off', () => {
    const state = fold([{ type: 'trace_node', id: 'a', kind: 'tool', status: 'start', label: 'A' }])
    expect(nodes(state)[0]!.status).toBe('done')
    expect(state.turns['turn-1']!.status).toBe('aborted')
    expect(state.turns['turn-1']!.problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
  })

  it('follows the label tense from the status once both tenses are known', () => {
    const state = fold([
      { type: 'trace_node', id: 'd', kind: 'draft', status: 'start', label: 'Preparing', labels: { running: 'Preparing', done: 'Prepared' } },
      { type: 'trace_node', id: 'd', status: 'done' },
      { type: 'trace_node', id: 'e', kind: 'draft', status: 'start', label: 'Writing', labels: { running: 'Writing', done: 'Wrote' } },
      { type: 'done', response: '' },
    ])
    expect(nodes(state).map((n) => [n.label, n.status])).toEqual([['Prepared', 'done'], ['Wrote', 'done']])
  })

  it('reports a row without an id and a status it does not know', () => {
    const state = fold([
      { type: 'trace_node', kind: 'tool', status: 'start', label: 'no id' },
      { type: 'trace_node', id: 'x', kind: 'tool', status: 'running', label: 'X' },
    ])
    expect(nodes(state)).toEqual([expect.objectContaining({ label: 'X', status: 'done' })])
    expect(problemsOf(state).map((p) => p.code)).toEqual(['missing_id', 'invalid'])
  })
})

describe('vocion decoder: hitl_gate', () => {
  it('opens a pending hitl gate with the question and payload', () => {
    const state = fold([{
      type: 'hitl_gate',
      gate: { name: 'send-email', question: 'Send it?', payload: { to: 'nadia@example.com' }, resumeUrl: 'https://app/runs/1' },
    }])
    const gates = Object.values(state.gates)
    expect(gates).toEqual([expect.objectContaining({
      turnId: 'turn-1', kind: 'hitl', question: 'Send it?', payload: { to: 'nadia@example.com' }, status: 'pending',
      url: 'https://app/runs/1',
    })])
    expect(state.turns['turn-1']!.gateIds).toEqual([gates[0]!.id])
  })

  it('keeps two gates of the same name apart', () => {
    const gate = { type: 'hitl_gate', gate: { name: 'review', question: 'OK?' } }
    const state = fold([gate, gate])
    expect(Object.keys(state.gates)).toHaveLength(2)
  })

  it('reports a gate without a name', () => {
    const state = fold([{ type: 'hitl_gate', gate: { question: 'OK?' } }])
    expect(state.gates).toEqual({})
    expect(problemsOf(state)).toHaveLength(1)
  })
})

describe('vocion decoder: done, error, usage, unknown events', () => {
  it('lets the final response win when deltas were lost', () => {
    const state = fold([
      { type: 'response_delta', delta: 'Contoso ' },
      // '…renews in ' was lost on the way
      { type: 'response_delta', delta: 'September.' },
      { type: 'done', response: 'Contoso renews in September.', traceId: 'tr-1' },
    ])
    const text = onlyMessage(state, 'text')
    expect(text.props.content).toBe('Contoso renews in September.')
    expect(text.status).toBe('done')
    expect(state.turns['turn-1']).toMatchObject({ status: 'done', metadata: { traceId: 'tr-1' } })
  })

  it('does not rewrite the answer when nothing was lost', () => {
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    decoder.decode({ type: 'response_delta', delta: 'All here.' }, {})
    const ops = decoder.decode({ type: 'done', response: 'All here.' }, {})
    expect(ops.some((o) => o.op === 'message.delta')).toBe(false)
    expect(ops.at(-1)).toEqual({ op: 'turn.finish', turnId: 't', status: 'done' })
    expect(decoder.ended).toBe(true)
  })

  it('creates the answer from done when no delta arrived', () => {
    const state = fold([{ type: 'done', response: 'Only the final text.' }])
    expect(onlyMessage(state, 'text').props.content).toBe('Only the final text.')
  })

  it('keeps the streamed answer when done carries an empty response', () => {
    const state = fold([{ type: 'response_delta', delta: 'Streamed.' }, { type: 'done', response: '' }])
    expect(onlyMessage(state, 'text').props.content).toBe('Streamed.')
  })

  it('ends the turn with a typed error', () => {
    const state = fold([{ type: 'response_delta', delta: 'Part' }, { type: 'error', message: 'The model provider failed' }])
    const turn = state.turns['turn-1']!
    expect(turn.status).toBe('error')
    expect(turn.error).toMatchObject({ type: 'unknown', message: 'The model provider failed', retryable: false })
    // What arrived before the error stays.
    expect(onlyMessage(state, 'text').props.content).toBe('Part')
  })

  it('reads a known failure from the error message', () => {
    expect(classifyVocionError('Rate limit exceeded, retry later')).toBe('rate_limit')
    expect(classifyVocionError('Request timed out')).toBe('timeout')
    expect(classifyVocionError('401 Unauthorized')).toBe('authentication')
    expect(classifyVocionError('fetch failed')).toBe('network')
    expect(classifyVocionError('Something broke')).toBe('unknown')
    const state = fold([{ type: 'error', message: 'Rate limit exceeded' }])
    expect(state.turns['turn-1']!.error).toMatchObject({ type: 'rate_limit', retryable: true })
  })

  it('drops usage silently', () => {
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    expect(decoder.decode({ type: 'usage', model: 'm', inputTokens: 10, outputTokens: 3 }, {})).toEqual([])
    const state = fold([{ type: 'usage', model: 'm', inputTokens: 10 }, { type: 'done', response: 'x' }, { type: 'usage', model: 'm' }])
    expect(problemsOf(state)).toEqual([])
    expect(state.turns['turn-1']!.usage).toBeUndefined()
  })

  it('reports an unknown event and keeps going', () => {
    const state = fold([
      { type: 'response_delta', delta: 'a' },
      { type: 'mystery', x: 1 },
      { type: 'response_delta', delta: 'b' },
    ])
    expect(problemsOf(state)).toEqual([expect.objectContaining({ type: 'protocol', code: 'unknown_event' })])
    expect(onlyMessage(state, 'text').props.content).toBe('ab')
  })

  it('reports malformed events without throwing', () => {
    const decoder = createVocionDecoder({ turnId: 't', scope: 's' })
    for (const bad of [null, 42, 'text', [], {}, { type: 7 }, { type: 'response_delta' }, { type: 'tool_start' }, { type: 'documents' }]) {
      const ops = decoder.decode(bad, {})
      expect(ops).toHaveLength(1)
      expect(ops[0]!.op).toBe('problem')
    }
  })

  it('ignores (and reports) events after the turn ended', () => {
    const state = fold([{ type: 'done', response: 'Final.' }, { type: 'response_delta', delta: ' extra' }])
    expect(onlyMessage(state, 'text').props.content).toBe('Final.')
    expect(problemsOf(state).map((p) => p.code)).toEqual(['after_end'])
  })

  it('keeps newer servers\' run metadata and artifacts, and drops advisory notes', () => {
    const state = fold([
      { type: 'run_meta', model: 'claude', provider: 'anthropic', strength: 'deep', thinking: 'high' },
      { type: 'step_progress', tool: 'render_document', note: 'sheet 7 of 12' },
      { type: 'artifact', artifact: { id: 5, title: 'Pipeline', kind: 'table', spec: {} } },
      { type: 'artifact', artifact: { id: 5, title: 'Pipeline v2', kind: 'table', spec: {} } },
    ])
    expect(state.turns['turn-1']!.metadata).toMatchObject({ model: 'claude', provider: 'anthropic', strength: 'deep', thinking: 'high' })
    expect(onlyMessage(state, 'data-artifact').props.data).toMatchObject({ title: 'Pipeline v2' })
    expect(problemsOf(state)).toEqual([])
  })
})

describe('vocion decoder: scoping', () => {
  const turnEvents = (answer: string): Event[] => [
    { type: 'stream_meta', streamId: `stream-${answer}` },
    { type: 'thinking_delta', delta: `thinking about ${answer}` },
    { type: 'trace_node', id: 'task-1', kind: 'delegate', status: 'start', label: `Delegating ${answer}` },
    { type: 'trace_node', id: 'n1', parentId: 'task-1', kind: 'search', status: 'done', label: `Searched ${answer}` },
    { type: 'tool_start', tool: 'lookup', input: { q: answer } },
    { type: 'tool_end', tool: 'lookup', input: { q: answer }, output: answer },
    { type: 'hitl_gate', gate: { name: 'review', question: `Approve ${answer}?` } },
    { type: 'response_delta', delta: answer },
    { type: 'done', response: answer },
  ]

  it('folds two streams with the same wire ids into one state without collisions', () => {
    const first = foldStream(turnEvents('one'), { protocol: 'vocion', turnId: 't1' })
    const both = foldStream(turnEvents('two'), { protocol: 'vocion', turnId: 't2', state: first })
    expect(both.turnIds).toEqual(['t1', 't2'])
    for (const [turnId, answer] of [['t1', 'one'], ['t2', 'two']] as const) {
      const turn = both.turns[turnId]!
      const text = selectTurnMessages(both, turnId).find((m) => m.type === 'text')!
      expect(text.props.content).toBe(answer)
      expect(selectTurnMessages(both, turnId).map((m) => m.type)).toEqual(['reasoning', 'tool', 'text'])
      expect(selectTraceList(both, turnId).map((n) => n.label)).toEqual([`Delegating ${answer}`, `Searched ${answer}`, 'lookup'])
      expect(turn.gateIds.map((id) => both.gates[id]!.question)).toEqual([`Approve ${answer}?`])
    }
    // The first turn is untouched by the second stream.
    expect(traceRecord(both.trace)[first.turns.t1!.traceRootIds[0]!]).toBe(traceRecord(first.trace)[first.turns.t1!.traceRootIds[0]!])
    expect(Object.keys(traceRecord(both.trace))).toHaveLength(6)
  })
})

describe('vocion detection', () => {
  const sniff = (first: unknown) => vocionProtocol.sniff({ first })

  it('is certain on stream_meta and confident on the rail\'s own event types', () => {
    expect(sniff({ type: 'stream_meta', streamId: 's' })).toBe(1)
    for (const type of ['thinking_delta', 'response_delta', 'trace_node', 'tool_start', 'hitl_gate', 'documents', 'recommended_action']) {
      expect(sniff({ type })).toBe(0.9)
    }
    expect(sniff({ type: 'thinking' })).toBe(0.9)
  })

  it('declines other protocols\' events', () => {
    expect(sniff({ chunk_id: 'C1', type: 'text', props: { content: 'Hi' } })).toBe(0)
    expect(sniff({ type: 'thinking', props: { content: 'x' } })).toBe(0)
    expect(sniff({ type: 'text-delta', id: 't', delta: 'Hi' })).toBe(0)
    expect(sniff({ type: 'RUN_STARTED', threadId: 't', runId: 'r' })).toBe(0)
    expect(sniff(null)).toBe(0)
  })

  it('is picked by auto-detection from raw SSE text', () => {
    const sse = [
      { type: 'stream_meta', streamId: 's9' },
      { type: 'response_delta', delta: 'Hello' },
      { type: 'done', response: 'Hello' },
    ].map((e) => `data: ${JSON.stringify(e)}\n\n`).join(': keepalive\n\n')
    const state = foldStream(sse)
    expect(state.turns['turn-1']!.protocol).toBe('vocion')
    expect(state.cursor.streamId).toBe('s9')
    expect(onlyMessage(state, 'text').props.content).toBe('Hello')
    expect(streamToOps(sse).some((o) => o.op === 'problem')).toBe(false)
  })
})
