import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src/core/store/store'
import { useCitations, useGate, useHeadline, useSources, useTraceNode, useTraceSummary } from '../../src/react/index'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(() => cleanup())

function Probe() {
  const headline = useHeadline('t')
  const summary = useTraceSummary('t')
  const sources = useSources('t')
  const [cited] = useCitations('t', [2])
  const gate = useGate('g1')
  const node = useTraceNode('n2')
  return (
    <pre data-testid="probe">
      {JSON.stringify({ headline: headline?.label ?? null, summary, sources: sources.length, cited: cited?.title ?? null, gate: gate?.status ?? null, node: node?.label ?? null })}
    </pre>
  )
}

const read = () => JSON.parse(screen.getByTestId('probe').textContent!)

describe('timeline hooks', () => {
  it('follow the turn from its first row to its summary', () => {
    const store = createAgentStore()
    render(<AgentProvider store={store}><Probe /></AgentProvider>)
    act(() => store.getState().dispatch([
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'trace.node', turnId: 't', node: { id: 'n1', kind: 'reason', label: 'Thinking', status: 'progress' } },
      { op: 'trace.node', turnId: 't', node: { id: 'n2', kind: 'search', label: 'Searching…', status: 'start' } },
      { op: 'source.add', turnId: 't', source: { id: 's1', kind: 'url', url: 'https://a.example', title: 'A', citationIndex: 1 } },
      { op: 'source.add', turnId: 't', source: { id: 's2', kind: 'url', url: 'https://b.example', title: 'B', citationIndex: 2 } },
      { op: 'gate.open', gate: { id: 'g1', turnId: 't', kind: 'hitl', question: 'Send?', payload: {} } },
    ]))
    expect(read()).toMatchObject({ headline: 'Searching…', sources: 2, cited: 'B', gate: 'pending', node: 'Searching…' })
    act(() => store.getState().dispatch([
      { op: 'gate.resolve', gateId: 'g1', status: 'approved' },
      { op: 'trace.node', turnId: 't', node: { id: 'n2', label: 'Searched', status: 'done' } },
      { op: 'turn.finish', turnId: 't', status: 'done' },
    ]))
    expect(read()).toEqual({ headline: null, summary: { stepCount: 1, sourceCount: 2 }, sources: 2, cited: 'B', gate: 'approved', node: 'Searched' })
  })
})
