/**
 * One work timeline, four sources: each protocol's work (Yao blocks and tool
 * calls; UI stream steps, tools and thinking steps; AG-UI steps, tool calls and
 * sub-agents; Vocion trace nodes) lands in the same trace model, folded by the
 * same rules, read by the same selectors.
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder'
import { builtInProtocols } from '../../../src/protocols/index'
import type { AgentState, ProtocolName, TraceNode } from '../../../src/core/model/model'
import { selectHeadline, selectTraceList, selectTraceSummary, selectTraceTree } from '../../../src/core/store/selectors'
import { encodeFrame } from '../../../mock/scenario'
import { findScenario } from '../../../mock/scenarios/index'
import { traceRecord } from '../../../src/core/model/trace-table'

function foldScenario(protocol: ProtocolName, name: string): AgentState {
  const scenario = findScenario(protocol, name)!
  return foldStream(scenario.frames.map((f) => encodeFrame(f)).join(''), { protocol })
}

/** Every prefix of a scenario folded without ending the stream: the turn still running. */
function runningPrefixes(protocol: ProtocolName, name: string): AgentState[] {
  const scenario = findScenario(protocol, name)!
  const frames = scenario.frames.filter((f) => f.data !== undefined && f.data !== '[DONE]')
  const reader = new FrameDecoder({ turnId: 'turn-1', protocol, protocols: builtInProtocols })
  let state = fold(emptyState(), [{ op: 'turn.open', turnId: 'turn-1', role: 'assistant' }])
  const out: AgentState[] = []
  for (const frame of frames) {
    state = fold(state, reader.frame({ data: typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data), event: frame.event, id: frame.id }))
    if (state.turns['turn-1']!.status === 'streaming') out.push(state)
  }
  return out
}

const rows = (state: AgentState): TraceNode[] => selectTraceList(state, 'turn-1') as TraceNode[]

/** Each row as [kind, label, status, parent row id or null]. */
const shape = (nodes: TraceNode[]) => nodes.map((n) => [n.kind, n.label, n.status, n.parentId ?? null])

const cases: Array<[ProtocolName, string, (nodes: TraceNode[]) => void, number]> = [
  ['yao', 'one-block', (nodes) => {
    expect(shape(nodes)).toEqual([['llm', 'Answering the question', 'done', null], ['tool', 'get_weather', 'done', null]])
    expect(nodes[1]).toMatchObject({ tool: 'get_weather', args: { city: 'Paris', unit: 'celsius' } })
  }, 0],
  ['yao', 'sequential-blocks', (nodes) => {
    expect(shape(nodes)).toEqual([['llm', 'Planning', 'done', null], ['mcp', 'weather.forecast', 'done', null], ['llm', 'Answer', 'done', null]])
  }, 0],
  ['ui-message', 'tools', (nodes) => {
    expect(shape(nodes)).toEqual([
      ['step', 'Step 1', 'done', null],
      ['thinking', '正在理解您的请求', 'done', 'turn-1/step:1'],
      ['thinking', 'Searching knowledge base', 'done', 'turn-1/step:1'],
      ['tool', 'search_knowledge_base', 'done', 'turn-1/step:1'],
    ])
    expect(nodes[3]!.tool).toBe('search_knowledge_base')
  }, 0],
  ['ui-message', 'reasoning', (nodes) => {
    expect(shape(nodes)).toEqual([['step', 'Step 1', 'done', null], ['reason', 'Reasoning', 'done', 'turn-1/step:1']])
  }, 0],
  ['ag-ui', 'run', (nodes) => {
    expect(shape(nodes)).toEqual([
      ['step', 'plan', 'done', null],
      ['step', 'act', 'done', null],
      ['tool', 'calendar.search', 'done', 'turn-1/step-2'],
      ['tool', 'todo.create', 'done', 'turn-1/step-2'],
    ])
  }, 0],
  ['ag-ui', 'subagents', (nodes) => {
    expect(shape(nodes)).toEqual([
      ['reason', 'Reasoning', 'done', null],
      ['step', 'research', 'done', null],
      ['delegate', 'web-researcher', 'done', 'turn-1/step-1'],
      ['tool', 'web.search', 'done', 'delegate:sub_web'],
      ['delegate', 'docs-reader', 'error', 'turn-1/step-1'],
    ])
    expect(nodes[4]!.text).toBe('The handbook is not reachable')
  }, 0],
  ['vocion', 'answer', (nodes) => {
    expect(shape(nodes)).toEqual([
      ['reason', 'Thought through it', 'done', null],
      ['delegate', 'Pipeline Analyst finished', 'done', null],
      ['search', 'Searched call notes', 'done', 'turn-1/trace/task-7'],
      ['search', 'Searched · 2 hits', 'done', null],
      ['tool', 'lookup_objects', 'done', null],
    ])
    expect(nodes[0]!.text).toBe('Search the CRM and the call notes.')
  }, 2],
  ['vocion', 'tool-error', (nodes) => {
    expect(shape(nodes)).toEqual([['tool', 'Checking billing', 'error', null]])
    expect(nodes[0]).toMatchObject({ tool: 'lookup_invoice', text: 'The tool endpoint could not be reached' })
  }, 0],
]

describe('one timeline for all four protocols', () => {
  it.each(cases)('%s/%s feeds the timeline', (protocol, name, check, sources) => {
    const state = foldScenario(protocol, name)
    const nodes = rows(state)
    check(nodes)
    // When a turn ends, no row is left running.
    expect(nodes.filter((n) => n.status === 'start' || n.status === 'progress')).toEqual([])
    // The tree and the flat list agree, and every child names its parent.
    const flat: string[] = []
    const walk = (items: ReturnType<typeof selectTraceTree>) => items.forEach((i) => { flat.push(i.node.id); walk(i.children) })
    walk(selectTraceTree(state, 'turn-1'))
    expect(flat).toEqual(nodes.map((n) => n.id))
    for (const node of nodes) for (const child of node.childIds) expect(traceRecord(state.trace)[child]!.parentId).toBe(node.id)
    // After the turn: no headline, a step count and a source count.
    expect(selectHeadline(state, 'turn-1')).toBeUndefined()
    const summary = selectTraceSummary(state, 'turn-1')
    expect(summary.stepCount).toBe(nodes.filter((n) => n.parentId === undefined && n.kind !== 'reason').length)
    expect(state.turns['turn-1']!.sources).toHaveLength(sources)
    expect(summary.sourceCount).toBe(sources)
  })

  it.each([['yao', 'one-block'], ['ui-message', 'tools'], ['ag-ui', 'run'], ['vocion', 'answer']] as const)(
    '%s/%s: while the turn runs, the headline is the first unfinished row that is not reasoning',
    (protocol, name) => {
      let shown = 0
      for (const state of runningPrefixes(protocol, name)) {
        const expected = rows(state).find((n) => (n.status === 'start' || n.status === 'progress') && n.kind !== 'reason')
        expect(selectHeadline(state, 'turn-1')?.id).toBe(expected?.id)
        if (expected) shown += 1
      }
      expect(shown).toBeGreaterThan(0)
    },
  )
})

describe('a row\'s extra', () => {
  it('merges across the ops that write the row, where every other field is latest-wins', () => {
    const s = fold(emptyState(), [
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searching', status: 'start', extra: { source: { id: 'a', rank: 1 }, region: 'eu' } } },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searched', status: 'done', extra: { source: { rank: 2 } } } },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', extra: JSON.parse('{"__proto__":{"polluted":true},"late":[1]}') } },
    ])
    expect(traceRecord(s.trace).n1).toMatchObject({ label: 'Searched', status: 'done', extra: { source: { id: 'a', rank: 2 }, region: 'eu', late: [1] } })
    expect(Object.getPrototypeOf(traceRecord(s.trace).n1!.extra)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('a row written without extra has none', () => {
    const s = fold(emptyState(), [{ op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Step' } }])
    expect(traceRecord(s.trace).n1).not.toHaveProperty('extra')
  })
})
