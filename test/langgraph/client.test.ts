/**
 * weft's LangGraph protocol against the real server (`@langchain/langgraph-api`, what `langgraph dev`
 * runs): `AgentClient` over `langGraphSource` sends, streams, answers interrupts, stops (and the run
 * stops on the server), rejoins a dropped run, attaches after a reload, forks on edit and regenerate,
 * and reads the thread's history back into the same conversation the live stream built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LangGraphServer, startLangGraphServer } from '../../scripts/langgraph-server.mjs'
import { AgentClient } from '../../src/core/client/agent-client'
import type { AgentState, Message } from '../../src/core/model/model'
import { messageIn } from '../../src/core/model/message-table'
import { syncScheduler } from '../../src/core/store/batcher'
import { createAgentStore } from '../../src/core/store/store'
import type { ResumeStorage } from '../../src/core/resume/types'
import { langGraphProtocol, langGraphSource, readLangGraphHistory } from '../../src/protocols/langgraph/index'
import { countText } from './graphs/long'

let server: LangGraphServer

beforeAll(async () => {
  server = await startLangGraphServer()
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

const protocols = [langGraphProtocol]

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return text ? JSON.parse(text) : null
}

function memoryStorage(): ResumeStorage {
  const items = new Map<string, string>()
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) }
}

function setup(assistantId: string, options: { config?: Record<string, unknown>; fetch?: typeof fetch; resume?: { conversationKey: string; storage: ResumeStorage }; threadId?: string } = {}) {
  const store = createAgentStore()
  const source = langGraphSource({ apiUrl: server.url, assistantId, ...(options.config ? { config: options.config } : {}), ...(options.threadId ? { threadId: options.threadId } : {}) })
  const client = new AgentClient(store, {
    source, protocol: 'langgraph', protocols, idleTimeoutMs: 0, scheduler: syncScheduler,
    ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.resume ? { resume: options.resume } : {}),
  })
  return { store, source, client }
}

function answerOf(state: AgentState): Message[] {
  const turnId = state.turnIds.at(-1)!
  return state.turns[turnId]!.messageIds.map((id) => messageIn(state.messages, id) as Message)
}

/** What a person reads in a conversation: each turn's role and its parts. */
function transcript(state: AgentState): Array<[string, string[]]> {
  return state.turnIds.map((id) => {
    const turn = state.turns[id]!
    const parts = turn.messageIds.map((m) => messageIn(state.messages, m) as Message).map((m) =>
      m.type === 'tool' ? `${m.props.name}(${JSON.stringify(m.props.input)}) = ${JSON.stringify(m.props.output ?? null)}` : `${m.type}: ${String(m.props.content)}`)
    return [turn.role, parts]
  })
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('AgentClient over langGraphSource, against the real server', () => {
  it('a tool-calling run: the answer shown is the thread the server keeps, and history reads it back the same', async () => {
    const { store, source, client } = setup('agent')
    await client.send('What is the weather in Paris?')
    const state = store.getState()
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn).toMatchObject({ status: 'done', problems: [], threadId: source.threadId })
    expect(transcript(state)).toEqual([
      ['user', ['text: What is the weather in Paris?']],
      ['assistant', ['text: Let me look up the weather.', 'get_weather({"city":"Paris"}) = "{\\"city\\":\\"Paris\\",\\"sky\\":\\"sunny\\",\\"celsius\\":21}"', 'text: It is sunny in Paris, 21 degrees.']],
    ])
    // The user's message goes with its weft id, so the thread and the page name it alike.
    const thread = await call('GET', `/threads/${source.threadId}/state`)
    expect(thread.values.messages[0]).toMatchObject({ type: 'human', id: state.turns[state.turnIds[0]!]!.messageIds[0], content: 'What is the weather in Paris?' })
    const history = await call('POST', `/threads/${source.threadId}/history`, { limit: 100 })
    const reloaded = createAgentStore()
    reloaded.getState().dispatch(readLangGraphHistory(history, { state: reloaded.getState() }))
    expect(transcript(reloaded.getState())).toEqual(transcript(state))
    // Reading the same history into the live store adds nothing.
    const before = JSON.stringify(transcript(state))
    store.getState().dispatch(readLangGraphHistory(history, { state: store.getState() }))
    expect(JSON.stringify(transcript(store.getState()))).toBe(before)
    expect(store.getState().turnIds).toHaveLength(2)
  })

  it.each([
    [{ approved: true }, 'sent', 'Done: the email is sent.'],
    [{ approved: false, reason: 'not now' }, 'cancelled', 'All right, I did not send it.'],
  ])('an interrupt is a gate; answering %j resumes the run with Command({ resume })', async (response, output, text) => {
    const { store, source, client } = setup('approval')
    await client.send('Email Ada to say hello')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ kind: 'interrupt', status: 'pending', question: 'Send this email?', toolCallId: 'call_email_1' })
    expect((await call('GET', `/threads/${source.threadId}`)).status).toBe('interrupted')
    expect(await client.answer(gate.id, response)).toEqual({ ok: true })
    const state = store.getState()
    const tools = answerOf(state).filter((m) => m.type === 'tool')
    expect(tools.map((m) => m.props)).toEqual([expect.objectContaining({ toolCallId: 'call_email_1', input: { to: 'ada@example.com', subject: 'Hello' }, state: 'output-available', output })])
    expect(answerOf(state).filter((m) => m.type === 'text').map((m) => m.props.content)).toEqual(['I will send the email.', text])
    expect(state.turns[state.turnIds.at(-1)!]!.status).toBe('done')
    const thread = await call('GET', `/threads/${source.threadId}`)
    expect(thread.status).toBe('idle')
    expect(thread.values.messages.at(-1).content).toBe(text)
  })

  it('subgraphs in parallel: one lane per branch with its own text, and the state as agent state', async () => {
    const { store, source, client } = setup('research')
    await client.send('Research alpha and beta')
    const state = store.getState()
    const threads = Object.values(state.threads)
    expect(threads.map((t) => t.label)).toEqual(['research', 'research'])
    const laneTexts = answerOf(state).filter((m) => m.threadId).map((m) => String(m.props.content)).sort()
    expect(laneTexts).toEqual(['Notes on alpha: it checks out.', 'Notes on beta: it checks out.'])
    const values = (await call('GET', `/threads/${source.threadId}/state`)).values
    const { messages: _messages, ...rest } = values
    expect(state.agentState).toEqual(rest)
  })

  it('stop ends the turn and cancels the run on the server; the next message is accepted', async () => {
    const store = createAgentStore()
    // The first run is long enough to stop in its middle; the next one is short.
    const source = langGraphSource({
      apiUrl: server.url, assistantId: 'long',
      buildInput: (body, { input }) => ({ ...body, config: { configurable: input === 'Count' ? { chunks: 300, delayMs: 10 } : { chunks: 3, delayMs: 1 } } }),
    })
    const client = new AgentClient(store, { source, protocol: 'langgraph', protocols, idleTimeoutMs: 0, scheduler: syncScheduler })
    const sent = client.send('Count')
    await until(() => String(answerOf(store.getState())[0]?.props.content ?? '').includes('w5'), 'the first words')
    client.stop()
    await sent
    const state = store.getState()
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn.status).toBe('aborted')
    await until(async () => (await call('GET', `/threads/${turn.threadId}/runs/${turn.runId}`)).status === 'interrupted', 'the run to be cancelled')
    await client.send('Count again')
    const next = store.getState()
    expect(next.turns[next.turnIds.at(-1)!]!.status).toBe('done')
  })

  it('a connection that drops mid-run rejoins with Last-Event-ID: nothing lost, nothing twice', async () => {
    const joins: Array<string | null> = []
    let dropped = false
    const dropping: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      const url = String(input)
      if (!/\/runs\/[^/]+\/stream$/.test(url)) return response
      joins.push(new Headers(init?.headers).get('last-event-id'))
      if (dropped || !response.body) return response
      dropped = true
      const reader = response.body.getReader()
      let bytes = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read()
          if (done) return controller.close()
          controller.enqueue(value)
          bytes += value.byteLength
          if (bytes > 3000) {
            void reader.cancel()
            controller.error(new TypeError('network connection lost'))
          }
        },
      })
      return new Response(body, { status: response.status, headers: response.headers })
    }
    const { store, client } = setup('long', { fetch: dropping, config: { configurable: { chunks: 60, delayMs: 10 } }, resume: { conversationKey: 'drop', storage: memoryStorage() } })
    await client.send('Count')
    const state = store.getState()
    expect(state.turns[state.turnIds.at(-1)!]!.status).toBe('done')
    expect(answerOf(state).map((m) => m.props.content)).toEqual([countText(60)])
    expect(joins[0]).toBe('-1')
    expect(joins.length).toBeGreaterThanOrEqual(2)
    expect(Number(joins[1])).toBeGreaterThan(0)
  })

  it('a page that reloads mid-run attaches to it and replays it from the start', async () => {
    const storage = memoryStorage()
    const first = setup('long', { config: { configurable: { chunks: 80, delayMs: 15 } }, resume: { conversationKey: 'reload', storage } })
    const sent = first.client.send('Count')
    await until(() => String(answerOf(first.store.getState())[0]?.props.content ?? '').includes('w3'), 'the first words')
    first.client.dispose()
    await sent
    const second = setup('long', { resume: { conversationKey: 'reload', storage } })
    await second.client.attach()
    const state = second.store.getState()
    expect(answerOf(state).map((m) => m.props.content)).toEqual([countText(80)])
    expect(state.turns[state.turnIds.at(-1)!]!.status).toBe('done')
  })

  it('regenerate and edit fork the thread at its checkpoints; the branch picker walks them, and history rebuilds the same tree', async () => {
    const { store, source, client } = setup('agent')
    await client.send('What is the weather in Paris?')
    const firstAnswer = store.getState().turnIds.at(-1)!
    expect((await client.regenerate()).ok).toBe(true)
    let state = store.getState()
    const question = state.turnIds[0]!
    expect(state.branches[question]).toHaveLength(2)
    expect(transcript(state)[1]![1]).toHaveLength(3)
    expect(await client.edit(question, 'And in Rome?')).toEqual({ ok: true })
    state = store.getState()
    expect(state.branches['']).toHaveLength(2)
    expect(transcript(state)[0]).toEqual(['user', ['text: And in Rome?']])
    // The server forked: the edited run's first state holds only the new question.
    const thread = await call('GET', `/threads/${source.threadId}/state`)
    expect(thread.values.messages.map((m: any) => m.content).slice(0, 1)).toEqual(['And in Rome?'])
    // Back to the first question and its first answer.
    expect(client.selectBranch(state.turnIds[0]!, 0)).toEqual({ ok: true })
    expect(client.selectBranch(store.getState().turnIds[1]!, 0)).toEqual({ ok: true })
    expect(store.getState().turnIds).toEqual([question, firstAnswer])
    // Reloaded from the server's history: three branches, the same texts.
    const history = await call('POST', `/threads/${source.threadId}/history`, { limit: 100 })
    const reloaded = createAgentStore()
    reloaded.getState().dispatch(readLangGraphHistory(history, { state: reloaded.getState() }))
    const again = reloaded.getState()
    expect(again.branches['']).toHaveLength(2)
    expect(again.branches[again.branches['']![0]!]).toHaveLength(2)
    expect(transcript(again)[0]).toEqual(['user', ['text: And in Rome?']])
    // The reloaded conversation goes on from its head: a follow-up forks from the edited branch.
    const next = new AgentClient(reloaded, { source: langGraphSource({ apiUrl: server.url, assistantId: 'agent', threadId: source.threadId }), protocol: 'langgraph', protocols, idleTimeoutMs: 0, scheduler: syncScheduler })
    await next.send('Thanks')
    expect(reloaded.getState().turns[reloaded.getState().turnIds.at(-1)!]).toMatchObject({ status: 'done', problems: [] })
    const after = await call('GET', `/threads/${source.threadId}/state`)
    expect(after.values.messages.filter((m: any) => m.type === 'human').map((m: any) => m.content)).toEqual(['And in Rome?', 'Thanks'])
  })

  it('a node that fails ends the turn in a typed error, with what streamed kept', async () => {
    const { store, client } = setup('long', { config: { configurable: { chunks: 5, delayMs: 1, fail: 'the model is down' } } })
    await client.send('Count')
    const state = store.getState()
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn.status).toBe('error')
    expect(turn.error).toMatchObject({ type: 'internal', message: expect.stringContaining('the model is down') })
    expect(answerOf(state)[0]!.props.content).toBe(countText(5))
  })
})
