import { describe, expect, it } from 'vitest'
import { createBatcher, defaultScheduler, microtaskScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import type { Op } from '../../../src/core/model/ops'
import { createAgentStore } from '../../../src/core/store/store'
import { messageList } from '../../../src/core/model/message-table'

/** A Yao answer of `events` text deltas, as SSE text. */
function yaoAnswer(events: number): string {
  const lines: string[] = []
  for (let i = 0; i < events; i++) {
    lines.push(`data: ${JSON.stringify({ chunk_id: `C${i}`, message_id: 'M1', type: 'text', delta: true, props: { content: `w${i} ` } })}\n\n`)
  }
  return lines.join('')
}

/** A response whose body arrives in `reads` pieces, one per macrotask, as from a socket. */
function arriving(text: string, reads: number): Response {
  const bytes = new TextEncoder().encode(text)
  const size = Math.ceil(bytes.length / reads)
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => setImmediate(() => {
        if (at >= bytes.length) controller.close()
        else controller.enqueue(bytes.slice(at, (at += size)))
        resolve()
      }))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
}

describe('the default scheduler outside a browser', () => {
  it('is the microtask scheduler here (no animation frames in Node)', () => {
    expect(defaultScheduler()).toBe(microtaskScheduler)
  })

  it('hands a synchronous burst of pushes to the store as one batch', async () => {
    const batches: Op[][] = []
    const batcher = createBatcher((ops) => batches.push([...ops]), microtaskScheduler)
    for (let i = 0; i < 50; i++) batcher.push([{ op: 'cursor', cursor: { eventCount: i } }])
    expect(batches).toHaveLength(0)
    await Promise.resolve()
    expect(batches).toHaveLength(1)
    expect(batches[0]).toHaveLength(50)
  })

  it('commits once per network read, not once per event, and loses no event', async () => {
    const events = 400
    const reads = 8
    const store = createAgentStore()
    let commits = 0
    store.subscribe(() => {
      commits += 1
    })
    const client = new AgentClient(store, { url: 'http://test.invalid/stream', protocol: 'yao', fetch: async () => arriving(yaoAnswer(events), reads) })
    await client.send()
    const state = store.getState()
    const texts = messageList(state.messages).map((m) => m.props.content)
    expect(texts).toEqual([Array.from({ length: events }, (_, i) => `w${i} `).join('')])
    expect(state.cursor.eventCount).toBe(events)
    // One commit per read, plus the few the turn's start and end make on their own.
    expect(commits).toBeLessThanOrEqual(reads + 4)
  })
})
