/**
 * A host's own protocol in weft/testing: its name is kept by `streamResponse`,
 * the recorder and the MSW handlers, and what only the built-in protocols have
 * (shipped fixtures, a protocol's resume reply) fails with a typed error.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  fixtures, getFixture, isBuiltInProtocol, mockFetch, recordStream, resumeReply, streamResponse, toFixture, UnsupportedProtocolError,
  type AgentFixture, type FixtureProtocol,
} from 'weft/testing'
import { agentHandlers, fixtureHandlers } from 'weft/testing/msw'
import { toyProtocol, toySse } from '../helpers/toy-protocol'
import { content, runClient } from './support'
import { messageList } from '../../src/core/model/message-table'

/** A fixture of the toy protocol, as a host would check one in. */
const toyFixture: AgentFixture = {
  protocol: 'toy',
  name: 'hello',
  title: 'Says hello',
  frames: [{ id: 't1', data: { toy: 'say', text: 'Hello ' } }, { id: 't2', data: { toy: 'say', text: 'there' } }, { id: 't3', data: { toy: 'done' } }],
}

/** A `fetch` that answers with the toy stream, as the host's server would. */
const toyServer = (words: string[]) => async () => new Response(toySse(words), { headers: { 'content-type': 'text/event-stream' } })

const answerText = (state: Awaited<ReturnType<typeof runClient>>) =>
  messageList(state.messages).filter((m) => m.role === 'assistant' && m.type === 'text').map((m) => String(m.props.content)).join('')

/** What a call threw, so its class and fields can be compared. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('it did not throw')
}

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('a host protocol’s name', () => {
  it('is a FixtureProtocol, and not a built-in one', () => {
    const protocol: FixtureProtocol = 'toy'
    expect(isBuiltInProtocol(protocol)).toBe(false)
    expect(Object.keys(fixtures).every(isBuiltInProtocol)).toBe(true)
  })

  it('streamResponse frames its bare events as plain data and keeps its name', async () => {
    const events = [{ toy: 'say', text: 'Hi' }, { toy: 'done' }]
    expect(toFixture(events, 'toy').protocol).toBe('toy')
    const response = streamResponse(events, { protocol: 'toy' })
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBeNull()
    expect(await response.text()).toBe('data: {"toy":"say","text":"Hi"}\n\ndata: {"toy":"done"}\n\n')
    const state = await runClient({ url: '/toy', protocol: toyProtocol, fetch: async () => streamResponse(events, { protocol: 'toy', chunking: 'random', seed: 2 }) })
    expect(state.status).toBe('done')
    expect(answerText(state)).toBe('Hi')
  })

  it('the recorder names a recording by the client’s host protocol, and the replay folds to the same state', async () => {
    const recorder = recordStream({ url: 'http://agent.test/toy', protocol: toyProtocol, fetch: toyServer(['Hello ', 'world']) })
    const live = await runClient(recorder.options, 'Hi')
    const fixture = recorder.last()!
    expect(fixture.protocol).toBe('toy')
    expect(answerText(live)).toBe('Hello world')
    const copied = JSON.parse(JSON.stringify(fixture)) as AgentFixture
    const replayed = await runClient({ url: '/r', protocol: toyProtocol, fetch: mockFetch({ '/r': copied }, { chunking: 'random', seed: 9 }) }, 'Hi')
    expect(content(replayed)).toEqual(content(live))
  })

  it('a client that detects among its own protocols records the host protocol it detected; a stream none recognises is unknown', async () => {
    const detecting = recordStream({ url: 'http://agent.test/toy', protocols: [toyProtocol], fetch: toyServer(['Hi']) })
    await runClient(detecting.options)
    expect(detecting.last()!.protocol).toBe('toy')

    const unrecognised = recordStream({
      url: 'http://agent.test/odd', protocols: [toyProtocol],
      fetch: async () => new Response('data: {"odd":true}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    })
    await runClient(unrecognised.options)
    expect(unrecognised.last()!.protocol).toBe('unknown')
  })

  it('the MSW handlers stream a host fixture by URL and as an agent endpoint', async () => {
    server.use(
      ...fixtureHandlers({ prefix: 'http://agent.test/mock', fixtures: [toyFixture] }),
      ...agentHandlers({ url: 'http://agent.test/api/toy', protocol: 'toy', events: [{ toy: 'say', text: 'Events' }, { toy: 'done' }] }),
    )
    const byUrl = await runClient({ url: 'http://agent.test/mock/stream/toy/hello?chunk=random&seed=3', protocol: toyProtocol })
    expect(answerText(byUrl)).toBe('Hello there')
    const endpoint = await runClient({ url: 'http://agent.test/api/toy', protocol: toyProtocol })
    expect(answerText(endpoint)).toBe('Events')
    // Its name is no shipped protocol's: an unknown one is a 404, not a crash.
    expect((await fetch('http://agent.test/mock/stream/toy/plain')).status).toBe(404)
  })

  it('resumes the standard SSE way: Last-Event-ID gets the frames after that id', async () => {
    const reply = resumeReply(toyFixture, new Request('http://agent.test/toy', { headers: { 'last-event-id': 't1' } }))
    expect(await reply.text()).toBe('id: t2\ndata: {"toy":"say","text":"there"}\n\nid: t3\ndata: {"toy":"done"}\n\n')
  })
})

describe('built-in-only features asked of a host protocol', () => {
  it('a shipped fixture by name: UnsupportedProtocolError, feature "fixtures"', () => {
    const error = thrown(() => getFixture('toy', 'plain'))
    expect(error).toBeInstanceOf(UnsupportedProtocolError)
    expect(error).toMatchObject({ name: 'UnsupportedProtocolError', protocol: 'toy', feature: 'fixtures' })
    expect((error as Error).message).toMatch(/no fixtures ship for protocol "toy".*pass a fixture of your own/)
    // A built-in protocol's unknown name is another mistake, with its own message.
    expect(thrown(() => getFixture('yao', 'nope'))).not.toBeInstanceOf(UnsupportedProtocolError)
  })

  it('agentHandlers with a scenario name for a host protocol fail when they are made', () => {
    expect(thrown(() => agentHandlers({ url: '/api/toy', protocol: 'toy', scenario: 'plain' }))).toMatchObject({ protocol: 'toy', feature: 'fixtures' })
  })

  it('a protocol’s own resume reply: UnsupportedProtocolError, feature "resume"', () => {
    const error = thrown(() => resumeReply(toyFixture, new Request('http://agent.test/resume?after=1')))
    expect(error).toBeInstanceOf(UnsupportedProtocolError)
    expect(error).toMatchObject({ protocol: 'toy', feature: 'resume' })
    expect((error as Error).message).toMatch(/no resume reply for protocol "toy"/)
    expect(thrown(() => agentHandlers({ url: '/api/toy', scenario: toyFixture, cutAt: 1, resumeUrl: '/api/toy/resume' }))).toMatchObject({ protocol: 'toy', feature: 'resume' })
    // Without resumeUrl a cut host stream is fine: it can still resume by Last-Event-ID.
    expect(agentHandlers({ url: '/api/toy', scenario: toyFixture, cutAt: 1 }).length).toBeGreaterThan(0)
  })
})
