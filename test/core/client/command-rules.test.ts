/**
 * The conversation commands and how a run's request is made, exactly, against a
 * scripted fetch: which turns `send`, `regenerate` and `edit` open and where,
 * what they refuse and why, the request context a protocol's builder is handed
 * (path, trigger, replacing, answers, tools), the host's `source`, the protocol a
 * turn speaks without one named, client tools and `maxSteps`, and `dispose`.
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions, SendInput } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import type { ProtocolDefinition } from '../../../src/core/protocol/types'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { builtInProtocols } from '../../../src/protocols/index'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/protocol'
import { AgentClient } from '../../helpers/built-in-client'
import { answer, ScriptedAgent } from '../../helpers/scripted-agent'
import { toyProtocol } from '../../helpers/toy-protocol'

const URL = 'http://agent.invalid/api/chat'

function setup(extra: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  const agent = new ScriptedAgent()
  const contexts: RequestContext[] = []
  const recording: ProtocolDefinition = {
    ...uiMessageProtocol,
    request: (context) => {
      contexts.push(context)
      return uiMessageProtocol.request!(context)
    },
  }
  const protocols = [recording, ...builtInProtocols.filter((p) => p.name !== 'ui-message')]
  const client = new AgentClient(store, { url: URL, protocol: 'ui-message', protocols, conversationId: 'chat-1', fetch: agent.fetch, ...extra })
  return { store, agent, contexts, client }
}

const validation = (message: string, extra: Record<string, unknown> = {}) => ({ ok: false, error: { type: 'validation', message, retryable: false, ...extra } })
const messagesOf = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)
const textOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')
const file = (text: string, name: string, type = 'text/plain') => new File([text], name, { type })

describe('send', () => {
  it('a question and its answer: the user turn holds the text, the answer turn names the protocol', async () => {
    const { store, client, contexts } = setup()
    await client.send('hello')
    const s = store.getState()
    const [q, a] = s.turnIds as [string, string]
    expect(s.turnIds).toHaveLength(2)
    expect(q).toMatch(/^user-/)
    expect(a).toMatch(/^turn-/)
    expect(s.turns[q]!.role).toBe('user')
    expect(s.turns[q]!.status).toBe('done')
    expect(s.turns[q]!.messageIds).toEqual([`${q}/text`])
    expect(messageIn(s.messages, `${q}/text`)).toMatchObject({ type: 'text', role: 'user', status: 'done', props: { content: 'hello' } })
    expect(s.turns[a]!.protocol).toBe('ui-message')
    expect(s.turns[a]!.parentId).toBe(q)
    expect(contexts).toHaveLength(1)
    expect(contexts[0]).toMatchObject({ path: [q], turnId: a, trigger: 'submit', conversationId: 'chat-1', input: 'hello', answers: [], tools: [], replacing: undefined })
    expect(contexts[0]!.runId).toMatch(/^run-/)
  })

  it('without input: an answer turn alone, and the default body', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch, conversationId: 'c' })
    await client.send()
    expect(store.getState().turnIds).toHaveLength(1)
    expect(store.getState().turns[store.getState().turnIds[0]!]!.role).toBe('assistant')
    expect(agent.posts[0]!.body).toEqual({ id: 'c', messages: [], trigger: 'submit-message' })
  })

  it('an empty text is still a question', async () => {
    const { store, client } = setup()
    await client.send('')
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(messageIn(s.messages, `${s.turnIds[0]}/text`)!.props).toEqual({ content: '' })
  })

  it('null input sends as no input', async () => {
    const { store, client, agent } = setup()
    await client.send(null as unknown as SendInput)
    expect(store.getState().turnIds).toHaveLength(1)
    expect(agent.posts).toHaveLength(1)
  })

  it('files: one file message each, in order, before the text; blank text beside files is no text', async () => {
    const { store, client } = setup()
    await client.send({ text: '  ', files: [file('hi', 'a.txt'), file('yo', 'b.md', 'text/markdown')] })
    let s = store.getState()
    const q = s.turnIds[0]!
    expect(s.turns[q]!.messageIds).toEqual([`${q}/file:0`, `${q}/file:1`])
    expect(messageIn(s.messages, `${q}/file:0`)).toMatchObject({ type: 'file', role: 'user', status: 'done', props: { url: 'data:text/plain;base64,aGk=', mediaType: 'text/plain', filename: 'a.txt' } })
    expect(messageIn(s.messages, `${q}/file:1`)!.props).toStrictEqual({ url: 'data:text/markdown;base64,eW8=', mediaType: 'text/markdown', filename: 'b.md' })

    await client.send({ text: 'see this', files: [file('hi', 'a.txt')] })
    s = store.getState()
    const q2 = s.turnIds[2]!
    expect(s.turns[q2]!.parentId).toBe(s.turnIds[1])
    expect(s.turns[q2]!.messageIds).toEqual([`${q2}/file:0`, `${q2}/text`])
    expect(messageIn(s.messages, `${q2}/text`)!.props).toEqual({ content: 'see this' })
  })

  it('files with the host upload: the part holds the URL upload gave', async () => {
    const { store, client } = setup({ upload: async (f) => `https://files.invalid/${(f as File).name}` })
    await client.send({ text: 'x', files: [file('hi', 'a.txt')] })
    const s = store.getState()
    expect(messageIn(s.messages, `${s.turnIds[0]}/file:0`)!.props).toStrictEqual({ url: 'https://files.invalid/a.txt', mediaType: 'text/plain', filename: 'a.txt' })
  })

  it('files over the limits: refused, the stream says why, the host hears it, nothing is sent', async () => {
    const errors: unknown[] = []
    const { store, client, agent } = setup({ attachments: { maxCount: 1 }, onError: (e) => void errors.push(e) })
    const before = store.getState().turnIds
    await client.send({ text: 'two', files: [file('a', 'a.txt'), file('b', 'b.txt')] })
    const error = { type: 'validation', message: 'at most 1 file can be attached', code: 'attachment_count', retryable: false }
    const s = store.getState()
    expect(s.turnIds).toEqual(before)
    expect(s.status).toBe('error')
    expect(s.error).toEqual(error)
    expect(errors).toEqual([error])
    expect(agent.requests).toHaveLength(0)
  })

  it('an upload that fails: refused as a validation error with its message', async () => {
    const { store, client, agent } = setup({ upload: async () => { throw new Error('quota') } })
    await client.send({ text: 'x', files: [file('hi', 'a.txt')] })
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toMatchObject({ type: 'validation', message: 'quota' })
    expect(agent.requests).toHaveLength(0)
  })

  it('edit refuses files over the limits and says so in its result', async () => {
    const { store, client } = setup({ attachments: { maxSize: 1 } })
    await client.send('q')
    const result = await client.edit(store.getState().turnIds[0]!, { text: 'q2', files: [file('big', 'big.txt')] })
    expect(result).toEqual(validation('big.txt is larger than 1 bytes', { code: 'attachment_size' }))
  })

  it('a client without a conversation id names one: chat-…, the same in every request', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch })
    await client.send('a')
    await client.send('b')
    const ids = agent.posts.map((p) => p.body!.id)
    expect(ids[0]).toMatch(/^chat-/)
    expect(ids[1]).toBe(ids[0])
  })
})

describe('regenerate', () => {
  it('refuses when there is no answer, an unknown id, or a question', async () => {
    const { store, client, agent } = setup()
    expect(await client.regenerate()).toEqual(validation('there is no answer to regenerate'))
    expect(await client.regenerate('nope')).toEqual(validation('there is no answer "nope" to regenerate'))
    await client.send('q')
    expect(await client.regenerate(store.getState().turnIds[0]!)).toEqual(validation(`there is no answer "${store.getState().turnIds[0]}" to regenerate`))
    expect(agent.posts).toHaveLength(1)
  })

  it('by default the last answer on the path, even when a question without an answer follows it', async () => {
    const { store, client, contexts } = setup()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'q1', role: 'user' }, { op: 'turn.finish', turnId: 'q1', status: 'done' },
      { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' }, { op: 'turn.finish', turnId: 'a1', status: 'done' },
      { op: 'turn.open', turnId: 'q2', role: 'user' }, { op: 'turn.finish', turnId: 'q2', status: 'done' },
    ])
    expect(await client.regenerate()).toEqual({ ok: true })
    const s = store.getState()
    const fresh = s.turnIds[1]!
    expect(fresh).toMatch(/^turn-/)
    expect(s.turnIds).toEqual(['q1', fresh])
    expect(s.turns[fresh]!.parentId).toBe('q1')
    expect(contexts[0]).toMatchObject({ trigger: 'regenerate', replacing: 'a1', path: ['q1'], turnId: fresh })
  })

  it('an answer at the root is regenerated at the root; the client protocol wins over the old turn one', async () => {
    const { store, client, agent } = setup()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a0', role: 'assistant', protocol: 'ag-ui' }, { op: 'turn.finish', turnId: 'a0', status: 'done' },
    ])
    agent.next(answer('again'))
    expect(await client.regenerate('a0')).toEqual({ ok: true })
    const s = store.getState()
    const fresh = s.turnIds[0]!
    expect(fresh).not.toBe('a0')
    expect(s.turns[fresh]!.parentId ?? null).toBe(null)
    expect(s.turns[fresh]!.protocol).toBe('ui-message')
    expect(textOf(s, fresh)).toBe('again')
  })

  it('without a client protocol the new answer speaks the old one', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch, conversationId: 'c' })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'q1', role: 'user' }, { op: 'turn.finish', turnId: 'q1', status: 'done' },
      { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' }, { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    await client.regenerate()
    const s = store.getState()
    expect(s.turns[s.turnIds[1]!]!.protocol).toBe('ui-message')
    // The UI message builder made the body: the old answer is the one replaced.
    expect(agent.posts[0]!.body).toMatchObject({ id: 'c', trigger: 'regenerate-message', messageId: 'a1' })
  })
})

describe('edit and selectBranch', () => {
  it('edit refuses what is not a question', async () => {
    const { store, client } = setup()
    await client.send('q')
    const a = store.getState().turnIds[1]!
    expect(await client.edit(a, 'x')).toEqual(validation(`"${a}" is not a question that can be edited`))
    expect(await client.edit('nope', 'x')).toEqual(validation('"nope" is not a question that can be edited'))
  })

  it('edit puts the new question beside the old one, under the same parent', async () => {
    const { store, client, contexts } = setup()
    await client.send('first')
    await client.send('second')
    const [q1, a1, q2] = store.getState().turnIds as [string, string, string]
    expect(await client.edit(q2, 'second, better')).toEqual({ ok: true })
    const s = store.getState()
    const [, , q2b, a2b] = s.turnIds as [string, string, string, string]
    expect(s.turnIds.slice(0, 2)).toEqual([q1, a1])
    expect(q2b).not.toBe(q2)
    expect(s.turns[q2b]!.parentId).toBe(a1)
    expect(s.turns[a2b]!.parentId).toBe(q2b)
    expect(contexts.at(-1)).toMatchObject({ trigger: 'submit', path: [q1, a1, q2b], turnId: a2b })
  })

  it('edit of the first question makes a second root', async () => {
    const { store, client } = setup()
    await client.send('first')
    const q1 = store.getState().turnIds[0]!
    await client.edit(q1, 'again')
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(s.turns[s.turnIds[0]!]!.parentId ?? null).toBe(null)
    expect(s.turnIds[0]).not.toBe(q1)
  })

  it('an edit with nothing to ask opens only an answer, beside the old question', async () => {
    const { store, client } = setup()
    await client.send('first')
    await client.send('second')
    const [, a1, q2] = store.getState().turnIds as [string, string, string]
    expect(await client.edit(q2, {} as SendInput)).toEqual({ ok: true })
    const s = store.getState()
    expect(s.turnIds).toHaveLength(3)
    const fresh = s.turnIds[2]!
    expect(s.turns[fresh]!.role).toBe('assistant')
    expect(s.turns[fresh]!.parentId).toBe(a1)
  })

  it('selectBranch refuses an index there is not, and shows the one there is', async () => {
    const { store, client } = setup()
    await client.send('q')
    const first = store.getState().turnIds[1]!
    await client.regenerate()
    expect(client.selectBranch(first, 1.5)).toEqual(validation(`"${first}" has no branch 1.5`))
    expect(client.selectBranch('nope', 0)).toEqual(validation('"nope" has no branch 0'))
    expect(store.getState().turnIds[1]).not.toBe(first)
    expect(client.selectBranch(first, 0)).toEqual({ ok: true })
    expect(store.getState().turnIds[1]).toBe(first)
  })

  it('dispose with nothing running does nothing', () => {
    const { store, client } = setup()
    expect(() => client.dispose()).not.toThrow()
    expect(store.getState().status).toBe('idle')
  })
})

describe('the request a run makes', () => {
  it('declares the client tools: name, and description and parameters only when given', async () => {
    const { client, contexts } = setup({
      tools: {
        locate: { description: 'Where the user is', parameters: { type: 'object' }, execute: () => ({}) },
        ping: { execute: () => 'pong' },
      },
    })
    await client.send('q')
    expect(contexts[0]!.tools).toStrictEqual([{ name: 'locate', description: 'Where the user is', parameters: { type: 'object' } }, { name: 'ping' }])
  })

  it('a protocol without a builder: the default body of the text', async () => {
    const { request: _request, ...bare } = toyProtocol
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, protocol: bare as ProtocolDefinition, fetch: agent.fetch })
    await client.send('hi')
    expect(agent.posts[0]!.body).toEqual({ input: 'hi' })
  })

  it('no protocol named or on the path: the default body', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch })
    await client.send('hi')
    expect(agent.posts[0]!.body).toEqual({ input: 'hi' })
  })

  it('no protocol named: the latest one on the path, however far back', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch, conversationId: 'c' })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a0', role: 'assistant', protocol: 'ui-message' }, { op: 'turn.finish', turnId: 'a0', status: 'done' },
      { op: 'turn.open', turnId: 'q1', role: 'user' }, { op: 'turn.finish', turnId: 'q1', status: 'done' },
    ])
    await client.send('next')
    expect(agent.posts[0]!.body).toMatchObject({ id: 'c', trigger: 'submit-message' })
  })

  it('no protocol named: the latest of several on the path', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch, conversationId: 'c' })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a0', role: 'assistant', protocol: 'yao' }, { op: 'turn.finish', turnId: 'a0', status: 'done' },
      { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' }, { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    await client.send('next')
    expect(agent.posts[0]!.body).toMatchObject({ id: 'c', trigger: 'submit-message' })
  })

  it('the protocol found on the path also reads the answer, where sniffing could not tell it', async () => {
    const quiet: ProtocolDefinition = { ...toyProtocol, name: 'quiet', sniff: () => 0 }
    const store = createAgentStore()
    const body = 'data: {"toy":"say","text":"Hi"}\n\ndata: {"toy":"done"}\n\n'
    const fetch = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof globalThis.fetch
    const client = new AgentClient(store, { url: URL, fetch, protocols: [...builtInProtocols, quiet] })
    store.getState().dispatch([{ op: 'turn.open', turnId: 'a0', role: 'assistant', protocol: 'quiet' }, { op: 'turn.finish', turnId: 'a0', status: 'done' }])
    await client.send('hello')
    const s = store.getState()
    const a = s.turnIds[2]!
    expect(textOf(s, a)).toBe('Hi')
    expect(s.turns[a]!.status).toBe('done')
    expect(s.turns[a]!.problems).toEqual([])
  })

  it('the cursor of a new run names its turn and the protocol, counting from zero', async () => {
    const { store, client, agent } = setup()
    agent.next({ hold: true })
    const sending = client.send('q')
    await new Promise((r) => setTimeout(r, 0))
    const s = store.getState()
    expect(s.status).toBe('connecting')
    expect(s.cursor).toMatchObject({ turnId: s.turnIds[1], eventCount: 0, protocol: 'ui-message' })
    agent.closeAll()
    await sending
  })
})

describe('a host source', () => {
  it('is handed the input, turn, trigger, conversation, signal, the client fetch and a dispatch; build() makes the protocol body', async () => {
    const seen: Record<string, unknown> = {}
    const { store, client, agent } = setup({
      source: {
        open: async (o) => {
          Object.assign(seen, { input: o.input, turnId: o.turnId, trigger: o.trigger, conversationId: o.conversationId, fetch: o.fetch, signal: o.signal })
          o.dispatch([{ op: 'problem', turnId: o.turnId, error: { type: 'validation', message: 'noted', retryable: false } }])
          const built = o.build()
          const extended = o.build({ extend: (b) => ({ ...(b as object), extra: 1 }) })
          seen.built = built
          return { url: 'https://agent.invalid/own', method: 'POST', headers: new Headers(), body: JSON.stringify(extended) }
        },
      } as AgentClientOptions['source'],
    })
    await client.send('q')
    const s = store.getState()
    expect(seen).toMatchObject({ input: 'q', turnId: s.turnIds[1], trigger: 'submit', conversationId: 'chat-1', fetch: agent.fetch })
    expect(seen.signal).toBeInstanceOf(AbortSignal)
    expect(s.turns[s.turnIds[1]!]!.problems.map((p) => p.message)).toContain('noted')
    expect(agent.requests[0]!.url).toBe('https://agent.invalid/own')
    expect(agent.requests[0]!.body).toMatchObject({ id: 'chat-1', trigger: 'submit-message', extra: 1 })
    expect(seen.built).not.toHaveProperty('extra')
  })

  it('build() with nothing built does not call extend, and build({ protocol }) names the protocol when the client has none', async () => {
    const extended: unknown[] = []
    let named: unknown
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, {
      fetch: agent.fetch, conversationId: 'c',
      source: {
        open: async (o: { build: (over?: object) => unknown }) => {
          const nothing = o.build({ extend: (b: unknown) => { extended.push(b); return { extra: 1 } } })
          named = o.build({ protocol: 'ui-message' })
          return { url: URL, method: 'POST', headers: new Headers(), body: JSON.stringify({ nothing: nothing ?? null }) }
        },
      } as unknown as AgentClientOptions['source'],
    })
    await client.send('q')
    expect(extended).toEqual([])
    expect(agent.posts[0]!.body).toEqual({ nothing: null })
    expect(named).toMatchObject({ id: 'c', trigger: 'submit-message' })
  })

  it('a source that throws fails the run with a network error', async () => {
    const { store, client, agent } = setup({ source: { open: async () => { throw new Error('no route') } } as unknown as AgentClientOptions['source'] })
    await client.send('q')
    const s = store.getState()
    expect(s.status).toBe('error')
    expect(s.error).toMatchObject({ type: 'network', message: 'no route' })
    expect(s.turns[s.turnIds[1]!]!.status).toBe('error')
    expect(agent.requests).toHaveLength(0)
  })

  it('a stop while the source works: the turn is aborted, no error, nothing is fetched, whether it then throws or returns', async () => {
    for (const ending of ['throws', 'returns'] as const) {
      let go: () => void = () => {}
      const { store, client, agent } = setup({
        source: {
          open: (o: { signal: AbortSignal }) => new Promise((resolve, reject) => {
            go = () => (ending === 'throws' ? reject(new Error('aborted late')) : resolve({ url: URL, method: 'POST', headers: new Headers(), body: '{}' }))
            void o
          }),
        } as unknown as AgentClientOptions['source'],
      })
      const sending = client.send('q')
      await new Promise((r) => setTimeout(r, 0))
      client.stop()
      go()
      await sending
      const s = store.getState()
      expect(s.turns[s.turnIds[1]!]!.status).toBe('aborted')
      expect(s.error).toBeUndefined()
      expect(agent.requests).toHaveLength(0)
    }
  })
})

describe('client tools and maxSteps', () => {
  const callFrames = (id: string) => [{ type: 'start', messageId: `m-${id}` }, { type: 'tool-input-available', toolCallId: id, toolName: 'locate', input: { precise: true } }, { type: 'finish' }]

  it('a tool result goes in the next request with nothing else, and the tool gets its input and context', async () => {
    const calls: unknown[] = []
    const { store, client, agent, contexts } = setup({
      tools: { locate: { execute: (input, context) => { calls.push([input, context.turnId, context.toolCallId, context.signal instanceof AbortSignal]); return { city: 'Lyon' } } } },
    })
    agent.next({ frames: callFrames('c1'), then: 'end', done: true }, answer('You are in Lyon'))
    await client.send('where am I?')
    const s = store.getState()
    const a = s.turnIds[1]!
    expect(calls).toEqual([[{ precise: true }, a, 'c1', true]])
    expect(agent.posts).toHaveLength(2)
    expect(contexts[1]).toMatchObject({ trigger: 'continue', path: [s.turnIds[0], a], turnId: a })
    expect(contexts[1]!.answers).toStrictEqual([])
    const tool = messagesOf(s, a).find((m) => m.type === 'tool')!
    expect(tool.props).toMatchObject({ state: 'output-available', output: { city: 'Lyon' } })
    expect(textOf(s, a)).toBe('You are in Lyon')
  })

  it('a tool that throws: output-error with its message, and the turn goes on', async () => {
    const { store, client, agent } = setup({ tools: { locate: { execute: () => { throw new Error('denied') } } } })
    agent.next({ frames: callFrames('c1'), then: 'end', done: true }, answer('no location'))
    await client.send('where am I?')
    const s = store.getState()
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(tool.props).toMatchObject({ state: 'output-error', errorText: 'denied' })
    expect(agent.posts).toHaveLength(2)
  })

  for (const [maxSteps, posts] of [[0, 1], [1, 2], [2, 3], [-3, 1], [undefined, 6]] as const) {
    it(`maxSteps ${String(maxSteps)}: ${posts} requests, then the turn says it stopped`, async () => {
      const { store, client, agent } = setup({ tools: { locate: { execute: () => ({ city: 'Lyon' }) } }, ...(maxSteps !== undefined ? { maxSteps } : {}) })
      for (let i = 0; i < 8; i++) agent.next({ frames: callFrames(`c${i}`), then: 'end', done: true })
      await client.send('loop')
      expect(agent.posts).toHaveLength(posts)
      const s = store.getState()
      const a = s.turnIds[1]!
      const max = Math.max(0, maxSteps ?? 5)
      expect(s.turns[a]!.problems).toEqual([
        { type: 'validation', message: `stopped after ${max} automatic requests in a row (maxSteps)`, code: 'max_steps', retryable: false },
      ])
      expect(s.status).toBe('done')
    })
  }

  it('a tool result on a branch no longer shown is not sent, and the turn says why', async () => {
    let finish: () => void = () => {}
    const { store, client, agent } = setup({ tools: { locate: { execute: () => new Promise((resolve) => { finish = () => resolve({ city: 'Lyon' }) }) } } })
    await client.send('q')
    agent.next({ frames: callFrames('c1'), then: 'end', done: true })
    const sending = client.send('where am I?')
    for (let i = 0; i < 200 && agent.posts.length < 2; i++) await new Promise((r) => setTimeout(r, 5))
    void sending
    const s0 = store.getState()
    const [q1, , , a2] = s0.turnIds as [string, string, string, string]
    // Wait until the tool runs, then show another branch.
    for (let i = 0; i < 200 && store.getState().status !== 'done'; i++) await new Promise((r) => setTimeout(r, 5))
    const ops: Op[] = [{ op: 'turn.open', turnId: 'side', role: 'assistant', parentId: q1 }, { op: 'turn.finish', turnId: 'side', status: 'done' }]
    store.getState().dispatch(ops)
    finish()
    await sending
    const s = store.getState()
    expect(agent.posts).toHaveLength(2)
    expect(s.turns[a2]!.problems.map((p) => p.code)).toEqual(['off_path'])
    expect(s.turns[a2]!.status).toBe('done')
  })
})
