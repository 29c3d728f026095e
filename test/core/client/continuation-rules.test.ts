/**
 * The continuation loop's rules, exactly, against a scripted fetch: what an answer
 * does to its gate and the tool it holds back (per kind), which entry it becomes
 * in the next request, where a gate's answer goes (the request, or the host's
 * `continueGate`), what a stop withdraws, and what a refused continuation leaves.
 * The store is seeded with the gate and its turn, so each case names its input.
 */
import { describe, expect, it, vi } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState, Gate } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import type { ProtocolDefinition } from '../../../src/core/protocol/types'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { builtInProtocols } from '../../../src/protocols/index'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/protocol'
import { AgentClient } from '../../helpers/built-in-client'
import { manualScheduler } from '../../helpers/manual-scheduler'
import { answer, ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'

/** A client over a scripted agent whose UI message builder records every request context. */
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

interface Seed {
  kind?: string
  payload?: unknown
  /** The tool message's state; no tool message when undefined. */
  toolState?: string
  approval?: unknown
  url?: string
  protocol?: string
  withToolCall?: boolean
}

/** q1 (a question) and a1 (its answer, done) with gate g1 pending on a1, over call-1's tool message. */
function seed(store: AgentStore, s: Seed = {}): void {
  const { kind = 'tool-approval', payload = { approvalId: 'ap-1', toolCallId: 'call-1' }, toolState = 'approval-requested', protocol = 'ui-message' } = s
  const ops: Op[] = [
    { op: 'turn.open', turnId: 'q1', role: 'user' },
    { op: 'message.put', turnId: 'q1', messageId: 'q1/text', role: 'user', type: 'text', props: { content: 'delete it' }, status: 'done' },
    { op: 'turn.finish', turnId: 'q1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol },
  ]
  if (s.toolState !== undefined || !('toolState' in s)) {
    ops.push({
      op: 'message.put', turnId: 'a1', messageId: 'a1/tool', role: 'assistant', type: 'tool', status: 'done',
      props: { toolCallId: 'call-1', name: 'deleteFile', input: { path: '/x' }, state: toolState, ...(s.approval !== undefined ? { approval: s.approval } : {}) },
    })
  }
  ops.push(
    {
      op: 'gate.open',
      gate: { id: 'g1', turnId: 'a1', kind, question: 'Allow?', payload, ...(s.withToolCall === false ? {} : { toolCallId: 'call-1' }), ...(s.url !== undefined ? { url: s.url } : {}) },
    },
    { op: 'turn.finish', turnId: 'a1', status: 'done' },
  )
  store.getState().dispatch(ops)
}

const toolProps = (s: AgentState) => messageIn(s.messages, 'a1/tool')!.props
const gate = (s: AgentState): Gate => s.gates.g1!
const texts = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content))
const validation = (message: string, extra: Record<string, unknown> = {}) => ({ ok: false, error: { type: 'validation', message, retryable: false, ...extra } })

describe('an answer as the store shows it at once', () => {
  it('an approval: the gate approved with its response, the tool responded with the approval id, approved and the reason', async () => {
    const { store, client } = setup()
    seed(store, { approval: { id: 'ap-1' } })
    expect(await client.answer('g1', { approved: true, reason: 'fine' })).toEqual({ ok: true })
    const s = store.getState()
    expect(gate(s).status).toBe('approved')
    expect(gate(s).response).toEqual({ approved: true, reason: 'fine' })
    expect(toolProps(s).approval).toStrictEqual({ id: 'ap-1', approved: true, reason: 'fine' })
  })

  it('a refusal without a reason: rejected, and the approval has no reason key', async () => {
    const { store, client, agent } = setup()
    agent.next(answer('not deleted'))
    seed(store, { approval: { id: 'ap-1' } })
    expect(await client.answer('g1', { approved: false })).toEqual({ ok: true })
    const s = store.getState()
    expect(gate(s).status).toBe('rejected')
    const sent = agent.posts[0]!.body as { messages: Array<{ parts: Array<Record<string, unknown>> }> }
    expect(sent.messages[1]!.parts.find((p) => p.type === 'tool-deleteFile')!.approval).toStrictEqual({ id: 'ap-1', approved: false })
  })

  it('a tool message whose approval is not an object gets a fresh one', async () => {
    const { store, client } = setup()
    seed(store, { approval: 'ap-1' })
    await client.answer('g1', { approved: true })
    expect(toolProps(store.getState()).approval).toStrictEqual({ approved: true })
  })

  it('an approval moves its tool on from any state', async () => {
    const { store, client } = setup()
    seed(store, { toolState: 'input-available' })
    await client.answer('g1', { approved: false })
    expect(toolProps(store.getState())).toMatchObject({ state: 'approval-responded', approval: { approved: false } })
  })

  it('an interrupt answered with a value: answered, and the tool it held back goes on as approved', async () => {
    const { store, client } = setup()
    seed(store, { kind: 'interrupt', payload: { id: 'int-1' }, approval: { id: 'ap-1' } })
    await client.answer('g1', 42)
    const s = store.getState()
    expect(gate(s).status).toBe('answered')
    expect(gate(s).response).toBe(42)
    expect(toolProps(s).state).toBe('approval-responded')
    expect(toolProps(s).approval).toStrictEqual({ id: 'ap-1', approved: true })
  })

  it('an interrupt answered with null or a non-boolean approved is answered, not approved', async () => {
    for (const response of [null, { approved: 'yes' }, { reason: 7 }]) {
      const { store, client } = setup()
      seed(store, { kind: 'interrupt', payload: { id: 'int-1' }, approval: { id: 'ap-1' } })
      expect(await client.answer('g1', response as never)).toEqual({ ok: true })
      const s = store.getState()
      expect(gate(s).status).toBe('answered')
      expect(toolProps(s).approval).toStrictEqual({ id: 'ap-1', approved: true })
    }
  })

  it('an interrupt answered with a reason keeps it on the approval', async () => {
    const { store, client } = setup()
    seed(store, { kind: 'interrupt', payload: {}, approval: { id: 'ap-1' } })
    await client.answer('g1', { reason: 'go' })
    expect(toolProps(store.getState()).approval).toStrictEqual({ id: 'ap-1', approved: true, reason: 'go' })
  })

  it('an interrupt answered with a value leaves a tool that is not waiting for approval alone', async () => {
    const { store, client } = setup()
    seed(store, { kind: 'interrupt', payload: {}, toolState: 'input-available' })
    await client.answer('g1', 'anything')
    const s = store.getState()
    expect(gate(s).status).toBe('answered')
    expect(toolProps(s)).toStrictEqual({ toolCallId: 'call-1', name: 'deleteFile', input: { path: '/x' }, state: 'input-available' })
  })

  it('an action review: all approve is approved, all reject rejected, a mix or an edit only answered', async () => {
    const review = { interrupt: { action_requests: [{ name: 'a' }, { name: 'b' }] } }
    const cases: Array<[unknown[], string]> = [
      [[{ type: 'approve' }, { type: 'approve' }], 'approved'],
      [[{ type: 'reject' }, { type: 'reject', message: 'no' }], 'rejected'],
      [[{ type: 'approve' }, { type: 'reject' }], 'answered'],
      [[{ type: 'edit', edited_action: { name: 'a', args: {} } }, { type: 'edit', edited_action: { name: 'b', args: {} } }], 'answered'],
    ]
    for (const [decisions, status] of cases) {
      const { store, client, contexts } = setup()
      seed(store, { kind: 'interrupt', payload: review, toolState: undefined, withToolCall: false })
      expect(await client.answer('g1', { decisions } as never)).toEqual({ ok: true })
      expect(gate(store.getState()).status).toBe(status)
      expect(contexts[0]!.answers).toStrictEqual([{ gateId: 'g1', kind: 'action-review', response: { decisions }, interruptId: 'g1' }])
    }
  })
})

describe('the entry an answer becomes in the next request', () => {
  const cases: Array<[string, unknown, string]> = [
    ['payload.id', { id: 'int-1', approvalId: 'ap-9' }, 'int-1'],
    ['payload.approvalId when id is not a string', { id: 5, approvalId: 'ap-9' }, 'ap-9'],
    ['the gate id when neither is a string', { id: 5, approvalId: 7 }, 'g1'],
    ['the gate id when the payload is not an object', 'resume me', 'g1'],
  ]
  for (const [what, payload, interruptId] of cases) {
    it(`interruptId: ${what}`, async () => {
      const { store, client, contexts, agent } = setup()
      seed(store, { kind: 'interrupt', payload, toolState: undefined, withToolCall: false })
      expect(await client.answer('g1', { go: true })).toEqual({ ok: true })
      expect(contexts).toHaveLength(1)
      expect(contexts[0]!.answers).toStrictEqual([{ gateId: 'g1', kind: 'interrupt', response: { go: true }, interruptId }])
      expect(contexts[0]!.trigger).toBe('continue')
      expect(contexts[0]!.path).toEqual(['q1', 'a1'])
      expect(contexts[0]!.turnId).toBe('a1')
      expect(agent.posts).toHaveLength(1)
    })
  }

  it('the continuation reopens the answer turn, and its messages are scoped to the continuation', async () => {
    const { store, client, agent } = setup()
    seed(store, { approval: { id: 'ap-1' } })
    agent.next({ frames: [{ type: 'start', messageId: 'm2' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Deleted' }], then: 'open' })
    const answering = client.answer('g1', { approved: true })
    for (let i = 0; i < 200 && texts(store.getState(), 'a1').join('') !== 'Deleted'; i++) await new Promise((r) => setTimeout(r, 5))
    expect(store.getState().turns.a1!.status).toBe('streaming')
    const textIds = store.getState().turns.a1!.messageIds.filter((id) => messageIn(store.getState().messages, id)!.type === 'text')
    expect(textIds).toHaveLength(1)
    expect(textIds[0]!.startsWith('a1~1')).toBe(true)
    agent.closeAll(true)
    expect(await answering).toEqual({ ok: true })
    expect(store.getState().turns.a1!.status).toBe('done')
  })

  it('a second continuation of the same turn counts on: a1~2', async () => {
    const { store, client, agent } = setup()
    seed(store, { approval: { id: 'ap-1' } })
    agent.next(answer('one'))
    await client.answer('g1', { approved: true })
    store.getState().dispatch([
      { op: 'gate.open', gate: { id: 'g2', turnId: 'a1', kind: 'interrupt', question: '?', payload: {} } },
    ])
    agent.next(answer('two'))
    await client.answer('g2', 1)
    const s = store.getState()
    const ids = s.turns.a1!.messageIds.filter((id) => messageIn(s.messages, id)!.type === 'text')
    expect(ids.map((id) => id.split('/')[0])).toEqual(['a1~1', 'a1~2'])
  })
})

describe('answers the client refuses', () => {
  it('an unknown gate, a second answer, an approval that is not one', async () => {
    const { store, client, agent } = setup()
    seed(store)
    expect(await client.answer('nope', { approved: true })).toEqual(validation('there is no gate "nope"'))
    expect(await client.answer('g1', { yes: 1 } as never)).toEqual(validation('an approval is answered with { approved: boolean, reason?: string }'))
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(await client.answer('g1', { approved: true })).toEqual(validation('the gate "g1" was already answered (approved)'))
    expect(agent.posts).toHaveLength(1)
  })
})

describe('gates answered through the host', () => {
  const hostRefusal = validation('this gate is answered at a URL the server named; give the client a continueGate function to send it there')

  it('a Vocion gate without continueGate is refused and nothing changes', async () => {
    const { store, client, agent } = setup()
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    const before = store.getState().gates
    expect(await client.answer('g1', { approved: true })).toEqual(hostRefusal)
    expect(store.getState().gates).toBe(before)
    expect(agent.requests).toHaveLength(0)
  })

  it('a gate that names a URL goes through the host on any protocol', async () => {
    const { store, client } = setup()
    seed(store, { url: 'https://agent.invalid/resume/g1' })
    expect(await client.answer('g1', { approved: true })).toEqual(hostRefusal)
  })

  it('a gate on a turn of no known protocol and without a URL goes in the next request', async () => {
    const { store, client, agent } = setup()
    seed(store, { protocol: 'unheard-of', kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    expect(await client.answer('g1', 'yes')).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
  })

  it('continueGate gets the gate, the response, the client fetch and a live signal; nothing else is sent when it returns nothing', async () => {
    const seen: Array<{ gate: Gate; response: unknown; fetch: unknown; signal: AbortSignal }> = []
    const { store, client, agent } = setup({
      continueGate: async (g, response, { fetch, signal }) => {
        seen.push({ gate: g, response, fetch, signal })
      },
    })
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: { to: 'ana' }, toolState: undefined, withToolCall: false })
    const opened = gate(store.getState())
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(seen).toHaveLength(1)
    expect(seen[0]!.gate).toEqual(opened)
    expect(seen[0]!.response).toEqual({ approved: true })
    expect(seen[0]!.fetch).toBe(agent.fetch)
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal)
    expect(seen[0]!.signal.aborted).toBe(false)
    expect(agent.requests).toHaveLength(0)
    expect(gate(store.getState()).status).toBe('approved')
    // A call that has returned is no longer the client's: a later stop leaves it alone.
    client.stop()
    expect(seen[0]!.signal.aborted).toBe(false)
  })

  it('without a fetch option continueGate gets the global fetch, bound', async () => {
    let given: unknown
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('ok'))
    try {
      const { store, client } = setup({ fetch: undefined, continueGate: async (_g, _r, { fetch }) => void (given = fetch) })
      seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
      await client.answer('g1', { approved: true })
      expect(typeof given).toBe('function')
      expect(given).not.toBe(undefined)
      await (given as typeof fetch)('http://x.invalid/')
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('a stop while continueGate runs aborts its signal', async () => {
    let signal: AbortSignal | undefined
    let release: () => void = () => {}
    const { store, client } = setup({
      continueGate: (_g, _r, context) => new Promise<void>((resolve) => {
        signal = context.signal
        release = resolve
      }),
    })
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    const answering = client.answer('g1', { approved: true })
    await new Promise((r) => setTimeout(r, 0))
    expect(signal!.aborted).toBe(false)
    client.stop()
    expect(signal!.aborted).toBe(true)
    release()
    expect(await answering).toEqual({ ok: true })
  })

  it('continueGate that throws: a network error, and the gate is pending again with the problem', async () => {
    const { store, client } = setup({ continueGate: async () => { throw new Error('host down') } })
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    const result = await client.answer('g1', { approved: true })
    expect(result).toMatchObject({ ok: false, error: { type: 'network', message: 'host down' } })
    const s = store.getState()
    expect(gate(s).status).toBe('pending')
    expect(gate(s).response).toBeUndefined()
    expect(s.turns.a1!.problems.map((p) => p.message)).toEqual(['host down'])
  })

  it('a request continueGate returns is streamed into the gate turn as a continuation', async () => {
    const { store, client, agent } = setup({
      continueGate: async () => ({ url: 'https://agent.invalid/resume', method: 'POST', headers: new Headers({ 'x-k': '1' }), body: '{"resume":true}' }),
    })
    agent.next(answer('sent'))
    seed(store, { kind: 'hitl', protocol: 'ui-message', url: 'https://agent.invalid/resume', payload: {}, toolState: undefined, withToolCall: false })
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(agent.requests).toHaveLength(1)
    expect(agent.requests[0]).toMatchObject({ url: 'https://agent.invalid/resume', method: 'POST', body: { resume: true } })
    const s = store.getState()
    expect(texts(s, 'a1')).toEqual(['sent'])
    expect(s.turns.a1!.messageIds.find((id) => id.startsWith('a1~1'))).toBeDefined()
    expect(s.turns.a1!.status).toBe('done')
  })

  it('a request continueGate returns that fails: refused, and the gate is pending again', async () => {
    const { store, client, agent } = setup({ continueGate: async () => ({ url: 'https://agent.invalid/resume', method: 'POST', headers: new Headers(), body: '{}' }) })
    agent.next({ status: 500, body: 'nope' })
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    const result = await client.answer('g1', { approved: true })
    expect(result.ok).toBe(false)
    const s = store.getState()
    expect(gate(s).status).toBe('pending')
    expect(s.turns.a1!.status).toBe('done')
  })
})

describe('a continuation the server refuses', () => {
  it('the gate is pending again, the tool asks again with its approval id, the turn is done and says why once', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' })
    seed(store, { approval: { id: 'ap-1' } })
    const result = await client.answer('g1', { approved: true })
    expect(result.ok).toBe(false)
    const error = (result as { error: { message: string } }).error
    const s = store.getState()
    expect(gate(s).status).toBe('pending')
    expect(gate(s).response).toBeUndefined()
    expect(toolProps(s)).toStrictEqual({ toolCallId: 'call-1', name: 'deleteFile', input: { path: '/x' }, state: 'approval-requested', approval: { id: 'ap-1' } })
    expect(messageIn(s.messages, 'a1/tool')!.status).toBe('done')
    expect(s.turns.a1!.status).toBe('done')
    expect(s.turns.a1!.problems.filter((p) => p.message === error.message)).toHaveLength(1)
  })

  it('an approval without an id string is not replaced: only the state asks again', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' })
    seed(store, { approval: { id: 3 } })
    await client.answer('g1', { approved: true })
    expect(toolProps(store.getState())).toStrictEqual({ toolCallId: 'call-1', name: 'deleteFile', input: { path: '/x' }, state: 'approval-requested', approval: { id: 3, approved: true } })
  })

  it('a gate without a tool is reopened alone', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' })
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    expect((await client.answer('g1', 1)).ok).toBe(false)
    expect(gate(store.getState()).status).toBe('pending')
  })

  it('a later answer that goes through reports its own result, not the refused one', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' }, answer('Deleted'))
    seed(store, { approval: { id: 'ap-1' } })
    expect((await client.answer('g1', { approved: true })).ok).toBe(false)
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(texts(store.getState(), 'a1')).toEqual(['Deleted'])
  })

  it('an answer on a branch no longer shown: off_path, the gate pending again, one problem', async () => {
    const { store, client, agent } = setup()
    seed(store)
    // Another answer to q1, shown instead of a1.
    store.getState().dispatch([{ op: 'turn.open', turnId: 'a2', role: 'assistant', parentId: 'q1' }, { op: 'turn.finish', turnId: 'a2', status: 'done' }])
    expect(store.getState().turnIds).toEqual(['q1', 'a2'])
    const result = await client.answer('g1', { approved: true })
    expect(result).toEqual(validation('this answer is on a branch that is not shown; select it again to go on', { code: 'off_path' }))
    const s = store.getState()
    expect(gate(s).status).toBe('pending')
    expect(s.turns.a1!.problems.map((p) => p.code)).toEqual(['off_path'])
    expect(agent.requests).toHaveLength(0)
  })
})

describe('answers and client tools together', () => {
  it('an answered gate beside a client call not yet run: the tool runs, and one request carries both', async () => {
    const { store, client, contexts, agent } = setup({ tools: { locate: { execute: () => ({ city: 'Lyon' }) } } })
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'message.put', turnId: 'a1', messageId: 'a1/locate', role: 'assistant', type: 'tool', status: 'done', props: { toolCallId: 'call-9', name: 'locate', input: {}, state: 'input-available' } },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    expect(await client.answer('g1', 'go')).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
    expect(contexts[0]!.answers).toHaveLength(1)
    expect(messageIn(store.getState().messages, 'a1/locate')!.props).toMatchObject({ state: 'output-available', output: { city: 'Lyon' } })
  })

  it('after a refused continuation, answering one of two gates again waits for the other and reports ok', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' })
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    store.getState().dispatch([{ op: 'gate.open', gate: { id: 'g2', turnId: 'a1', kind: 'interrupt', question: '?', payload: {} } }])
    expect(await client.answer('g1', 1)).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(0)
    expect((await client.answer('g2', 2)).ok).toBe(false)
    expect(agent.posts).toHaveLength(1)
    expect(store.getState().gates.g1!.status).toBe('pending')
    expect(await client.answer('g1', 1)).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
  })

  it('a refused continuation leaves a tool that was not waiting for approval as it was', async () => {
    const { store, client, agent } = setup()
    agent.next({ status: 500, body: 'down' })
    seed(store, { kind: 'interrupt', payload: {}, toolState: 'output-available' })
    store.getState().dispatch([
      { op: 'message.put', turnId: 'a1', messageId: 'a1/tool', role: 'assistant', type: 'tool', status: 'done', props: { toolCallId: 'call-1', name: 'deleteFile', state: 'output-available', output: 1, providerExecuted: true } },
    ])
    expect((await client.answer('g1', 'x')).ok).toBe(false)
    expect(toolProps(store.getState())).toStrictEqual({ toolCallId: 'call-1', name: 'deleteFile', state: 'output-available', output: 1, providerExecuted: true })
  })

  it('tool results alone, refused by the server: the turn is done with the error, and no problem repeats it', async () => {
    const { store, client, agent } = setup({ tools: { locate: { execute: () => ({ city: 'Lyon' }) } } })
    agent.next(
      { frames: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'locate', input: {} }, { type: 'finish' }], then: 'end', done: true },
      { status: 500, body: 'down' },
    )
    await client.send('where?')
    const s = store.getState()
    const a = s.turnIds[1]!
    expect(agent.posts).toHaveLength(2)
    expect(s.turns[a]!.status).toBe('done')
    expect(s.turns[a]!.error).toMatchObject({ type: 'internal', message: 'HTTP 500', status: 500 })
    expect(s.turns[a]!.problems).toEqual([])
    expect(s.status).toBe('error')
  })
})

describe('more rules of the loop', () => {
  it('a client call whose input arrived in the batch a stop flushed is never run', async () => {
    let ran = 0
    const { scheduler } = manualScheduler()
    const { store, client, agent } = setup({ scheduler, tools: { locate: { execute: () => ++ran } } })
    agent.next({ frames: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'locate', input: {} }], then: 'open' })
    const sending = client.send('where?')
    for (let i = 0; i < 100 && agent.posts.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 30))
    client.stop()
    await sending
    await new Promise((r) => setTimeout(r, 20))
    const s = store.getState()
    const a = s.turnIds[1]!
    expect(s.turns[a]!.status).toBe('aborted')
    expect(s.turns[a]!.messageIds.map((id) => messageIn(s.messages, id)!.props.state)).toEqual(['input-available'])
    expect(ran).toBe(0)
    expect(agent.posts).toHaveLength(1)
  })

  it('a continuation speaks its own turn protocol, not the latest one on the path', async () => {
    const store = createAgentStore()
    const agent = new ScriptedAgent()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch, conversationId: 'c' })
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'q2', role: 'user' }, { op: 'turn.finish', turnId: 'q2', status: 'done' },
      { op: 'turn.open', turnId: 'a2', role: 'assistant', protocol: 'yao' }, { op: 'turn.finish', turnId: 'a2', status: 'done' },
    ])
    expect(await client.answer('g1', 'go')).toEqual({ ok: true })
    expect(agent.posts[0]!.body).toMatchObject({ id: 'c', trigger: 'submit-message' })
  })

  it('an interrupt that is no review, answered with decisions, is only answered', async () => {
    const { store, client } = setup()
    seed(store, { kind: 'interrupt', payload: { id: 'i' }, toolState: undefined, withToolCall: false })
    await client.answer('g1', { decisions: [{ type: 'approve' }] } as never)
    expect(gate(store.getState()).status).toBe('answered')
  })

  it('a host continuation reopens the gate turn while it streams, and is refused when that turn is no longer shown', async () => {
    const { store, client, agent } = setup({ continueGate: async () => ({ url: 'https://agent.invalid/resume', method: 'POST', headers: new Headers(), body: '{}' }) })
    seed(store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    agent.next({ hold: true })
    store.getState().dispatch([{ op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' }, { op: 'turn.finish', turnId: 'a1', status: 'done' }])
    const answering = client.answer('g1', { approved: true })
    for (let i = 0; i < 200 && agent.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    // Connecting: nothing has arrived yet, and the turn already shows it goes on.
    expect(store.getState().status).toBe('connecting')
    expect(store.getState().turns.a1!.status).toBe('streaming')
    agent.closeAll(true)
    expect(await answering).toEqual({ ok: true })

    const hidden = setup({ continueGate: async () => ({ url: 'https://agent.invalid/resume', method: 'POST', headers: new Headers(), body: '{}' }) })
    seed(hidden.store, { kind: 'hitl', protocol: 'vocion', payload: {}, toolState: undefined, withToolCall: false })
    hidden.store.getState().dispatch([{ op: 'turn.open', turnId: 'a2', role: 'assistant', parentId: 'q1' }, { op: 'turn.finish', turnId: 'a2', status: 'done' }])
    expect(await hidden.client.answer('g1', { approved: true })).toEqual(validation('this answer is on a branch that is not shown; select it again to go on', { code: 'off_path' }))
    expect(hidden.agent.requests).toHaveLength(0)
    expect(gate(hidden.store.getState()).status).toBe('pending')
  })

  it('a response with no events at all does not leave the turn streaming', async () => {
    const store = createAgentStore()
    const fetch = (async () => new Response('', { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })) as typeof globalThis.fetch
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', fetch })
    await client.send('q')
    const s = store.getState()
    expect(s.turns[s.turnIds[1]!]!.status).not.toBe('streaming')
    expect(s.status).not.toBe('idle')
  })
})

describe('stop and answer', () => {
  it('answered then stopped in the same tick: withdrawn, the gate and tool as before, no problem, nothing sent', async () => {
    const { store, client, agent } = setup()
    seed(store, { approval: { id: 'ap-1' } })
    const answering = client.answer('g1', { approved: true })
    client.stop()
    expect(await answering).toEqual(validation('stopped before the answer was sent', { code: 'stopped' }))
    await new Promise((r) => setTimeout(r, 20))
    const s = store.getState()
    expect(agent.requests).toHaveLength(0)
    expect(gate(s).status).toBe('pending')
    expect(gate(s).response).toBeUndefined()
    expect(toolProps(s)).toStrictEqual({ toolCallId: 'call-1', name: 'deleteFile', input: { path: '/x' }, state: 'approval-requested', approval: { id: 'ap-1' } })
    expect(s.turns.a1!.problems).toEqual([])
    // The answer can be given again, and goes.
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
  })

  it('stopped while the continuation streams: the answer was sent, so answer() reports ok, and the gate stays answered', async () => {
    const { store, client, agent } = setup()
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    agent.next({ frames: [{ type: 'start', messageId: 'm2' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'going' }], then: 'open' })
    const answering = client.answer('g1', 'yes')
    for (let i = 0; i < 200 && texts(store.getState(), 'a1').join('') !== 'going'; i++) await new Promise((r) => setTimeout(r, 5))
    client.stop()
    expect(await answering).toEqual({ ok: true })
    const s = store.getState()
    expect(agent.posts).toHaveLength(1)
    expect(gate(s).status).toBe('answered')
    expect(s.turns.a1!.status).toBe('aborted')
    expect(texts(s, 'a1')).toEqual(['going'])
    expect(s.turns.a1!.problems).toEqual([])
  })

  it('stopped then answered: the answer is the later act and goes', async () => {
    const { store, client, agent } = setup()
    seed(store)
    client.stop()
    expect(await client.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(1)
  })

  it('an answer on a stopped turn goes on without running the client tools it called', async () => {
    const ranAfter: number[] = []
    const { store, client, agent, contexts } = setup({ tools: { locate: { execute: () => void ranAfter.push(agent.posts.length) } } })
    seed(store, { kind: 'interrupt', payload: {}, toolState: undefined, withToolCall: false })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'message.put', turnId: 'a1', messageId: 'a1/locate', role: 'assistant', type: 'tool', status: 'done', props: { toolCallId: 'call-9', name: 'locate', input: {}, state: 'input-available' } },
      { op: 'turn.finish', turnId: 'a1', status: 'aborted' },
    ])
    expect(await client.answer('g1', 'go')).toEqual({ ok: true })
    // The tool ran only once the continuation had brought the turn to done.
    expect(ranAfter).toEqual([1])
    expect(contexts[0]!.answers).toStrictEqual([{ gateId: 'g1', kind: 'interrupt', response: 'go', interruptId: 'g1' }])
  })

  it('a stopped turn without an answer does not go on', async () => {
    let ran = 0
    const { store, client, agent } = setup({ tools: { locate: { execute: () => ++ran } } })
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message' },
      { op: 'message.put', turnId: 'a1', messageId: 'a1/locate', role: 'assistant', type: 'tool', status: 'done', props: { toolCallId: 'call-9', name: 'locate', input: {}, state: 'input-available' } },
      { op: 'turn.finish', turnId: 'a1', status: 'aborted' },
    ])
    await client.regenerate('a1')
    expect(ran).toBe(0)
    expect(agent.posts).toHaveLength(1)
  })

  it('an answer while another turn streams waits for that run: nothing is sent until it ends, then the one continuation, and only then a yes', async () => {
    const { store, client, agent } = setup()
    seed(store, { approval: { id: 'ap-1' } })
    agent.next({ frames: [{ type: 'start', messageId: 'm3' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'busy' }], then: 'open' })
    // A send beside a waiting gate goes at once, as a steer does.
    const sending = client.send('another question', { whileRunning: 'steer' })
    for (let i = 0; i < 200 && store.getState().status !== 'streaming'; i++) await new Promise((r) => setTimeout(r, 5))
    let answered: unknown
    const answering = client.answer('g1', { approved: true }).then((r) => (answered = r))
    await new Promise((r) => setTimeout(r, 20))
    expect(answered).toBeUndefined()
    expect(agent.posts).toHaveLength(1)
    expect(store.getState().status).toBe('streaming')
    agent.closeAll(true)
    await sending
    await answering
    expect(answered).toEqual({ ok: true })
    expect(agent.posts).toHaveLength(2)
    const s = store.getState()
    expect(s.gates.g1!.status).toBe('approved')
    for (const id of s.turns[s.gates.g1!.turnId]!.messageIds) expect(messageIn(s.messages, id)!.status).not.toBe('streaming')
  })
})
