/**
 * When a stream cannot be resumed and the host loads history instead
 * (`resume.loadHistory`): what the loader is told, what an empty history keeps,
 * a loader that throws, history given as turns rather than ops, and a stream
 * with nothing to show in a fresh store; plus a stop while a re-attach connects.
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import type { HistoryContext, HistoryResult, ResumeStorage } from '../../../src/core/resume/types'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

function setup(loadHistory: (context: HistoryContext) => Promise<HistoryResult>, storage: ResumeStorage = memoryStorage()) {
  const agent = new ScriptedAgent()
  const calls: Array<Pick<HistoryContext, 'conversationKey' | 'reason'> & { handle: boolean }> = []
  const options: AgentClientOptions = {
    url: URL, protocol: 'ui-message', fetch: agent.fetch,
    resume: {
      conversationKey: 'c1', storage, maxRetries: 1, backoff: { sleep: async () => true },
      loadHistory: (context) => {
        calls.push({ conversationKey: context.conversationKey, reason: context.reason, handle: context.handle !== undefined })
        return loadHistory(context)
      },
    },
  }
  return { agent, calls, options, storage }
}

describe('history in place of a stream that cannot go on', () => {
  it('expired (404) with an empty history: the loader is told why, the answer keeps what arrived and ends interrupted, the handle goes', async () => {
    const { agent, calls, options, storage } = setup(async () => [])
    agent.next({ frames: partial, then: 'drop' }, { status: 404 })
    const store = createAgentStore()
    await new AgentClient(store, options).send('q')
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(calls).toEqual([{ conversationKey: 'c1', reason: 'expired', handle: true }])
    expect(turn.status).toBe('aborted')
    expect(s.status).toBe('aborted')
    expect(textOf(s, turn.id)).toBe('partial')
    expect(storage.getItem(resumeStorageKey('c1'))).toBeNull()
  })

  it('nothing left (204) with an empty history: the loader hears the stream ended while nobody listened; the answer stays cut short', async () => {
    const { agent, calls, options } = setup(async () => undefined)
    agent.next({ frames: partial, then: 'drop' }, { status: 204 })
    const store = createAgentStore()
    await new AgentClient(store, options).send('q')
    const s = store.getState()
    expect(calls.map((c) => c.reason)).toEqual(['ended'])
    expect(s.turns[s.turnIds[1]!]!.status).toBe('aborted')
    expect(textOf(s, s.turnIds[1]!)).toBe('partial')
  })

  it('a loader that throws: the turn and the stream end in its error, as unknown', async () => {
    const { agent, options } = setup(async () => {
      throw new Error('history store unreachable')
    })
    agent.next({ frames: partial, then: 'drop' }, { status: 410 })
    const store = createAgentStore()
    const errors: unknown[] = []
    await new AgentClient(store, { ...options, onError: (e) => void errors.push(e) }).send('q')
    const s = store.getState()
    expect(s.status).toBe('error')
    expect(s.error).toMatchObject({ type: 'unknown', message: 'history store unreachable' })
    expect(s.turns[s.turnIds[1]!]!.status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it('a history given as turns replaces what the store held', async () => {
    const { agent, options } = setup(async () => [
      { turn: { id: 'h-q', role: 'user', status: 'done' }, messages: [{ id: 'h-q/text', type: 'text', role: 'user', status: 'done', props: { content: 'q' } }] },
      { turn: { id: 'h-a', role: 'assistant', status: 'done', parentId: 'h-q' }, messages: [{ id: 'h-a/text', type: 'text', role: 'assistant', status: 'done', props: { content: 'the whole answer' } }] },
    ])
    agent.next({ frames: partial, then: 'drop' }, { status: 404 })
    const store = createAgentStore()
    await new AgentClient(store, options).send('q')
    const s = store.getState()
    expect(s.turnIds).toEqual(['h-q', 'h-a'])
    expect(textOf(s, 'h-a')).toBe('the whole answer')
    expect(s.status).toBe('done')
  })

  it('a re-attach into a fresh store whose stream expired, with an empty history: nothing to show, so the stream shows the expiry', async () => {
    const storage = memoryStorage()
    const first = setup(async () => [], storage)
    first.agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(createAgentStore(), first.options).send('q')
    const { agent, options } = setup(async () => [], storage)
    agent.next({ status: 404 })
    const fresh = createAgentStore()
    expect(await new AgentClient(fresh, options).attach()).toBe(true)
    const s = fresh.getState()
    expect(s.turnIds).toEqual([])
    expect(s.status).toBe('error')
    expect(s.error?.code).toBe('resume_expired')
  })
})

describe('a stop while a re-attach connects', () => {
  it('ends it without a turn: a store that held none still holds none', async () => {
    const storage = memoryStorage()
    const first = setup(async () => [], storage)
    first.agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(createAgentStore(), first.options).send('q')
    const { agent, options } = setup(async () => [], storage)
    agent.next({ hold: true })
    const fresh = createAgentStore()
    const client = new AgentClient(fresh, options)
    const attaching = client.attach()
    await new Promise((resolve) => setTimeout(resolve, 10))
    client.stop()
    await attaching
    expect(fresh.getState().turnIds).toEqual([])
    expect(Object.keys(fresh.getState().turns)).toEqual([])
    expect(fresh.getState().status).toBe('aborted')
  })
})
