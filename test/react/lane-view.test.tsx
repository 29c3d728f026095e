/**
 * The lane view state is the person's, not the conversation's: choosing how a
 * lane shows changes nothing in the agent store (so nothing is saved or sent),
 * and each store has its own.
 */
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { SubAgentLane } from '../../src/components/lane'
import { useLaneView } from '../../src/components/lane-view'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore, snapshot } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(() => cleanup())

const ops: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'thread.open', turnId: 't1', threadId: 'lane', label: 'researcher' },
]

function Probe({ id }: { id: string }) {
  const lane = useLaneView('lane')
  return (
    <>
      <output data-testid={id}>{lane.state}</output>
      <button onClick={lane.hide}>hide {id}</button>
      <button onClick={lane.focus}>focus {id}</button>
      <button onClick={lane.collapse}>collapse {id}</button>
    </>
  )
}

describe('the lane view state', () => {
  it('stays out of the agent store, and is one per store', () => {
    const a = createAgentStore()
    const b = createAgentStore()
    a.getState().dispatch(ops)
    b.getState().dispatch(ops)
    const before = JSON.stringify(snapshot(a.getState()))
    render(
      <>
        <AgentProvider store={a}><Probe id="a" /><SubAgentLane.Header threadId="lane" /></AgentProvider>
        <AgentProvider store={b}><Probe id="b" /></AgentProvider>
      </>,
    )
    expect(screen.getByTestId('a').textContent).toBe('open')
    act(() => screen.getByText('collapse a').click())
    expect(screen.getByTestId('a').textContent).toBe('collapsed')
    expect(document.querySelector('[data-weft="lane-header"]')!.getAttribute('data-state')).toBe('collapsed')
    act(() => screen.getByText('focus a').click())
    expect(screen.getByTestId('a').textContent).toBe('focused')
    act(() => screen.getByText('hide a').click())
    expect(screen.getByTestId('a').textContent).toBe('hidden')
    expect(screen.getByTestId('b').textContent).toBe('open')
    expect(JSON.stringify(snapshot(a.getState()))).toBe(before)
    // A lane that finishes keeps the person's choice.
    act(() => a.getState().dispatch([{ op: 'thread.close', threadId: 'lane', status: 'done' }]))
    act(() => b.getState().dispatch([{ op: 'thread.close', threadId: 'lane', status: 'done' }]))
    expect(screen.getByTestId('a').textContent).toBe('hidden')
    expect(screen.getByTestId('b').textContent).toBe('collapsed')
  })
})
