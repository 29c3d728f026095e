import { describe, expect, it } from 'vitest'
import { encodeFrame, type Scenario } from '../../../mock/scenario'
import { findScenario } from '../../../mock/scenarios/index'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState } from '../../../src/core/model/model'
import {
  selectCitation, selectGates, selectTraceSummary, selectTraceTree, selectTurn, selectTurnMessages,
} from '../../../src/core/store/selectors'

/** Folds a scenario exactly as it goes over the wire, letting detection pick the protocol. */
function play(name: string): AgentState {
  const scenario = findScenario('vocion', name) as Scenario
  expect(scenario, `scenario ${name}`).toBeDefined()
  return foldStream(scenario.frames.map((f) => encodeFrame(f)).join(''))
}

describe('vocion scenarios', () => {
  it('answer: a grounded answer with a nested timeline, cited sources and a stored recommendation', () => {
    const state = play('answer')
    const turn = selectTurn(state, 'turn-1')!
    expect(turn).toMatchObject({ protocol: 'vocion', status: 'done', problems: [], metadata: { traceId: 'trace-answer-1' } })
    expect(state.cursor.streamId).toBe('stream-answer-1')

    const messages = selectTurnMessages(state, 'turn-1')
    expect(messages.map((m) => m.type)).toEqual(['reasoning', 'tool', 'text', 'recommended-action'])
    const text = messages.find((m) => m.type === 'text')!.props.content as string
    expect(text).toMatch(/^Contoso renews on 30 September \[1\]\./)
    expect(selectCitation(state, 'turn-1', 1)?.url).toBe('https://crm.example.com/deals/contoso')
    expect(selectCitation(state, 'turn-1', 2)?.title).toBe('Call with Nadia Brandt, 12 Sep')
    expect(messages.find((m) => m.type === 'recommended-action')!.props).toMatchObject({ actionId: 'gmail.send' })

    // The specialist's search arrived before its delegation and now sits under it.
    const tree = selectTraceTree(state, 'turn-1')
    expect(tree.map((item) => item.node.kind)).toEqual(['reason', 'delegate', 'search', 'tool'])
    const delegate = tree[1]!
    expect(delegate.children.map((c) => c.node.label)).toEqual(['Searched call notes'])
    expect(delegate.children[0]!.node.detail).toBe('"Contoso renewal"')
    expect(selectTraceSummary(state, 'turn-1')).toEqual({ stepCount: 3, sourceCount: 2 })
  })

  it('tool-error: the failed call reads as a failure, not a clean answer', () => {
    const state = play('tool-error')
    const tool = selectTurnMessages(state, 'turn-1').find((m) => m.type === 'tool')!
    expect(tool.status).toBe('error')
    expect(tool.props).toMatchObject({ state: 'output-error', errorText: 'The tool endpoint could not be reached', httpStatus: 502 })
    const rows = selectTraceTree(state, 'turn-1')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.node).toMatchObject({ label: 'Checking billing', status: 'error' })
    expect(rows[0]!.node.text).toContain('could not be reached')
  })

  it('hitl: the turn leaves a pending gate for a person to answer', () => {
    const state = play('hitl')
    const gates = selectGates(state, 'turn-1')
    expect(gates).toEqual([expect.objectContaining({
      kind: 'hitl', status: 'pending', question: 'Send this email to Nadia Brandt?',
      payload: { to: 'nadia@contoso.example', subject: 'Your renewal terms', body: 'Hi Nadia, …' },
    })])
    expect(selectTraceTree(state, 'turn-1')[0]!.node).toMatchObject({ label: 'Prepared the email', status: 'done' })
  })
})
