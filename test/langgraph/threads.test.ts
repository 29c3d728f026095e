/**
 * LangGraph threads as weft's conversations, against the real server: the list `ThreadList` shows is
 * the server's threads, selecting one loads its history with its branches, a new conversation runs on
 * a thread of its own id, a rename lands in the thread's metadata, and a removal deletes the thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LangGraphServer, startLangGraphServer } from '../../scripts/langgraph-server.mjs'
import { AgentClient } from '../../src/core/client/agent-client'
import { createConversations } from '../../src/core/conversations/conversations'
import type { AgentState, Message } from '../../src/core/model/model'
import { messageIn } from '../../src/core/model/message-table'
import { syncScheduler } from '../../src/core/store/batcher'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { langGraphProtocol, langGraphSource, langGraphThreads } from '../../src/protocols/langgraph/index'

let server: LangGraphServer

beforeAll(async () => {
  server = await startLangGraphServer()
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

function clientFor(store: AgentStore, conversationId?: string) {
  return new AgentClient(store, {
    source: langGraphSource({ apiUrl: server.url, assistantId: 'agent' }), protocol: 'langgraph', protocols: [langGraphProtocol],
    idleTimeoutMs: 0, scheduler: syncScheduler, ...(conversationId ? { conversationId } : {}),
  })
}

function transcript(state: AgentState): string[] {
  return state.turnIds.flatMap((id) => state.turns[id]!.messageIds.map((m) => messageIn(state.messages, m) as Message))
    .map((m) => (m.type === 'tool' ? `${m.props.name} -> ${String(m.props.output)}` : String(m.props.content)))
}

async function status(path: string): Promise<number> {
  return (await fetch(`${server.url}${path}`)).status
}

describe('langGraphThreads', () => {
  it("lists the server's threads, loads one with its branches, runs a new one on its own id, renames and removes", async () => {
    const first = createAgentStore()
    const firstClient = clientFor(first)
    await firstClient.send('What is the weather in Paris?')
    await firstClient.regenerate()
    const second = createAgentStore()
    await clientFor(second).send('And in Rome?')

    const conversations = createConversations({ storage: langGraphThreads({ apiUrl: server.url, graphId: 'agent' }), selection: false, saveOnHide: false })
    await conversations.ready()
    const listed = conversations.list()
    expect(listed.map((c) => c.title).slice(0, 2)).toEqual(['And in Rome?', 'What is the weather in Paris?'])
    const paris = listed.find((c) => c.title === 'What is the weather in Paris?')!
    expect(paris.id).toBe(first.getState().turns[first.getState().turnIds.at(-1)!]!.threadId)

    await conversations.select(paris.id)
    const loaded = conversations.storeOf(paris.id)!.getState()
    expect(transcript(loaded)).toEqual(transcript(first.getState()))
    expect(loaded.branches[loaded.turnIds[0]!]).toHaveLength(2)

    // A new conversation is a thread id; its first run creates the thread.
    const id = conversations.create()
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(await status(`/threads/${id}`)).toBe(404)
    const store = conversations.storeOf(id)!
    await clientFor(store, id).send('Hello there')
    expect(await status(`/threads/${id}`)).toBe(200)
    expect(store.getState().turns[store.getState().turnIds.at(-1)!]!.threadId).toBe(id)

    await conversations.rename(paris.id, 'Paris weather')
    await conversations.flush()
    const thread = await (await fetch(`${server.url}/threads/${paris.id}`)).json()
    expect(thread.metadata.title).toBe('Paris weather')

    expect(await conversations.remove(paris.id)).toBe(true)
    await conversations.flush()
    await expect.poll(() => status(`/threads/${paris.id}`)).toBe(404)

    const again = createConversations({ storage: langGraphThreads({ apiUrl: server.url, graphId: 'agent' }), selection: false, saveOnHide: false })
    await again.ready()
    const titles = again.list().map((c) => c.title)
    expect(titles).toContain('And in Rome?')
    expect(titles).toContain('Hello there')
    expect(titles).not.toContain('Paris weather')
    await conversations.dispose()
    await again.dispose()
  })
})
