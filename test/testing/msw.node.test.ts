/**
 * The MSW handlers under `setupServer`: the client's real `fetch` is intercepted,
 * and what it folds is what the fixture folds to.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { memoryStorage } from 'weft/core'
import { fixtures } from 'weft/testing'
import { agentHandlers, fixtureHandlers } from 'weft/testing/msw'
import { content, referenceFold, runClient } from './support'

const server = setupServer(...fixtureHandlers({ prefix: 'http://agent.test/mock' }))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('agentHandlers', () => {
  it('streams a shipped scenario to a client that uses the global fetch', async () => {
    server.use(...agentHandlers({ url: 'http://agent.test/api/chat', protocol: 'ui-message', scenario: 'reasoning', chunking: 'random', seed: 9 }))
    const state = await runClient({ url: 'http://agent.test/api/chat', protocol: 'ui-message' })
    expect(state.status).toBe('done')
    expect(content(state)).toEqual(content(referenceFold(fixtures['ui-message'].reasoning!), 'turn-1'))
  })

  it('streams bare events, a host fixture, a cut and an error status', async () => {
    server.use(...agentHandlers({ url: 'http://agent.test/a', protocol: 'vocion', events: [{ type: 'response_delta', delta: 'Hi' }, { type: 'done' }] }))
    const events = await runClient({ url: 'http://agent.test/a' })
    expect(Object.values(events.messages).map((m) => m.props.content)).toEqual(['Hi'])

    server.use(...agentHandlers({ url: 'http://agent.test/b', scenario: fixtures.yao['simple-text']!, cutAt: 1 }))
    const cut = await runClient({ url: 'http://agent.test/b' })
    expect(cut.error?.type).toBe('network')

    server.use(...agentHandlers({ url: 'http://agent.test/c', scenario: 'plain', status: 429 }))
    const limited = await runClient({ url: 'http://agent.test/c' })
    expect(limited.error?.status).toBe(429)
  })

  it('an unknown scenario name fails when the handlers are made, naming the choices', () => {
    expect(() => agentHandlers({ url: '/x', protocol: 'ag-ui', scenario: 'nope' })).toThrow(/ag-ui has: .*interrupt/)
  })
})

describe('fixtureHandlers', () => {
  it('resumes a cut Vocion stream through its resume route, ending in the uninterrupted fold', async () => {
    const state = await runClient({
      url: 'http://agent.test/mock/stream/vocion/answer?cut=7',
      protocol: 'vocion',
      resume: { strategy: 'vocion', conversationKey: 'msw-resume', resumeUrl: 'http://agent.test/mock/resume/vocion/answer', storage: memoryStorage(), backoff: { baseMs: 1, maxMs: 5 } },
    })
    expect(state.status).toBe('done')
    expect(content(state)).toEqual(content(referenceFold(fixtures.vocion.answer!), 'turn-1'))
    expect((await fetch('http://agent.test/mock/resume/vocion/answer?id=other')).status).toBe(404)
  })

  it('lists every fixture and streams each by URL with the mock server’s query options', async () => {
    const list = (await (await fetch('http://agent.test/mock/scenarios')).json()) as Array<{ protocol: string; name: string; url: string }>
    expect(list.length).toBe(Object.values(fixtures).reduce((n, byName) => n + Object.keys(byName).length, 0))
    const state = await runClient({ url: 'http://agent.test/mock/stream/vocion/answer?chunk=random&seed=3&crlf=1', protocol: 'vocion' })
    expect(content(state)).toEqual(content(referenceFold(fixtures.vocion.answer!), 'turn-1'))
    const cut = await runClient({ url: 'http://agent.test/mock/stream/vocion/answer?cut=4' })
    expect(cut.error?.type).toBe('network')
    expect((await fetch('http://agent.test/mock/stream/vocion/nope')).status).toBe(404)
    expect((await fetch('http://agent.test/mock/stream/vocion/plain?status=503', { method: 'POST' })).status).toBe(503)
  })
})
