/**
 * Runs inside Chromium for `bench/conversations.ts`: fills IndexedDB with stored
 * conversations, then times listing them from a fresh connection.
 */
import { conversationRecord } from '../src/core/conversations/record'
import { createConversations } from '../src/core/conversations/conversations'
import { indexedDbConversations } from '../src/core/conversations/indexed-db'
import { emptyState } from '../src/core/model'

declare global {
  interface Window {
    weftBench(count: number, rounds: number): Promise<{ listMs: number[]; readyMs: number[] }>
  }
}

window.weftBench = async (count, rounds) => {
  const name = `weft-bench-${Date.now()}`
  const seed = indexedDbConversations({ name })
  for (let i = 0; i < count; i += 1) {
    const state = emptyState()
    state.turnIds = ['u']
    state.turns.u = { id: 'u', role: 'user', status: 'done', blockIds: [], messageIds: ['u/text'], traceRootIds: [], gateIds: [], sources: [], metadata: {}, problems: [] }
    state.messages['u/text'] = { id: 'u/text', turnId: 'u', role: 'user', type: 'text', props: { content: `Question ${i}` }, status: 'done' }
    await seed.save(conversationRecord({ id: `c${i}`, title: `Question ${i}`, createdAt: i, updatedAt: i, revision: 1 }, state), { expectedRevision: 0 })
  }
  seed.close()
  const listMs: number[] = []
  const readyMs: number[] = []
  for (let r = 0; r < rounds; r += 1) {
    const storage = indexedDbConversations({ name })
    let start = performance.now()
    const listed = await storage.list()
    listMs.push(performance.now() - start)
    if (listed.length !== count) throw new Error(`listed ${listed.length} of ${count}`)
    storage.close()
    // The whole start of a page: list, check each summary, select and load the newest.
    const fresh = indexedDbConversations({ name })
    const conversations = createConversations({ storage: fresh, selection: false, saveOnHide: false })
    start = performance.now()
    await conversations.ready()
    readyMs.push(performance.now() - start)
    await conversations.dispose()
    fresh.close()
  }
  return { listMs, readyMs }
}
