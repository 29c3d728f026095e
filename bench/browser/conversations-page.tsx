/**
 * Runs inside Chromium for `bench/conversations.ts`, against real IndexedDB:
 * listing 1,000 stored conversations from a fresh connection, loading one
 * 5,000-message conversation, and switching between two 500-message
 * conversations drawn by `Transcript` (React commits counted through the
 * DevTools hook, which production React calls once per commit).
 */
import { createRoot } from 'react-dom/client'
import { Transcript } from '../../src/components/transcript'
import { createConversations } from '../../src/core/conversations/conversations'
import { indexedDbConversations } from '../../src/core/conversations/indexed-db'
import { conversationRecord } from '../../src/core/conversations/record'
import { fold } from '../../src/core/fold/fold'
import { emptyState } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { ConversationsProvider } from '../../src/react/conversations'

export interface ConversationsBenchResults {
  listMs: number[]
  readyMs: number[]
  hydrateMs: number[]
  switchCommits: number[]
  switchMs: number[]
}

declare global {
  interface Window {
    weftBench(count: number, rounds: number): Promise<ConversationsBenchResults>
    weftCommits: number[]
  }
}

function conversation(id: string, messages: number, updatedAt: number) {
  const ops: Op[] = []
  for (let i = 0; i < messages / 2; i += 1) {
    ops.push(
      { op: 'turn.open', turnId: `u${i}`, role: 'user' },
      { op: 'message.put', turnId: `u${i}`, messageId: `u${i}/text`, role: 'user', type: 'text', props: { content: `Question ${i}: what changed in the quarterly numbers?` }, status: 'done' },
      { op: 'turn.finish', turnId: `u${i}`, status: 'done' },
      { op: 'turn.open', turnId: `a${i}`, role: 'assistant' },
      { op: 'message.put', turnId: `a${i}`, messageId: `a${i}/text`, role: 'assistant', type: 'text', props: { content: `Answer ${i}. `.repeat(40) }, status: 'done' },
      { op: 'turn.finish', turnId: `a${i}`, status: 'done' },
    )
  }
  return conversationRecord({ id, title: id, createdAt: updatedAt, updatedAt, revision: 1 }, fold(emptyState(), ops))
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))

async function listing(count: number, rounds: number): Promise<Pick<ConversationsBenchResults, 'listMs' | 'readyMs'>> {
  const name = `weft-bench-list-${Date.now()}`
  const seed = indexedDbConversations({ name })
  for (let i = 0; i < count; i += 1) await seed.save(conversation(`c${i}`, 2, i), { expectedRevision: 0 })
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

async function hydrating(rounds: number): Promise<number[]> {
  const name = `weft-bench-long-${Date.now()}`
  const seed = indexedDbConversations({ name })
  await seed.save(conversation('long', 5000, 1), { expectedRevision: 0 })
  seed.close()
  const times: number[] = []
  for (let r = 0; r < rounds; r += 1) {
    const storage = indexedDbConversations({ name })
    await storage.list()
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    // The read of the record (IndexedDB's structured clone), the schema check and the store.
    const start = performance.now()
    await conversations.ready()
    times.push(performance.now() - start)
    if (conversations.storeOf('long')?.getState().turnIds.length !== 5000) throw new Error('not hydrated')
    await conversations.dispose()
    storage.close()
  }
  return times
}

async function switching(rounds: number): Promise<Pick<ConversationsBenchResults, 'switchCommits' | 'switchMs'>> {
  const name = `weft-bench-switch-${Date.now()}`
  const storage = indexedDbConversations({ name })
  await storage.save(conversation('left', 500, 1), { expectedRevision: 0 })
  await storage.save(conversation('right', 500, 2), { expectedRevision: 0 })
  const conversations = createConversations({ storage, selection: false, saveOnHide: false })
  await conversations.ready()
  await conversations.load('left')
  await conversations.load('right')
  const root = createRoot(document.getElementById('root') as HTMLElement)
  root.render(<ConversationsProvider conversations={conversations}><Transcript.Root /></ConversationsProvider>)
  await nextFrame()
  await nextFrame()
  const switchCommits: number[] = []
  const switchMs: number[] = []
  for (let r = 0; r < rounds; r += 1) {
    const id = r % 2 === 0 ? 'left' : 'right'
    window.weftCommits = []
    const start = performance.now()
    await conversations.select(id)
    await nextFrame()
    await nextFrame()
    const drawn = document.querySelectorAll('[data-weft="turn"]').length
    if (drawn !== 500) throw new Error(`drew ${drawn} turns, not 500`)
    switchCommits.push(window.weftCommits.length)
    switchMs.push((window.weftCommits.at(-1) ?? start) - start)
  }
  root.unmount()
  await conversations.dispose()
  storage.close()
  return { switchCommits, switchMs }
}

window.weftBench = async (count, rounds) => {
  const list = await listing(count, rounds)
  const hydrateMs = await hydrating(rounds)
  const switched = await switching(rounds + 1)
  return { ...list, hydrateMs, ...switched }
}
