/**
 * `respond`, a tool the UI answers, exactly, against a scripted fetch: what the
 * store shows at once (the call's output and the trace node), the continuation
 * that carries it, each refusal with its code and message (and nothing changed
 * or sent), which call an id names, and what a stop before the continuation
 * leaves (the call waiting again, as it was).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { respondOps } from '../../../src/core/client/respond'
import { messageIn } from '../../../src/core/model/message-table'
import { traceNodeIn } from '../../../src/core/model/trace-table'
import type { AgentState, Message } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const TOOLS: AgentClientOptions['tools'] = { pickColor: { ui: true, description: 'Ask for a colour' }, locate: { execute: () => ({ city: 'Lyon' }) } }

interface Seed {
  name?: string
  state?: string
  providerExecuted?: boolean
  turnStatus?: 'done' | 'aborted'
  /** Only the assistant turn, as a store that attached to it holds. */
  alone?: boolean
}

/** q1 (a question) and a1 (its answer) holding call-1, a call of `pickColor` waiting for its result. */
function seed(store: AgentStore, s: Seed = {}): void {
  const props: Record<string, unknown> = { toolCallId: 'call-1', name: s.name ?? 'pickColor', input: { options: ['teal', 'rust'] }, state: s.state ?? 'input-available' }
  if (s.providerExecuted !== undefined) props.providerExecuted = s.providerExecuted
  const ops: Op[] = s.alone ? [] : [
    { op: 'turn.open', turnId: 'q1', role: 'user' },
    { op: 'message.put', turnId: 'q1', messageId: 'q1/text', role: 'user', type: 'text', props: { content: 'pick one' }, status: 'done' },
    { op: 'turn.finish', turnId: 'q1', status: 'done' },
  ]
  ops.push(
    { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message', ...(s.alone ? {} : { parentId: 'q1' }) },
    { op: 'message.put', turnId: 'a1', messageId: 'a1/tool', role: 'assistant', type: 'tool', props, status: 'streaming' },
    { op: 'turn.finish', turnId: 'a1', status: s.turnStatus ?? 'done' },
  )
  store.getState().dispatch(ops)
}

function setup(s: Seed = {}, extra: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  seed(store, s)
  const agent = new ScriptedAgent()
  const client = new AgentClient(store, { url: URL, protocol: 'ui-message', conversationId: 'chat-1', fetch: agent.fetch, tools: TOOLS, ...extra })
  return { store, agent, client }
}

const call = (s: AgentState): Message => messageIn(s.messages, 'a1/tool')!

describe('respond to a call the UI answers', () => {
  it('records the result on the call at once, continues the answer with it, and says ok', async () => {
    const { store, agent, client } = setup()
    const responding = client.respond('call-1', { color: 'teal' })
    const now = store.getState()
    expect(call(now).props).toStrictEqual({ toolCallId: 'call-1', name: 'pickColor', input: { options: ['teal', 'rust'] }, state: 'output-available', output: { color: 'teal' } })
    expect(call(now).status).toBe('done')
    expect(now.turns.a1!.traceRootIds).toEqual(['a1/tool'])
    expect(traceNodeIn(now.trace, 'a1/tool')).toMatchObject({ id: 'a1/tool', kind: 'tool', tool: 'pickColor', label: 'pickColor', status: 'done', result: { color: 'teal' } })
    expect(await responding).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
    const sent = (agent.posts[0]!.body!.messages as Array<{ role: string; parts: Array<Record<string, unknown>> }>).at(-1)!
    expect(sent.role).toBe('assistant')
    expect(sent.parts.find((p) => p.toolCallId === 'call-1')).toMatchObject({ type: 'tool-pickColor', state: 'output-available', output: { color: 'teal' } })
    expect(store.getState().status).toBe('done')
  })

  it('finds the call in a store that holds only the assistant turn', async () => {
    const { store, agent, client } = setup({ alone: true })
    expect(await client.respond('call-1', 'rust')).toEqual({ ok: true })
    expect(call(store.getState()).props.output).toBe('rust')
    expect(agent.posts).toHaveLength(1)
  })

  it('finds the call behind the text its answer began with', async () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' },
      { op: 'message.put', turnId: 'a1', messageId: 'a1/text', role: 'assistant', type: 'text', props: { content: 'Let me ask.' }, status: 'done' },
      { op: 'message.put', turnId: 'a1', messageId: 'a1/tool', role: 'assistant', type: 'tool', props: { toolCallId: 'call-1', name: 'pickColor', input: {}, state: 'input-available' }, status: 'streaming' },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch, tools: TOOLS })
    expect(await client.respond('call-1', 'teal')).toEqual({ ok: true })
    const s = store.getState()
    expect(call(s).props.output).toBe('teal')
    expect(messageIn(s.messages, 'a1/text')!.props).toStrictEqual({ content: 'Let me ask.' })
  })

  it('a continuation the server refuses: respond says why', async () => {
    const { agent, client } = setup()
    agent.next({ status: 500, body: 'down' })
    const result = await client.respond('call-1', { color: 'teal' })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatchObject({ type: 'internal', message: 'HTTP 500', status: 500 })
  })

  it('a stop before the continuation leaves puts the call back to waiting, as it was, and sends nothing', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', conversationId: 'chat-1', fetch: agent.fetch, tools: TOOLS })
    agent.next({ frames: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'pickColor', input: { options: ['teal'] } }], then: 'open' })
    const sending = client.send('pick one')
    const tool = () => {
      const s = store.getState()
      return s.turns[s.turnIds[1]!]?.messageIds.map((id) => messageIn(s.messages, id)!).find((m) => m.type === 'tool')
    }
    for (let i = 0; i < 100 && tool()?.props.state !== 'input-available'; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    const before = tool()!
    const responding = client.respond('call-1', { color: 'teal' })
    expect(tool()!.props.state).toBe('output-available')
    client.stop()
    await sending
    const result = await responding
    expect(result.ok).toBe(false)
    expect(tool()!.props).toStrictEqual(before.props)
    expect(tool()!.status).toBe(before.status === 'streaming' ? 'done' : before.status)
    expect(agent.posts).toHaveLength(1)
  })
})

describe('what respond refuses, with nothing changed and nothing sent', () => {
  const refusal = (code: string, message: string) => ({ ok: false, error: { type: 'validation', message, code, retryable: false } })

  it.each([
    ['an id on no call', {}, 'call-9', { color: 'teal' }, refusal('unknown_call', 'there is no tool call "call-9" on the active path')],
    ['a tool the client does not declare', { name: 'mystery' }, 'call-1', 1, refusal('not_ui_tool', '"mystery" is not a tool the UI answers; declare it in the client\'s tools as { ui: true }')],
    ['a tool the browser runs', { name: 'locate' }, 'call-1', 1, refusal('not_ui_tool', '"locate" is not a tool the UI answers; declare it in the client\'s tools as { ui: true }')],
    ['a call the provider ran', { providerExecuted: true }, 'call-1', 1, refusal('not_ui_tool', '"pickColor" is not a tool the UI answers; declare it in the client\'s tools as { ui: true }')],
    ['a call with a result', { state: 'output-available' }, 'call-1', 1, refusal('answered', 'the tool call "call-1" already has a result')],
    ['a call that failed', { state: 'output-error' }, 'call-1', 1, refusal('answered', 'the tool call "call-1" already has a result')],
    ['a call that was denied', { state: 'output-denied' }, 'call-1', 1, refusal('answered', 'the tool call "call-1" already has a result')],
    ['a call whose input is still streaming', { state: 'input-streaming' }, 'call-1', 1, refusal('input_incomplete', 'the tool call "call-1" is not waiting for a result (input-streaming)')],
    ['a call in an answer the person stopped', { turnStatus: 'aborted' as const }, 'call-1', 1, refusal('stopped', 'the answer that made this call was stopped')],
    ['a result that is not JSON data', {}, 'call-1', { at: new Date(0) }, refusal('not_json', 'a tool result must be JSON data (no functions, class instances or cycles)')],
  ])('%s', async (_name, s, id, output, expected) => {
    const { store, agent, client } = setup(s)
    const before = store.getState()
    expect(await client.respond(id, output)).toEqual(expected)
    expect(store.getState().messages).toBe(before.messages)
    expect(store.getState().turns).toBe(before.turns)
    expect(agent.requests).toEqual([])
  })

  it('a client with no tools refuses every call as not one the UI answers', async () => {
    const { agent, client } = setup({}, { tools: undefined })
    expect(await client.respond('call-1', 1)).toEqual(refusal('not_ui_tool', '"pickColor" is not a tool the UI answers; declare it in the client\'s tools as { ui: true }'))
    expect(agent.requests).toEqual([])
  })

  it('a call whose name is not text is looked up under an empty name', async () => {
    const { client } = setup({ name: 7 as unknown as string })
    expect(await client.respond('call-1', 1)).toEqual(refusal('not_ui_tool', '"" is not a tool the UI answers; declare it in the client\'s tools as { ui: true }'))
  })
})

describe('respondOps', () => {
  it('records the result, and its undo puts back the props and the status the call had', () => {
    const waiting: Message = {
      id: 'a1/tool', turnId: 'a1', role: 'assistant', type: 'tool', status: 'streaming',
      props: { toolCallId: 'call-1', name: 'pickColor', state: 'input-available', input: {} },
    } as Message
    expect(respondOps(waiting, { color: 'teal' })).toStrictEqual({
      apply: [
        { op: 'message.delta', turnId: 'a1', messageId: 'a1/tool', type: 'tool', action: 'set', path: '', value: { state: 'output-available', output: { color: 'teal' } } },
        { op: 'message.finish', messageId: 'a1/tool', status: 'done' },
        { op: 'trace.node', turnId: 'a1', node: { id: 'a1/tool', kind: 'tool', tool: 'pickColor', label: 'pickColor', status: 'done', result: { color: 'teal' } } },
      ],
      undo: [
        { op: 'message.delta', turnId: 'a1', messageId: 'a1/tool', type: 'tool', action: 'replace', path: '', value: { toolCallId: 'call-1', name: 'pickColor', state: 'input-available', input: {} } },
        { op: 'message.finish', messageId: 'a1/tool', status: 'done' },
      ],
    })
    expect(respondOps({ ...waiting, status: 'error' } as Message, 1).undo[1]).toEqual({ op: 'message.finish', messageId: 'a1/tool', status: 'error' })
  })
})
