/**
 * A Vocion `hitl_gate` names a `resumeUrl`: the kit never calls it on its own.
 * The answer goes through the host's `continueGate`, which may hand back a
 * request whose stream finishes the turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { Gate } from '../../../src/core/model/model'
import { createAgentStore } from '../../../src/core/store/store'
import { startServer, type TestServer } from '../../helpers/server'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(() => srv.close())

describe('Vocion gates', () => {
  it('without continueGate the answer is refused and nothing changes; with it, the host decides where it goes', async () => {
    const store = createAgentStore()
    const url = `${srv.url}/mock/stream/vocion/hitl`
    await new AgentClient(store, { url, protocol: 'vocion' }).send('email Nadia')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ kind: 'hitl', status: 'pending', url: 'https://app.example.com/runs/42' })
    const before = srv.requests.length
    const refused = await new AgentClient(store, { url, protocol: 'vocion' }).answer(gate.id, { approved: true })
    expect(refused).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(store.getState().gates[gate.id]!.status).toBe('pending')
    expect(srv.requests.length).toBe(before)

    const seen: Array<[Gate, unknown]> = []
    const client = new AgentClient(store, {
      url, protocol: 'vocion',
      continueGate: async (g, response) => {
        seen.push([g, response])
        // The host's own endpoint, not the server's resumeUrl.
        return { url: `${srv.url}/mock/stream/vocion/answer`, method: 'GET' }
      },
    })
    expect(await client.answer(gate.id, { approved: 'yes' })).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(await client.answer(gate.id, { approved: false })).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(seen.map(([g, r]) => [g.url, r])).toEqual([['https://app.example.com/runs/42', { approved: true }]])
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('approved')
    expect(s.status).toBe('done')
    expect(srv.requests.at(-1)!.path).toBe('/mock/stream/vocion/answer')
  })
})
