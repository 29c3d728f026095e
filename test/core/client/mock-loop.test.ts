/**
 * The mock agent's conversation loop (`POST /mock/loop/:protocol`), which the
 * stories use: for each protocol, the requests weft builds get answers that
 * demonstrate approve → continue, a client tool, regenerate, edit and a branch switch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectBranch } from '../../../src/core/store/branches'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import { createAgentStore } from '../../../src/core/store/store'
import { startServer, type TestServer } from '../../helpers/server'
import { messageIn } from '../../../src/core/model/message-table'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(() => srv.close())

const answerText = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

function setup(protocol: ProtocolName) {
  const store = createAgentStore()
  const client = new AgentClient(store, {
    url: `${srv.url}/mock/loop/${protocol}`, protocol,
    tools: { getLocation: { description: 'The user\'s city', execute: async () => ({ city: 'Lyon' }) } },
  })
  return { store, client }
}

describe.each(['ui-message', 'ag-ui'] as const)('mock loop, %s: gates and client tools', (protocol) => {
  it('approve → continue', async () => {
    const { store, client } = setup(protocol)
    await client.send('please delete the Q3 report')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate.status).toBe('pending')
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('approved')
    expect(answerText(s, s.turnIds[1]!)).toContain('Done: the report is deleted.')
  })

  it('a client tool runs and the answer goes on', async () => {
    const { store, client } = setup(protocol)
    await client.send('where am I?')
    const s = store.getState()
    expect(answerText(s, s.turnIds[1]!)).toBe('You are in Lyon.')
  })
})

describe('mock loop, vocion: a hitl_gate answered through the host', () => {
  it.each([
    [{ approved: true }, 'approved', 'Done: the report is deleted.'],
    [{ approved: false, reason: 'audit' }, 'rejected', 'Kept the report (audit).'],
  ] as const)('%j → the rest of the turn from the gate\'s resumeUrl', async (response, status, said) => {
    const store = createAgentStore()
    const sent: unknown[] = []
    const client = new AgentClient(store, {
      url: `${srv.url}/mock/loop/vocion`, protocol: 'vocion',
      // The host allows its own server's resumeUrl and posts the answer there.
      continueGate: async (gate, answer) => {
        sent.push(answer)
        return { url: `${srv.url}${gate.url}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) }
      },
    })
    await client.send('please delete the Q3 report')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ kind: 'hitl', status: 'pending', url: '/mock/loop/vocion/resume', question: 'Delete /reports/q3.pdf?' })
    expect(await client.answer(gate.id, response)).toEqual({ ok: true })
    expect(sent).toEqual([response])
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe(status)
    expect(s.turnIds).toHaveLength(2)
    expect(answerText(s, s.turnIds[1]!)).toBe(`I can delete /reports/q3.pdf.${said}`)
    expect(s.status).toBe('done')
  })
})

describe.each(['ui-message', 'ag-ui', 'yao', 'vocion'] as const)('mock loop, %s: regenerate, edit, branches', (protocol) => {
  it('regenerate makes a sibling, edit a new branch, and selectBranch switches back', async () => {
    const { store, client } = setup(protocol)
    await client.send('hello')
    const first = store.getState().turnIds
    const firstAnswer = answerText(store.getState(), first[1]!)
    expect(firstAnswer).toMatch(/^Answer #\d+ to “hello”\.$/)
    await client.regenerate()
    let s = store.getState()
    expect(selectBranch(s, s.turnIds[1]!)).toMatchObject({ index: 1, count: 2 })
    expect(answerText(s, s.turnIds[1]!)).not.toBe(firstAnswer)
    await client.edit(first[0]!, 'hi there')
    s = store.getState()
    expect(answerText(s, s.turnIds[1]!)).toMatch(/to “hi there”/)
    expect(selectBranch(s, s.turnIds[0]!)).toMatchObject({ index: 1, count: 2 })
    client.selectBranch(s.turnIds[0]!, 0)
    s = store.getState()
    expect(s.turnIds[0]).toBe(first[0])
    expect(s.status).not.toBe('error')
  })
})
