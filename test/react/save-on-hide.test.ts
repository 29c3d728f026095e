/**
 * The page going away saves: a real `pagehide` on the window and a real
 * `visibilitychange` to hidden on the document (jsdom's events, no call into the
 * store) write unsaved conversations to storage and to the tab's journal. A page
 * that becomes visible saves nothing, and a streaming answer's tokens alone never save.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createConversations, type Conversations } from '../../src/core/conversations/conversations'
import { memoryConversations } from '../../src/core/conversations/storage'
import type { Op } from '../../src/core/model/ops'
import { memoryStorage } from '../../src/core/resume/storage'

const opened: Conversations[] = []
afterEach(async () => {
  for (const c of opened.splice(0)) await c.dispose()
  setVisibility('visible')
})

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state })
}

/** A storage that counts saves and keeps the last record saved per conversation. */
function countingStorage() {
  const inner = memoryConversations()
  const saved: Array<{ id: string; turns: number }> = []
  return {
    saved,
    storage: {
      ...inner,
      save: async (record: Parameters<typeof inner.save>[0], options: Parameters<typeof inner.save>[1]) => {
        await inner.save(record, options)
        saved.push({ id: record.id, turns: record.state.turnIds.length })
      },
    },
  }
}

/** An answer streaming in: while the stream runs, nothing but the page going away saves its tokens. */
const streaming = (text: string): Op[] => [
  { op: 'stream.status', status: 'streaming' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.delta', turnId: 'a1', messageId: 'a1/text', type: 'text', action: 'append', path: 'content', value: text },
]

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('saving when the page goes away (real DOM events)', () => {
  it('pagehide saves what is unsaved, to storage and to the journal', async () => {
    const { saved, storage } = countingStorage()
    const journal = memoryStorage()
    const conversations = createConversations({ storage, selection: journal })
    opened.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId!
    await conversations.flush()
    const before = saved.length
    conversations.storeOf(id)!.getState().dispatch(streaming('Half an answer'))
    await settle()
    // Tokens of a run still streaming wait for its end, or for the page to go away.
    expect(saved.length).toBe(before)

    window.dispatchEvent(new Event('pagehide'))
    expect(journal.getItem(`weft:conversations:journal:default:${id}`)).toContain('Half an answer')
    await settle()
    expect(saved.slice(before)).toEqual([{ id, turns: 1 }])
  })

  it('visibilitychange to hidden saves; to visible it does not', async () => {
    const { saved, storage } = countingStorage()
    const conversations = createConversations({ storage, selection: memoryStorage() })
    opened.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId!
    await conversations.flush()
    const before = saved.length
    conversations.storeOf(id)!.getState().dispatch(streaming('Half an answer'))

    setVisibility('visible')
    document.dispatchEvent(new Event('visibilitychange'))
    await settle()
    expect(saved.length).toBe(before)

    setVisibility('hidden')
    document.dispatchEvent(new Event('visibilitychange'))
    await settle()
    expect(saved.slice(before)).toEqual([{ id, turns: 1 }])
  })

  it('saveOnHide: false listens to neither', async () => {
    const { saved, storage } = countingStorage()
    const conversations = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    opened.push(conversations)
    await conversations.ready()
    await conversations.flush()
    const before = saved.length
    conversations.storeOf(conversations.selectedId!)!.getState().dispatch(streaming('Half an answer'))
    window.dispatchEvent(new Event('pagehide'))
    setVisibility('hidden')
    document.dispatchEvent(new Event('visibilitychange'))
    await settle()
    expect(saved.length).toBe(before)
  })
})
