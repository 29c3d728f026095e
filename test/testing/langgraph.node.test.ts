/**
 * weft/testing's LangGraph fixtures are the real server's recordings: their frames
 * write back to the recorded bytes, each folds to what the thread's state after the
 * run says, and the resume replies rejoin a run the way the server does.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient, createAgentStore, foldStream, memoryStorage, snapshot, syncScheduler, type AgentState, type Message } from 'weft/core'
import { langGraphProtocol } from 'weft/protocols/langgraph'
import {
  fixtures, langGraphResumeReply, mockFetch, resumeReply, RESUME_STRATEGY, streamResponse, type AgentFixture, type FixtureFrame,
} from 'weft/testing'
import { agentHandlers, fixtureHandlers } from 'weft/testing/msw'
import { messageIn } from '../../src/core/model/message-table'
import { LANGGRAPH_FIXTURES } from '../../scripts/langgraph-fixtures'

const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/langgraph')
const lg = fixtures.langgraph

/** A frame as the LangGraph server writes it: `event:`, `data:`, `id:`, a blank line. */
const serverBytes = (frames: readonly FixtureFrame[]) =>
  frames.map((f) => `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\nid: ${f.id}\n\n`).join('')

interface LcMessage { type: string; id?: string; content: unknown; tool_calls?: Array<{ id: string; name: string; args: unknown }>; tool_call_id?: string }
interface ThreadState { values: { messages: LcMessage[] }; tasks?: Array<{ error?: string | null; interrupts?: Array<{ id: string; value: { question?: string } }> }> }
const snapshotOf = (scenario: string, name: string): ThreadState =>
  (JSON.parse(readFileSync(join(RECORDINGS, scenario, 'recording.json'), 'utf8')) as { snapshots: Record<string, ThreadState> }).snapshots[name]!

/** The thread's state after each fixture's run, and the messages the state held before it. */
const AFTER: Record<string, { state: ThreadState; before: number }> = {
  agent: { state: snapshotOf('agent', 'finalState'), before: 1 },
  approval: { state: snapshotOf('approval', 'state-at-interrupt'), before: 1 },
  'approval-resume': { state: snapshotOf('approval', 'finalState'), before: 2 },
  research: { state: snapshotOf('research', 'finalState'), before: 1 },
  reasoning: { state: snapshotOf('reasoning', 'finalState'), before: 1 },
  error: { state: snapshotOf('error', 'finalState'), before: 1 },
  'long-run': { state: snapshotOf('long-rejoin', 'finalState'), before: 1 },
  'dropped-connection': { state: snapshotOf('long-rejoin', 'finalState'), before: 1 },
}

const blocks = (content: unknown, type: string, key: string) =>
  typeof content === 'string' ? (type === 'text' ? content : '') : (content as Array<Record<string, unknown>>).filter((b) => b.type === type).map((b) => String(b[key])).join('')

/** What the state implies the turn shows in its main lane: texts, reasoning, tool calls with their results, and the open interrupt. */
function implied({ state, before }: { state: ThreadState; before: number }) {
  const added = state.values.messages.slice(before)
  const results = new Map(added.filter((m) => m.type === 'tool').map((m) => [m.tool_call_id, m.content]))
  return {
    texts: added.filter((m) => m.type === 'ai').map((m) => blocks(m.content, 'text', 'text')).filter(Boolean),
    reasoning: added.filter((m) => m.type === 'ai').map((m) => blocks(m.content, 'reasoning', 'reasoning')).filter(Boolean),
    tools: added.flatMap((m) => {
      if (m.type === 'ai') return (m.tool_calls ?? []).map((call) => ({ id: call.id, name: call.name, input: call.args, output: results.get(call.id) }))
      // The result of a call an earlier run made (before an interrupt): this run carries only the result.
      const call = state.values.messages.slice(0, before).flatMap((e) => e.tool_calls ?? []).find((c) => c.id === m.tool_call_id)
      return call ? [{ id: call.id, name: call.name, input: undefined, output: m.content }] : []
    }),
    interrupts: (state.tasks ?? []).flatMap((t) => t.interrupts ?? []).map((i) => ({ id: i.id, question: i.value.question })),
    error: (state.tasks ?? []).map((t) => t.error).find(Boolean),
  }
}

/** What the folded turn shows in its main lane, in the same terms. */
function shown(state: AgentState) {
  const turnId = state.turnIds.find((id) => state.turns[id]!.role === 'assistant')!
  const messages = state.turns[turnId]!.messageIds.map((id) => messageIn(state.messages, id)).filter((m): m is Message => m !== undefined && !m.threadId)
  return {
    texts: messages.filter((m) => m.type === 'text').map((m) => String(m.props.content)),
    reasoning: messages.filter((m) => m.type === 'reasoning').map((m) => String(m.props.content)),
    tools: messages.filter((m) => m.type === 'tool').map((m) => ({ id: m.props.toolCallId, name: m.props.name, input: m.props.input, output: m.props.output })),
    interrupts: Object.values(state.gates).filter((g) => g.status === 'pending').map((g) => ({ id: g.extra?.interruptId, question: g.question })),
    turn: state.turns[turnId]!,
  }
}

const fold = (fixture: AgentFixture) => foldStream(serverBytes(fixture.frames), { protocols: [langGraphProtocol], protocol: 'langgraph', turnId: 'turn-1' })

describe('LangGraph fixtures', () => {
  it('are the recorded bytes, frame for frame, and every one the brief names ships', () => {
    expect(Object.keys(lg).sort()).toEqual(LANGGRAPH_FIXTURES.map((s) => s.name).sort())
    for (const spec of LANGGRAPH_FIXTURES) {
      const recorded = spec.parts.map((p) => readFileSync(join(RECORDINGS, p.scenario, p.file), 'utf8')).join('')
      const fixture = lg[spec.name as keyof typeof lg]
      expect(serverBytes(fixture.frames), spec.name).toBe(recorded)
      expect(fixture.frames.every((f) => Object.keys(f).join() === 'id,event,data'), spec.name).toBe(true)
      // Ids count from 0 per run, with none missing: what a rejoin by Last-Event-ID relies on.
      expect(fixture.frames.map((f) => f.id)).toEqual(fixture.frames.map((_, i) => String(i)))
    }
    expect(lg['dropped-connection'].end).toBe('drop')
    expect(lg['long-run'].frames.slice(0, lg['dropped-connection'].frames.length)).toEqual(lg['dropped-connection'].frames)
  })

  it.each(Object.keys(AFTER))('%s folds to what the thread state after the run implies', (name) => {
    const fixture = lg[name as keyof typeof lg]
    const state = fold(fixture)
    const want = implied(AFTER[name]!)
    const got = shown(state)
    expect(got.tools).toEqual(want.tools)
    expect(got.reasoning).toEqual(want.reasoning)
    expect(got.interrupts).toEqual(want.interrupts)
    if (name === 'dropped-connection') {
      // The first twelve events: the beginning of the answer the run went on to write.
      expect(got.texts).toHaveLength(1)
      expect(want.texts[0]!.startsWith(got.texts[0]!)).toBe(true)
      expect(got.texts[0]!.length).toBeGreaterThan(0)
      expect(got.texts[0]!.length).toBeLessThan(want.texts[0]!.length)
    } else if (name === 'error') {
      // The failed node kept nothing in the thread; what streamed before the error stays shown.
      expect(want.texts).toEqual([])
      expect(got.texts.join('').length).toBeGreaterThan(0)
      expect(got.turn).toMatchObject({ status: 'error', error: { type: 'internal', code: 'Error', message: JSON.parse(want.error!).message } })
    } else {
      expect(got.texts).toEqual(want.texts)
      expect(got.turn.status).toBe('done')
    }
    if (name === 'research') {
      // Two parallel subgraphs, each its own lane with its own notes.
      const lanes = Object.values(state.threads)
      expect(lanes).toHaveLength(2)
      const notes = lanes.map((lane) => String(messageIn(state.messages, lane.messageIds[0]!)!.props.content)).sort()
      expect(notes).toEqual(['Notes on alpha: it checks out.', 'Notes on beta: it checks out.'])
    }
  })
})

/** A client of the langgraph protocol whose rejoins go where the strategy sends them. */
function client(fetch: typeof globalThis.fetch, url = 'http://lg.test/threads/t1/runs/stream') {
  const store = createAgentStore()
  const agent = new AgentClient(store, {
    url, protocol: 'langgraph', protocols: [langGraphProtocol], scheduler: syncScheduler, fetch,
    resume: { strategy: RESUME_STRATEGY.langgraph, conversationKey: 'c1', storage: memoryStorage(), backoff: { baseMs: 5, maxMs: 20 } },
  })
  return { store, agent }
}
const fullAnswer = () => shown(fold(lg['long-run'])).texts

describe('LangGraph resume replies', () => {
  it('a dropped connection rejoins the run by Last-Event-ID and ends with the full answer, nothing twice', async () => {
    const fetch = mockFetch([
      { method: 'POST', url: '/threads/t1/runs/stream', answer: lg['dropped-connection'], stream: { chunking: 'random', seed: 5 } },
      { method: 'GET', url: /\/threads\/t1\/runs\/[^/]+\/stream$/, answer: (request) => resumeReply(lg['dropped-connection'], request) },
    ])
    const { store, agent } = client(fetch as typeof globalThis.fetch)
    await agent.send('Count.')
    const state = snapshot(store.getState())
    expect(state.status).toBe('done')
    expect(shown(state).texts).toEqual(fullAnswer())
    const rejoin = fetch.calls.find((c) => c.method === 'GET')!
    expect(rejoin.url).toBe(`http://lg.test/threads/t1/runs/${encodeURIComponent('01a250d7-84c0-770b-85aa-cb205a5cae6d')}/stream`)
    expect(rejoin.headers['last-event-id']).toBe('11')
  })

  it('replays after the id, from the start at -1, nothing at the end, and 404 for an id the run never sent', async () => {
    const ids = async (response: Response) => [...(await response.text()).matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))
    const run = lg['long-run'].frames.length
    expect(await ids(langGraphResumeReply(lg['long-run'], '-1'))).toEqual([...Array(run).keys()])
    expect(await ids(langGraphResumeReply(lg['long-run'], '30'))).toEqual([...Array(run - 31).keys()].map((i) => i + 31))
    expect(await ids(langGraphResumeReply(lg['dropped-connection'], '11'))).toEqual([...Array(run - 12).keys()].map((i) => i + 12))
    const end = langGraphResumeReply(lg.agent, String(lg.agent.frames.length - 1))
    expect(end.status).toBe(200)
    expect(await end.text()).toBe('')
    expect(langGraphResumeReply(lg.agent, '999').status).toBe(404)
  })

  it.each([3, 9, 20])('a run cut at frame %i resumes through MSW handlers to the uninterrupted answer', async (cutAt) => {
    const server = setupServer(
      ...agentHandlers({ url: 'http://lg.test/threads/t1/runs/stream', protocol: 'langgraph', scenario: 'long-run', cutAt, chunking: 'random', seed: cutAt }),
      ...fixtureHandlers({ prefix: 'http://mock.test/mock' }),
    )
    server.listen({ onUnhandledRequest: 'error' })
    try {
      for (const url of ['http://lg.test/threads/t1/runs/stream', `http://mock.test/mock/stream/langgraph/long-run/threads/t1/runs/stream?cut=${cutAt}&chunk=random`]) {
        const { store, agent } = client(globalThis.fetch, url)
        await agent.send('Count.')
        const state = snapshot(store.getState())
        expect(state.status, url).toBe('done')
        expect(shown(state).texts, url).toEqual(fullAnswer())
        expect(shown(state).turn.problems, url).toEqual([])
      }
    } finally {
      server.close()
    }
  })

  it('an approval stops at the gate; its answer is the resume run', async () => {
    const fetch = mockFetch({
      'POST /threads/t1/runs/stream': (request) => request.clone().json().then((body: { command?: unknown }) => (body.command ? lg['approval-resume'] : lg.approval)),
    })
    const { store, agent } = client(fetch as typeof globalThis.fetch)
    await agent.send('Email Ada to say hello.')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ kind: 'interrupt', status: 'pending', question: 'Send this email?' })
    await agent.answer(gate.id, { approved: true })
    expect(fetch.calls[1]!.json()).toMatchObject({ command: { resume: { approved: true } } })
    const state = snapshot(store.getState())
    const last = state.turns[state.turnIds.at(-1)!]!
    const texts = last.messageIds.map((id) => messageIn(state.messages, id)).filter((m) => m?.type === 'text').map((m) => m!.props.content)
    expect(texts.at(-1)).toBe('Done: the email is sent.')
    const tool = [...Object.values(state.turns)].flatMap((t) => t.messageIds).map((id) => messageIn(state.messages, id)).find((m) => m?.type === 'tool')
    expect(tool?.props).toMatchObject({ name: 'send_email', state: 'output-available', output: 'sent' })
  })

  it('streamResponse serves a fixture whose body simply closes: the run ends done', async () => {
    const { store, agent } = client(async (_input, init) => streamResponse(lg.agent, { signal: init?.signal }))
    await agent.send('What is the weather in Paris?')
    expect(store.getState().status).toBe('done')
  })
})
