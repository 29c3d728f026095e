/**
 * The queue's rules, exactly: the queued message a send leaves in the store (its
 * id, its text, a file count only when files came), the refusals of `editQueued`,
 * `cancelQueued` and `sendQueued` with their messages, `sendQueued` of a named
 * message, and what a queued send carries when it goes (the files it was queued
 * with and its latest text; a plain text stays plain text).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { createAgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const file = (name: string) => new File([`the text of ${name}`], name, { type: 'text/plain' })
const refused = (message: string) => ({ ok: false, error: { type: 'validation', message, retryable: false } })

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}

/** A client whose request for Q1 is held before its headers (`agent.closeAll()` lets a whole answer through). */
async function streaming(extra: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  const agent = new ScriptedAgent()
  const client = new AgentClient(store, { url: 'http://agent.invalid/api/chat', protocol: 'ui-message', fetch: agent.fetch, ...extra })
  agent.next({ hold: true })
  const first = client.send('Q1')
  await until(() => agent.posts.length === 1 && client.busy)
  return { store, agent, client, first }
}

/** The last user message a request carried: its parts, whole. */
const lastUserParts = (body: Record<string, unknown> | undefined) =>
  ((body?.messages ?? []) as Array<{ role: string; parts: unknown[] }>).filter((m) => m.role === 'user').at(-1)?.parts

describe('what a queued send leaves in the store', () => {
  it('text: an id of its own and the text, no file count', async () => {
    const { store, client } = await streaming()
    await client.send('Q2')
    await client.send({ text: 'Q3' })
    const queue = store.getState().queue!
    expect(queue.map((q) => Object.keys(q).sort())).toEqual([['id', 'text'], ['id', 'text']])
    expect(queue.map((q) => q.text)).toEqual(['Q2', 'Q3'])
    expect(queue[0]!.id).toMatch(/^queued-.+-\d+$/)
    expect(queue[0]!.id).not.toBe(queue[1]!.id)
  })

  it('files: how many came with it', async () => {
    const { store, client } = await streaming()
    await client.send({ text: 'see these', files: [file('a.txt'), file('b.txt')] })
    await client.send({ text: 'none', files: [] })
    const queue = store.getState().queue!
    expect(queue.map(({ text, files }) => ({ text, files }))).toEqual([{ text: 'see these', files: 2 }, { text: 'none', files: undefined }])
    expect('files' in queue[1]!).toBe(false)
  })
})

describe('refusals', () => {
  it('edit, cancel and send of a message that is not queued, and a send of an empty queue', async () => {
    const { client } = await streaming()
    expect(client.editQueued('nope', 'x')).toEqual(refused('there is no queued message "nope"'))
    expect(client.cancelQueued('nope')).toEqual(refused('there is no queued message "nope"'))
    expect(await client.sendQueued('nope')).toEqual(refused('there is no queued message "nope"'))
    expect(await client.sendQueued()).toEqual(refused('nothing is queued'))
  })
})

describe('a queued send when it goes', () => {
  it('sendQueued(id), after a stop held the queue back, sends the message named, not the first', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    await client.send('Q3')
    client.stop()
    await first
    const [, second] = store.getState().queue!
    expect(await client.sendQueued(second!.id)).toEqual({ ok: true })
    // Q3's answer ended normally, so the rest of the queue followed it.
    await until(() => agent.posts.length === 3 && !client.busy)
    expect(agent.posts.map((p) => lastUserParts(p.body))).toEqual([
      [{ type: 'text', text: 'Q1' }], [{ type: 'text', text: 'Q3' }], [{ type: 'text', text: 'Q2' }],
    ])
    expect(store.getState().queue ?? []).toEqual([])
  })

  it('carries the files it was queued with and its latest text', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send({ text: 'see this', files: [file('a.txt')] })
    const [queued] = store.getState().queue!
    expect(client.editQueued(queued!.id, 'see this, please')).toEqual({ ok: true })
    agent.closeAll()
    await first
    await until(() => agent.posts.length === 2)
    const parts = lastUserParts(agent.posts[1]!.body) as Array<Record<string, unknown>>
    expect(parts.map((p) => p.type)).toEqual(['file', 'text'])
    expect(parts[0]).toMatchObject({ type: 'file', mediaType: 'text/plain', filename: 'a.txt' })
    expect(parts[1]).toEqual({ type: 'text', text: 'see this, please' })
  })

  it('a plain text goes as the same request a direct send of it makes', async () => {
    const { agent, client, first } = await streaming()
    await client.send('Q2')
    agent.closeAll()
    await first
    await until(() => agent.posts.length === 2)
    const queuedBody = agent.posts[1]!.body!
    const direct = await streaming()
    direct.agent.closeAll()
    await direct.first
    await direct.client.send('Q2')
    const directBody = direct.agent.posts[1]!.body!
    expect(Object.keys(queuedBody).sort()).toEqual(Object.keys(directBody).sort())
    expect(lastUserParts(queuedBody)).toEqual(lastUserParts(directBody))
    expect(lastUserParts(queuedBody)).toEqual([{ type: 'text', text: 'Q2' }])
  })
})
