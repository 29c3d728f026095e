/**
 * Picking a stream up again, exactly: what the store shows while `attach()` and
 * `retry()` reconnect, when `retry()` has nothing to go on from, and the handle
 * the client writes (only when it changed, and with the protocol the stream was
 * read as when the client names none).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import type { ResumeStorage } from '../../../src/core/resume/types'
import { createAgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
const whole = [...partial, { type: 'text-delta', id: 't', delta: ' and the rest' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

const options = (agent: ScriptedAgent, storage: ResumeStorage, extra: Partial<AgentClientOptions> = {}): AgentClientOptions => ({
  url: URL, protocol: 'ui-message', fetch: agent.fetch,
  resume: { conversationKey: 'a', storage, maxRetries: 1, backoff: { sleep: async () => true } },
  ...extra,
})

/** A run whose connection dropped and whose one reconnect was refused: parked, its handle stored. */
async function parked(agent: ScriptedAgent, storage: ResumeStorage, extra: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  agent.next({ frames: partial, then: 'drop' }, { status: 503 })
  const client = new AgentClient(store, options(agent, storage, extra))
  await client.send('q')
  return { store, client }
}

function statusesOf(store: ReturnType<typeof createAgentStore>): string[] {
  const seen: string[] = []
  store.subscribe((s, prev) => {
    if (s.status !== prev.status) seen.push(s.status)
  })
  return seen
}

describe('attach() while it reconnects', () => {
  it('the store shows reconnecting, with the cursor on the stored turn, before any byte arrives', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const { store } = await parked(agent, storage)
    const turnId = store.getState().turnIds[1]!
    agent.next({ hold: true })
    const attaching = new AgentClient(store, options(agent, storage)).attach()
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(store.getState().status).toBe('reconnecting')
    expect(store.getState().cursor).toMatchObject({ turnId, protocol: 'ui-message' })
    agent.closeAll()
    expect(await attaching).toBe(true)
  })
})

describe('retry()', () => {
  it('after a run that ended well there is nothing to go on from: no request, nothing changes', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const store = createAgentStore()
    const client = new AgentClient(store, options(agent, storage))
    await client.send('q')
    const before = store.getState()
    await client.retry()
    expect(agent.requests).toHaveLength(1)
    expect(store.getState().turns).toBe(before.turns)
    expect(store.getState().status).toBe('done')
  })

  it('from a parked run: the store shows reconnecting, then the rest lands in the same turn', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const { store, client } = await parked(agent, storage)
    expect(store.getState().status).toBe('error')
    const seen = statusesOf(store)
    agent.next({ frames: whole, then: 'end', done: true })
    await client.retry()
    expect(seen[0]).toBe('reconnecting')
    expect(seen.at(-1)).toBe('done')
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(textOf(s, s.turnIds[1]!)).toBe('partial and the rest')
  })
})

describe('the stored handle', () => {
  it('is written only when it changed', async () => {
    const agent = new ScriptedAgent()
    const writes: string[] = []
    const inner = memoryStorage()
    const storage: ResumeStorage = { ...inner, setItem: (key, value) => { writes.push(value); inner.setItem(key, value) } }
    await parked(agent, storage)
    expect(writes.length).toBeGreaterThan(0)
    for (let i = 1; i < writes.length; i++) expect(writes[i], `write ${i}`).not.toBe(writes[i - 1])
  })

  it('names the protocol the stream was read as when the client names none', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const { store } = await parked(agent, storage, { protocol: undefined, resume: { conversationKey: 'a', storage, maxRetries: 1, strategy: 'ai-sdk', backoff: { sleep: async () => true } } })
    expect(store.getState().turns[store.getState().turnIds[1]!]!.protocol).toBe('ui-message')
    const stored = JSON.parse(storage.getItem(resumeStorageKey('a'))!) as { handle: { protocol?: string } }
    expect(stored.handle.protocol).toBe('ui-message')
  })
})

describe('how a run ends', () => {
  it('an attach into a fresh store whose stream has nothing left (204): nothing shows, the stream is idle and the handle goes', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    await parked(agent, storage)
    const fresh = createAgentStore()
    agent.next({ status: 204 })
    expect(await new AgentClient(fresh, options(agent, storage)).attach()).toBe(true)
    expect(fresh.getState().turnIds).toEqual([])
    expect(fresh.getState().status).toBe('idle')
    expect(storage.getItem(resumeStorageKey('a'))).toBeNull()
  })

  it("an error the agent sends on a resumable run: the stream shows the turn's own error, the host hears it once, and the handle goes", async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const errors: unknown[] = []
    const store = createAgentStore()
    agent.next({ frames: [{ type: 'start', messageId: 'm1' }, { type: 'error', errorText: 'model overloaded' }], then: 'end', done: true })
    await new AgentClient(store, options(agent, storage, { onError: (e) => void errors.push(e) })).send('q')
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(turn.status).toBe('error')
    expect(s.status).toBe('error')
    expect(s.error).toEqual(turn.error)
    expect(errors).toEqual([turn.error])
    expect(storage.getItem(resumeStorageKey('a'))).toBeNull()
  })

  it("a stop tells the host's source to cancel the run it started, once, with the run id and the client's fetch; a cancel that fails is ignored", async () => {
    const agent = new ScriptedAgent()
    const cancels: unknown[] = []
    const store = createAgentStore()
    const client = new AgentClient(store, {
      protocol: 'ui-message', fetch: agent.fetch,
      source: {
        open: async () => ({ url: URL, runId: 'run-7' }),
        cancel: (context) => {
          cancels.push(context)
          throw new Error('the server is gone')
        },
      },
    })
    agent.next({ frames: partial, then: 'open' })
    const sending = client.send('q')
    await new Promise((resolve) => setTimeout(resolve, 10))
    client.stop()
    await sending
    await new Promise((resolve) => setTimeout(resolve, 0))
    const turnId = store.getState().turnIds[1]!
    expect(cancels).toEqual([{ turnId, runId: 'run-7', fetch: agent.fetch }])
    expect(store.getState().turns[turnId]!.status).toBe('aborted')
    expect(store.getState().status).toBe('aborted')
  })
})
