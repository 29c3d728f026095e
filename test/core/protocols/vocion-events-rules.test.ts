/**
 * The Vocion decoder's event kinds, op by op: tool calls and which timeline
 * row each one draws into, the server's `trace_node` rows (fields, parents,
 * statuses, both tenses of a label, which rows close with the turn),
 * sub-agent lanes, search documents, retrieval rows and skill results, gates,
 * recommended actions, and artifacts and records as data parts, with the
 * exact problems a malformed event reports.
 */
import { describe, expect, it } from 'vitest'
import type { Op } from '../../../src/core/model/ops'
import { createVocionDecoder } from '../../../src/protocols/vocion/decoder'

type Ev = Record<string, unknown>
const decoder = () => createVocionDecoder({ turnId: 't1', scope: 't1' })
const run = (events: readonly unknown[], d = decoder()): Op[] => events.flatMap((e) => d.decode(e, {}))
/** The ops of the last event, after the ones before it were decoded. */
const last = (events: readonly unknown[]): Op[] => {
  const d = decoder()
  for (const e of events.slice(0, -1)) d.decode(e, {})
  return d.decode(events[events.length - 1], {})
}
const problem = (message: string, raw: unknown, code: string): Op => ({
  op: 'problem', turnId: 't1',
  error: { type: 'protocol', message, retryable: false, code, detail: JSON.stringify(raw) },
})
const node = (fields: Ev, more: Ev = {}): Op => ({ op: 'trace.node', turnId: 't1', node: fields, ...more }) as Op
const toolMessage = (messageId: string, more: Ev): Op => ({ op: 'message.delta', turnId: 't1', messageId, type: 'tool', role: 'assistant', ...more }) as Op
const trace = (id: string, tool: string, more: Ev = {}): Ev => ({ type: 'trace_node', id, tool, ...more })
const SEARCH_LABELS = { running: 'Searching', done: 'Searched' }
const FETCH_LABELS = { running: 'Fetching', done: 'Fetched' }

describe('Vocion tool calls', () => {
  it('a tool_start or tool_end without a tool is an invalid problem', () => {
    const start = { type: 'tool_start', input: {} }
    const end = { type: 'tool_end', output: 1 }
    expect(run([start])).toStrictEqual([problem('tool_start without a tool', start, 'invalid')])
    expect(run([end])).toStrictEqual([problem('tool_end without a tool', end, 'invalid')])
  })

  it('a tool_start puts a streaming tool message with its unread fields and draws its own row', () => {
    expect(run([{ type: 'tool_start', tool: 'search', input: { q: 'x' }, attempt: 1 }])).toStrictEqual([
      {
        op: 'message.put', turnId: 't1', messageId: 't1/tool-1', type: 'tool', role: 'assistant', status: 'streaming',
        props: { toolCallId: 't1/tool-1', name: 'search', input: { q: 'x' }, inputText: '{"q":"x"}', state: 'input-available', extra: { attempt: 1 } },
      },
      node({ id: 't1/tool-1', kind: 'tool', tool: 'search', label: 'search', status: 'start', args: { q: 'x' } }),
    ])
  })

  it('a tool_end sets the output and input, merges its unread fields, finishes the message and its row', () => {
    expect(last([{ type: 'tool_start', tool: 'search' }, { type: 'tool_end', tool: 'search', input: { q: 'y' }, output: { hits: 2 }, ms: 9 }])).toStrictEqual([
      toolMessage('t1/tool-1', {
        action: 'set', path: '',
        value: { toolCallId: 't1/tool-1', name: 'search', state: 'output-available', output: { hits: 2 }, input: { q: 'y' }, inputText: '{"q":"y"}' },
      }),
      toolMessage('t1/tool-1', { action: 'merge', path: 'extra', value: { ms: 9 } }),
      { op: 'message.finish', messageId: 't1/tool-1', status: 'done' },
      node({ id: 't1/tool-1', kind: 'tool', tool: 'search', label: 'search', status: 'done', result: { hits: 2 }, args: { q: 'y' } }),
    ])
  })

  it('a tool_end without a start shows a finished call of its own, with no output or input it did not carry', () => {
    expect(run([{ type: 'tool_end', tool: 'search' }])).toStrictEqual([
      toolMessage('t1/tool-1', { action: 'set', path: '', value: { toolCallId: 't1/tool-1', name: 'search', state: 'output-available' } }),
      { op: 'message.finish', messageId: 't1/tool-1', status: 'done' },
      node({ id: 't1/tool-1', kind: 'tool', tool: 'search', label: 'search', status: 'done' }),
    ])
  })

  it('a tool_error fails the open call and its row; a status that is not a number is not an HTTP status', () => {
    expect(last([{ type: 'tool_start', tool: 'search' }, { type: 'tool_error', tool: 'search', message: 'boom', status: '500', attempt: 2 }])).toStrictEqual([
      toolMessage('t1/tool-1', { action: 'set', path: '', value: { toolCallId: 't1/tool-1', name: 'search', state: 'output-error', errorText: 'boom' } }),
      toolMessage('t1/tool-1', { action: 'merge', path: 'extra', value: { attempt: 2 } }),
      { op: 'message.finish', messageId: 't1/tool-1', status: 'error' },
      { op: 'trace.fail', turnId: 't1', nodeId: 't1/tool-1', message: 'boom' },
    ])
  })

  it('a tool_error with no tool and no message fails a call of its own with plain words and its HTTP status', () => {
    expect(run([{ type: 'tool_error', status: 503 }])).toStrictEqual([
      toolMessage('t1/tool-1', { action: 'set', path: '', value: { toolCallId: 't1/tool-1', name: 'tool', state: 'output-error', errorText: 'the tool failed', httpStatus: 503 } }),
      { op: 'message.finish', messageId: 't1/tool-1', status: 'error' },
      { op: 'trace.fail', turnId: 't1', tool: undefined, message: 'the tool failed' },
    ])
  })

  it('a tool_error with no call of ours fails the latest open row the server drew for that tool', () => {
    const events = [
      trace('n1', 'search', { status: 'start' }),
      trace('n2', 'search', { status: 'done' }),
      trace('n3', 'fetch', { status: 'start' }),
      { type: 'tool_error', tool: 'search', message: 'boom' },
    ]
    expect(last(events).at(-1)).toStrictEqual({ op: 'trace.fail', turnId: 't1', nodeId: 't1/trace/n1', message: 'boom' })
  })

  it('the server row a tool_error fails is closed, and only that one', () => {
    const events = [
      trace('n1', 'search', { status: 'start', labels: SEARCH_LABELS }),
      trace('n2', 'fetch', { status: 'start', labels: FETCH_LABELS }),
      { type: 'tool_error', tool: 'search', message: 'boom' },
      { type: 'done' },
    ]
    expect(last(events)).toStrictEqual([
      node({ id: 't1/trace/n2', label: 'Fetched' }),
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })
})

describe('Vocion tool calls and the rows the server draws', () => {
  it('a tool_start takes the open row the server drew for its tool, and a second call of it draws its own', () => {
    const events = [trace('n1', 'search', { status: 'start' }), { type: 'tool_start', tool: 'search' }, { type: 'tool_start', tool: 'search' }]
    const ops = run(events)
    expect(ops.slice(1).map((op) => (op.op === 'trace.node' ? op.node.id : op.op))).toStrictEqual(['message.put', 'message.put', 't1/tool-2'])
  })

  it('a row sent without a status is open, so a tool_start takes it', () => {
    expect(last([trace('n1', 'search'), { type: 'tool_start', tool: 'search' }]).map((op) => op.op)).toStrictEqual(['message.put'])
  })

  it('an update without a tool keeps the row for its tool', () => {
    const events = [trace('n1', 'search', { status: 'start' }), { type: 'trace_node', id: 'n1', status: 'progress' }, { type: 'tool_start', tool: 'search' }]
    expect(last(events).map((op) => op.op)).toStrictEqual(['message.put'])
  })

  it('a row the server draws for a call folds into that call, and a later call of the tool draws its own row', () => {
    const events = [{ type: 'tool_start', tool: 'search' }, trace('n1', 'search', { status: 'progress' }), { type: 'tool_start', tool: 'search' }]
    const ops = run(events)
    expect(ops[2]).toStrictEqual(node({ id: 't1/tool-1', status: 'progress', tool: 'search' }))
    expect(ops.slice(3).map((op) => (op.op === 'trace.node' ? op.node.id : op.op))).toStrictEqual(['message.put', 't1/tool-2'])
  })

  it('each server row goes to the latest call still drawing its own row, then to a row of its own', () => {
    const events = [
      { type: 'tool_start', tool: 'search' }, { type: 'tool_start', tool: 'search' },
      trace('n1', 'search'), trace('n2', 'search'), trace('n3', 'search'),
    ]
    const d = decoder()
    for (const e of events.slice(0, 2)) d.decode(e, {})
    expect(events.slice(2).flatMap((e) => d.decode(e, {}))).toStrictEqual([
      node({ id: 't1/tool-2', tool: 'search' }),
      node({ id: 't1/tool-1', tool: 'search' }),
      node({ id: 't1/trace/n3', tool: 'search' }),
    ])
  })
})

describe('Vocion trace_node rows', () => {
  it('a trace_node without an id is a missing_id problem', () => {
    const event = { type: 'trace_node', label: 'x' }
    expect(run([event])).toStrictEqual([problem('trace_node without an id', event, 'missing_id')])
  })

  it('a row with only an id writes only its id', () => {
    expect(run([{ type: 'trace_node', id: 'n1' }])).toStrictEqual([node({ id: 't1/trace/n1' })])
  })

  it('a row carries every field it sends, its parent scoped, its unread fields as extra and its text delta', () => {
    const event = {
      type: 'trace_node', id: 'n1', parentId: 'p0', actor: { id: 'a1' }, kind: 'search', status: 'progress', label: 'Look',
      citations: [1], tool: 'search', detail: 'd', args: { a: 1 }, result: 'r', resultDetail: 'rd', confidence: 0.5, delta: 'x', note: 'kept',
    }
    expect(run([event])).toStrictEqual([node({
      id: 't1/trace/n1', parentId: 't1/trace/p0', actor: { id: 'a1' }, kind: 'search', status: 'progress', label: 'Look',
      citations: [1], tool: 'search', detail: 'd', args: { a: 1 }, result: 'r', resultDetail: 'rd', confidence: 0.5, extra: { note: 'kept' },
    }, { delta: 'x' })])
  })

  it('a row whose parent is a call the server drew into points at that call', () => {
    const events = [{ type: 'tool_start', tool: 'search' }, trace('n1', 'search'), { type: 'trace_node', id: 'n2', parentId: 'n1' }]
    expect(last(events)).toStrictEqual([node({ id: 't1/trace/n2', parentId: 't1/tool-1' })])
  })

  it('a status weft does not know is reported and left out', () => {
    expect(run([{ type: 'trace_node', id: 'n1', status: 'weird' }])).toStrictEqual([
      node({ id: 't1/trace/n1' }),
      problem('trace_node "n1" has an unknown status; the status was ignored', 'weird', 'invalid'),
    ])
  })

  it('a delta that is not text, or is empty, is no delta', () => {
    expect(run([{ type: 'trace_node', id: 'n1', delta: 5 }])).toStrictEqual([node({ id: 't1/trace/n1' })])
    expect(run([{ type: 'trace_node', id: 'n1', delta: '' }])).toStrictEqual([node({ id: 't1/trace/n1' })])
  })

  it('with both tenses known the label follows the status, and an update without a status or with an error keeps its own', () => {
    const d = decoder()
    expect(d.decode({ type: 'trace_node', id: 'n1', labels: SEARCH_LABELS, status: 'start', label: 'Look' }, {}))
      .toStrictEqual([node({ id: 't1/trace/n1', status: 'start', label: 'Searching' })])
    expect(d.decode({ type: 'trace_node', id: 'n1', detail: 'd' }, {})).toStrictEqual([node({ id: 't1/trace/n1', detail: 'd' })])
    expect(d.decode({ type: 'trace_node', id: 'n1', status: 'error' }, {})).toStrictEqual([node({ id: 't1/trace/n1', status: 'error' })])
    expect(d.decode({ type: 'trace_node', id: 'n1', status: 'done' }, {})).toStrictEqual([node({ id: 't1/trace/n1', status: 'done', label: 'Searched' })])
  })

  it('labels missing either tense are ignored', () => {
    expect(run([{ type: 'trace_node', id: 'n1', labels: { done: 'Searched' }, status: 'start', label: 'Look' }]))
      .toStrictEqual([node({ id: 't1/trace/n1', status: 'start', label: 'Look' })])
    expect(run([{ type: 'trace_node', id: 'n1', labels: { running: 'Searching' }, status: 'done', label: 'Look' }]))
      .toStrictEqual([node({ id: 't1/trace/n1', status: 'done', label: 'Look' })])
  })

  it('when the turn ends, rows still starting or in progress read past tense, and finished rows are left alone', () => {
    const events = [
      { type: 'trace_node', id: 'n1', labels: SEARCH_LABELS, status: 'start' },
      { type: 'trace_node', id: 'n1', status: 'done' },
      { type: 'trace_node', id: 'n2', labels: FETCH_LABELS, status: 'progress' },
      { type: 'trace_node', id: 'n3', labels: { running: 'Reading', done: 'Read' }, status: 'start' },
      { type: 'done' },
    ]
    expect(last(events)).toStrictEqual([
      node({ id: 't1/trace/n2', label: 'Fetched' }),
      node({ id: 't1/trace/n3', label: 'Read' }),
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })
})

describe('Vocion sub-agent lanes', () => {
  it('a subagent_start or subagent_end without a name is an invalid problem', () => {
    const start = { type: 'subagent_start' }
    const end = { type: 'subagent_end', name: '' }
    expect(run([start])).toStrictEqual([problem('subagent_start without a name', start, 'invalid')])
    expect(run([end])).toStrictEqual([problem('subagent_end without a name', end, 'invalid')])
  })

  it('a subagent_start opens a thread and a delegate row with the specialist as its actor', () => {
    expect(run([{ type: 'subagent_start', name: 'scout', focus: 'deals' }])).toStrictEqual([
      { op: 'thread.open', turnId: 't1', threadId: 't1/subagent-1', label: 'scout' },
      node({
        id: 't1/subagent-1', kind: 'delegate', label: 'Delegating to scout', status: 'start',
        actor: { id: 't1/subagent-1', kind: 'specialist', name: 'scout' }, extra: { focus: 'deals' },
      }),
    ])
  })

  it('a subagent_end for a name that never started names it in an end_before_start problem', () => {
    const event = { type: 'subagent_end', name: 'scout' }
    expect(run([event])).toStrictEqual([problem('subagent_end for "scout", which never started', event, 'end_before_start')])
  })
})

describe('Vocion search documents', () => {
  it('documents without a list is an invalid problem', () => {
    const event = { type: 'documents', documents: 'none' }
    expect(run([event])).toStrictEqual([problem('documents without a documents list', event, 'invalid')])
  })

  it('each document is a source; one without an id is reported, a citation index that is not a number is left out', () => {
    const bad = { link: 'https://a' }
    expect(run([{
      type: 'documents',
      documents: [bad, { document_id: 'd1', citationIndex: '2' }, { document_id: 'd2', link: 'https://b', semantic_identifier: 'B', blurb: 'b…', citationIndex: 1, source_type: 'web' }],
    }])).toStrictEqual([
      problem('a search document has no document_id', bad, 'invalid'),
      { op: 'source.add', turnId: 't1', source: { id: 'd1', kind: 'document' } },
      { op: 'source.add', turnId: 't1', source: { id: 'd2', kind: 'document', url: 'https://b', title: 'B', snippet: 'b…', citationIndex: 1, extra: { source_type: 'web' } } },
    ])
  })
})

describe('Vocion retrieval rows', () => {
  const retrieval = (id: string, label: string, status: 'progress' | 'done', detail: Ev = {}, more: Ev = {}): Op =>
    node({ id, kind: 'search', label, status, detail, ...more })

  it('one row per retrieval: a stage with none open opens one, started always does, complete closes it', () => {
    const events: Ev[] = [
      { stage: 'candidates', meta: { vector: 3 } },
      { stage: 'started' },
      {},
      { stage: 'fused', meta: { kept: 1 } },
      { stage: 'reranking', meta: {} },
      { stage: 'complete', meta: { hits: 2 }, took: 5 },
      { stage: 'candidates', meta: { keyword: 2, vector: 'x' } },
      { stage: 'fused', meta: { kept: 4 } },
      { stage: 'expanding' },
    ]
    expect(run(events.map((e) => ({ type: 'retrieval_progress', ...e })))).toStrictEqual([
      retrieval('t1/retrieval-1', 'Searching… · 3 candidates', 'progress', { vector: 3 }),
      retrieval('t1/retrieval-2', 'Searching…', 'progress'),
      retrieval('t1/retrieval-3', 'Searching…', 'progress'),
      retrieval('t1/retrieval-3', 'Searching… · kept 1 result', 'progress', { kept: 1 }),
      retrieval('t1/retrieval-3', 'Ranking', 'progress'),
      retrieval('t1/retrieval-3', 'Searched · 2 hits', 'done', { hits: 2 }, { extra: { took: 5 } }),
      retrieval('t1/retrieval-4', 'Searching… · 2 candidates', 'progress', { keyword: 2, vector: 'x' }),
      retrieval('t1/retrieval-4', 'Searching… · kept 4 results', 'progress', { kept: 4 }),
      retrieval('t1/retrieval-4', 'Searching… (expanding)', 'progress'),
    ])
  })
})

describe('Vocion skill results', () => {
  it('a skill_result without a skillResult is an invalid problem', () => {
    const event = { type: 'skill_result', skillResult: 'x' }
    expect(run([event])).toStrictEqual([problem('skill_result without a skillResult', event, 'invalid')])
  })

  it('a skill result is a finished skill row, by its run id when it has one', () => {
    const named = { runId: 'r1', skillName: 'Summarise', skillSlug: 'summarise', content: 'c' }
    const bare = { content: 'd' }
    expect(run([{ type: 'skill_result', skillResult: named, by: 'me' }, { type: 'skill_result', skillResult: bare }])).toStrictEqual([
      node({ id: 't1/skill-run-r1', kind: 'skill', label: 'Summarise', tool: 'summarise', status: 'done', result: 'c', detail: named, extra: { by: 'me' } }),
      node({ id: 't1/skill-1', kind: 'skill', label: 'Skill', tool: undefined, status: 'done', result: 'd', detail: bare }),
    ])
  })
})

describe('Vocion gates, recommended actions and data parts', () => {
  it('a hitl_gate without a gate name is an invalid problem', () => {
    const event = { type: 'hitl_gate', gate: { question: 'Send?' } }
    expect(run([event])).toStrictEqual([problem('hitl_gate without a gate name', event, 'invalid')])
  })

  it('a gate with only a name asks an empty question with an empty payload', () => {
    expect(run([{ type: 'hitl_gate', gate: { name: 'send' } }])).toStrictEqual([
      { op: 'gate.open', gate: { id: 't1/gate/send#1', turnId: 't1', kind: 'hitl', question: '', payload: {} } },
    ])
  })

  it('a recommended_action without a recommendation object is an invalid problem', () => {
    const event = { type: 'recommended_action', recommendation: 'call them' }
    expect(run([event])).toStrictEqual([problem('recommended_action without a recommendation', event, 'invalid')])
  })

  it('a recommended action is a finished message of its own type', () => {
    expect(run([{ type: 'recommended_action', recommendation: { title: 'Call' } }])).toStrictEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/action-1', type: 'recommended-action', role: 'assistant', status: 'done', props: { title: 'Call' } },
    ])
  })

  it('an artifact or a record without its payload object is an invalid problem', () => {
    const artifact = { type: 'artifact', artifact: 'x' }
    const record = { type: 'record_created' }
    expect(run([artifact])).toStrictEqual([problem('artifact without its payload', artifact, 'invalid')])
    expect(run([record])).toStrictEqual([problem('record_created without its payload', record, 'invalid')])
  })

  it('an artifact keeps one message by its id, one without an id gets its own; only pending: true marks it pending', () => {
    expect(run([
      { type: 'artifact', artifact: { id: 'a1', v: 1 }, pending: true },
      { type: 'artifact', artifact: { v: 2 }, pending: 'yes' },
    ])).toStrictEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/artifact-a1', role: 'assistant', status: 'done', type: 'data-artifact', props: { data: { id: 'a1', v: 1 }, pending: true } },
      { op: 'message.put', turnId: 't1', messageId: 't1/artifact-1', role: 'assistant', status: 'done', type: 'data-artifact', props: { data: { v: 2 } } },
    ])
  })

  it('a record gets a message of its own whatever its id, with its unread fields as extra', () => {
    expect(run([{ type: 'record_created', record: { id: 'r9' }, pending: false, origin: 'crm' }])).toStrictEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/record-1', role: 'assistant', status: 'done', type: 'data-record', props: { data: { id: 'r9' }, extra: { origin: 'crm' } } },
    ])
  })
})
