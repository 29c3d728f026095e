/**
 * One work timeline, four sources: each protocol's work (Yao blocks and tool
 * calls; UI stream steps, tools and thinking steps; AG-UI steps, tool calls and
 * sub-agents; Vocion trace nodes) lands in the same trace model, folded by the
 * same rules, read by the same selectors.
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../src/core/fold-stream'
import { fold } from '../../src/core/fold/fold'
import { emptyState } from '../../src/core/model'
import { FrameDecoder } from '../../src/core/pipeline'
import type { AgentState, ProtocolName, TraceNode } from '../../src/core/model'
import { selectHeadline, selectTraceList, selectTraceSummary, selectTraceTree } from '../../src/core/selectors'
import { encodeFrame } from '../../mock/scenario'
import { findScenario } from '../../mock/scenarios/index'

function foldScenario(protocol: ProtocolName, name: string): AgentState {
  const scenario = findScenario(protocol, name)!
  return foldStream(scenario.frames.map((f) => encodeFrame(f)).join(''), { protocol })
}

/** Every prefix of a scenario folded without ending the stream: the turn still running. */
function runningPrefixes(protocol: ProtocolName, name: string): AgentState[] {
  const scenario = findScenario(protocol, name)!
  const frames = scenario.frames.filter((f) => f.data !== undefined && f.data !== '[DONE]')
  const reader = new FrameDecoder({ turnId: 'turn-1', protocol })
  let state = fold(emptyState(), [{ op: 'turn.open', turnId: 'turn-1', role: 'assistant' }])
  const out: AgentState[] = []
  for (const frame of frames) {
    state = fold(state, reader.frame({ data: typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data), event: frame.event, id: frame.id }))
    if (state.turns['turn-1']!.status === 'streaming') out.push(state)
  }
  return out
}

const rows = (state: AgentState): TraceNode[] => selectTraceList(state, 'turn-1') as TraceNode[]

const cases: Array<[ProtocolName, string, (nodes: TraceNode[]) => void]> = [
  ['yao', 'one-block', (nodes) => {
    expect(nodes.map((n) => n.kind)).toEqual(['llm', 'tool'])
    expect(nodes[1]).toMatchObject({ tool: 'get_weather', args: { city: 'Paris', unit: 'celsius' } })
  }],
  ['yao', 'sequential-blocks', (nodes) => {
    expect(nodes.map((n) => n.label)).toEqual(['Planning', 'weather.forecast', 'Answer'])
  }],
  ['ui-message', 'tools', (nodes) => {
    expect(nodes.some((n) => n.kind === 'tool' && n.tool === 'search_knowledge_base')).toBe(true)
    expect(nodes.filter((n) => n.kind === 'thinking').map((n) => n.status)).toEqual(['done', 'done'])
  }],
  ['ui-message', 'reasoning', (nodes) => {
    expect(nodes.some((n) => n.kind === 'reason')).toBe(true)
  }],
  ['ag-ui', 'run', (nodes) => {
    expect(nodes.some((n) => n.kind === 'step')).toBe(true)
    expect(nodes.filter((n) => n.kind === 'tool').length).toBeGreaterThanOrEqual(2)
  }],
  ['ag-ui', 'subagents', (nodes) => {
    expect(nodes.filter((n) => n.kind === 'delegate').length).toBe(2)
  }],
  ['vocion', 'answer', (nodes) => {
    expect(nodes.length).toBeGreaterThanOrEqual(3)
    expect(nodes.some((n) => n.parentId !== undefined)).toBe(true)
  }],
  ['vocion', 'tool-error', (nodes) => {
    expect(nodes.some((n) => n.kind === 'tool' && n.status === 'error' && n.text.length > 0)).toBe(true)
  }],
]

describe('one timeline for all four protocols', () => {
  it.each(cases)('%s/%s feeds the timeline', (protocol, name, check) => {
    const state = foldScenario(protocol, name)
    const nodes = rows(state)
    expect(nodes.length).toBeGreaterThan(0)
    check(nodes)
    // When a turn ends, no row is left running.
    expect(nodes.filter((n) => n.status === 'start' || n.status === 'progress')).toEqual([])
    // The tree and the flat list agree, and every child names its parent.
    const flat: string[] = []
    const walk = (items: ReturnType<typeof selectTraceTree>) => items.forEach((i) => { flat.push(i.node.id); walk(i.children) })
    walk(selectTraceTree(state, 'turn-1'))
    expect(flat).toEqual(nodes.map((n) => n.id))
    for (const node of nodes) for (const child of node.childIds) expect(state.trace[child]!.parentId).toBe(node.id)
    // After the turn: no headline, a step count and a source count.
    expect(selectHeadline(state, 'turn-1')).toBeUndefined()
    const summary = selectTraceSummary(state, 'turn-1')
    expect(summary.stepCount).toBeGreaterThan(0)
    expect(summary.sourceCount).toBe(state.turns['turn-1']!.sources.length || summary.sourceCount)
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
