/**
 * The Vocion rail's own trace reducer, as its protocol document states it, field by
 * field: `delta` appends; every other field is latest-wins, with an absent field
 * meaning "keep"; a `tool_error` closes the row of the failed call; the turn's end
 * closes whatever is still running. Where weft differs on purpose (a `null` where the
 * contract has a required string or object), docs/vocion.md says why.
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState, TraceNode } from '../../../src/core/model/model'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { timeline } from '../../helpers/timeline'

type Event = Record<string, unknown>
const TURN = 'turn-1'

const run = (events: readonly Event[]): AgentState => foldStream(events, { protocol: 'vocion' })
const rows = (state: AgentState): TraceNode[] => timeline(state).filter((n) => n.turnId === TURN)
const rowOf = (state: AgentState, wireId: string): TraceNode => rows(state).find((n) => n.id.endsWith(`trace/${wireId}`))!
// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const codes = (state: AgentState) => state.turns[TURN]!.problems.map((p) => p.code).filter((code) => code !== STREAM_TRUNCATED)

const actor = { id: 'lead', kind: 'lead', name: 'Revenue Lead' }
const start: Event = {
  type: 'trace_node', id: 'n1', actor, kind: 'search', status: 'start', label: 'Searching the CRM',
  detail: 'accounts in EMEA', args: { region: 'EMEA' }, tool: 'crm_search', confidence: 0.4,
  citations: [{ documentId: 'd1' }],
}

describe('trace_node: absent keeps, present wins', () => {
  it('a done event carrying only its status and result keeps every field the start set', () => {
    const state = run([start, { type: 'trace_node', id: 'n1', status: 'done', result: { hits: 3 } }])
    expect(rowOf(state, 'n1')).toMatchObject({
      status: 'done', label: 'Searching the CRM', kind: 'search', actor, detail: 'accounts in EMEA', args: { region: 'EMEA' },
      tool: 'crm_search', confidence: 0.4, citations: [{ documentId: 'd1' }], result: { hits: 3 },
    })
    expect(codes(state)).toEqual([])
  })

  it('a present field replaces the earlier value, whatever it was (latest wins)', () => {
    const state = run([
      start,
      {
        type: 'trace_node', id: 'n1', status: 'error', label: 'Searching EMEA accounts', detail: 'page 2', args: { region: 'EMEA', page: 2 },
        confidence: 0.9, citations: [{ documentId: 'd2' }], kind: 'tool',
      },
    ])
    expect(rowOf(state, 'n1')).toMatchObject({
      status: 'error', label: 'Searching EMEA accounts', detail: 'page 2', args: { region: 'EMEA', page: 2 },
      confidence: 0.9, citations: [{ documentId: 'd2' }], kind: 'tool',
    })
  })

  it('null in the free-form fields (detail, args, result, resultDetail) keeps the earlier value, as the reducer’s `??` does', () => {
    const state = run([
      { ...start, result: { hits: 1 }, resultDetail: 'one hit' },
      { type: 'trace_node', id: 'n1', status: 'done', detail: null, args: null, result: null, resultDetail: null },
    ])
    const row = rowOf(state, 'n1')
    expect([row.detail, row.args, row.result, row.resultDetail]).toEqual(['accounts in EMEA', { region: 'EMEA' }, { hits: 1 }, 'one hit'])
    expect(codes(state)).toEqual([])
  })

  it('null where the contract has a required string or object (label, kind, actor, status) keeps the earlier value', () => {
    const state = run([start, { type: 'trace_node', id: 'n1', status: 'done', label: null, kind: null, actor: null, citations: null, confidence: null }])
    expect(rowOf(state, 'n1')).toMatchObject({ status: 'done', label: 'Searching the CRM', kind: 'search', actor, citations: [{ documentId: 'd1' }], confidence: 0.4 })
    // An error row, so the end of the turn leaves its status as it is.
    const nullStatus = run([{ ...start, status: 'error' }, { type: 'trace_node', id: 'n1', status: null }])
    expect(rowOf(nullStatus, 'n1').status).toBe('error')
    expect(codes(nullStatus)).toEqual(['invalid'])
  })

  it('delta appends to the row’s text, across events', () => {
    const state = run([
      { ...start, delta: 'Looking at ' },
      { type: 'trace_node', id: 'n1', delta: 'EMEA.' },
    ])
    expect(rowOf(state, 'n1').text).toBe('Looking at EMEA.')
  })

  it('the end of the turn closes the rows still running (finalizeTrace), and the finished ones stay as they are', () => {
    const state = run([
      start,
      { type: 'trace_node', id: 'n2', actor, kind: 'draft', status: 'done', label: 'Drafted' },
      { type: 'done', response: 'Done.' },
    ])
    expect(rows(state).map((n) => [n.label, n.status])).toEqual([['Searching the CRM', 'done'], ['Drafted', 'done']])
  })
})

describe('tool_error finds its row', () => {
  it('the row the server drew for the failing call (failToolNode), with the error as its text', () => {
    const state = run([
      { type: 'trace_node', id: 'b1', actor, kind: 'tool', status: 'start', label: 'Checking billing', tool: 'lookup_invoice' },
      { type: 'tool_start', tool: 'lookup_invoice', input: { invoice: 'INV-1' } },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'The endpoint could not be reached', status: 502 },
    ])
    expect(rows(state).map((n) => ({ label: n.label, status: n.status }))).toEqual([{ label: 'Checking billing', status: 'error' }])
    expect(rowOf(state, 'b1').text).toContain('The endpoint could not be reached')
  })

  it('a row that names the tool only in its label is found by it, as failToolNode matches the label', () => {
    const state = run([
      { type: 'trace_node', id: 'b1', actor, kind: 'tool', status: 'start', label: 'Lookup invoice INV-1' },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'Timed out' },
    ])
    expect(rows(state).map((n) => [n.label, n.status])).toEqual([['Lookup invoice INV-1', 'error']])
  })

  it('without a tool_start, the latest open row of that tool fails; earlier finished rows of the tool are left alone', () => {
    const state = run([
      { type: 'trace_node', id: 'b1', actor, kind: 'tool', status: 'done', label: 'Checked billing', tool: 'lookup_invoice' },
      { type: 'trace_node', id: 'b2', actor, kind: 'tool', status: 'start', label: 'Checking billing again', tool: 'lookup_invoice' },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'Timed out' },
    ])
    expect(rows(state).map((n) => [n.label, n.status])).toEqual([['Checked billing', 'done'], ['Checking billing again', 'error']])
  })

  it('with no row to close, a row of its own shows the error: a thrown tool is never silent', () => {
    const state = run([{ type: 'tool_error', tool: 'lookup_invoice', message: 'Timed out' }])
    const [row] = rows(state)
    expect(row).toMatchObject({ status: 'error', tool: 'lookup_invoice' })
    expect(row!.text).toContain('Timed out')
  })
})
