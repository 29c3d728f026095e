/**
 * The end of a stream is drawn with the frame's one batch: the last ops and the
 * run's own "done" reach the store together, inside the scheduled flush, and the
 * send settles after it. A stop or a detach in that gap finishes the answer
 * rather than cutting it.
 */
import { describe, expect, it } from 'vitest'
import '../../../src/protocols/index'
import { AgentClient } from '../../helpers/built-in-client'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { fakeFetch } from '../../helpers/fake-fetch'
import { manualScheduler } from '../../helpers/manual-scheduler'

const CHUNKS = [
  { type: 'start', messageId: 'a1' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello' },
  { type: 'text-end', id: 't' },
  { type: 'finish' },
]

const answer = () => {
  const body = `${CHUNKS.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`
  return fakeFetch(() => new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } }))
}

/** A frame scheduler the test drives: each request waits until the test runs it. */
function frames() {
  const { scheduler, requests } = manualScheduler()
  return { scheduler, pending: requests }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** What the store said on each change: the stream's status, the answer's status, and whether a frame was running. */
function watch(store: AgentStore, inFrame: () => number | undefined) {
  const notes: Array<{ status: string; answer: string | undefined; frame: number | undefined }> = []
  store.subscribe((state) => {
    const id = state.turnIds.at(-1)
    const answer = id && state.turns[id]?.role === 'assistant' ? state.turns[id]!.status : undefined
    notes.push({ status: state.status, answer, frame: inFrame() })
  })
  return notes
}

describe('the end of a stream', () => {
  it('reaches the store in one scheduled flush, the last ops with the status, and the send settles after it', async () => {
    const { fetch } = answer()
    const { scheduler, pending } = frames()
    const store = createAgentStore()
    let frame: number | undefined
    const notes = watch(store, () => frame)
    let finished = 0
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler, onFinish: () => (finished += 1) })
    let settled = false
    const sent = client.send('Hi').then(() => (settled = true))
    let frameCount = 0
    for (let i = 0; i < 100 && !settled; i++) {
      await tick()
      for (const request of pending.splice(0)) {
        if (request.cancelled) continue
        frame = ++frameCount
        // Nothing settles before the frame that draws the end.
        if (!notes.some((n) => n.answer === 'done')) expect(settled).toBe(false)
        request.run()
        frame = undefined
      }
    }
    await sent
    const done = notes.findIndex((n) => n.answer === 'done')
    expect(done).toBeGreaterThanOrEqual(0)
    const endFrame = notes[done]!.frame
    expect(endFrame).toBeDefined()
    // The answer's end and the run's "done" in the same flush, and nothing after it.
    expect(notes.slice(done).map((n) => n.frame)).toEqual(notes.slice(done).map(() => endFrame))
    expect(notes.at(-1)).toMatchObject({ status: 'done', answer: 'done' })
    expect(finished).toBe(1)
    const id = store.getState().turnIds.at(-1)!
    expect(store.getState().turns[id]!.status).toBe('done')
  })

  it('a stop after the last byte but before the frame finishes the answer; it is not marked stopped', async () => {
    const { fetch } = answer()
    const { scheduler, pending } = frames()
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler })
    let settled = false
    const sent = client.send('Hi').then(() => (settled = true))
    // The body is read to its end while no frame runs.
    for (let i = 0; i < 20; i++) await tick()
    expect(settled).toBe(false)
    expect(pending.some((request) => !request.cancelled)).toBe(true)
    client.stop()
    await sent
    const state = store.getState()
    expect(state.status).toBe('done')
    expect(state.turns[state.turnIds.at(-1)!]!.status).toBe('done')
  })

  it('a resumable run detached in that gap settles as done and clears its handle', async () => {
    const encoder = new TextEncoder()
    let body!: ReadableStreamDefaultController<Uint8Array>
    const frameOf = (chunk: unknown) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)
    const { fetch } = fakeFetch(() => new Response(new ReadableStream<Uint8Array>({ start: (c) => void (body = c) }), {
      headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
    }))
    const { scheduler, pending } = frames()
    const runFrames = () => {
      for (const request of pending.splice(0)) if (!request.cancelled) request.run()
    }
    const store = createAgentStore()
    const storage = memoryStorage()
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler, resume: { conversationKey: 'c1', storage } })
    const sent = client.send('Hi')
    for (let i = 0; i < 5; i++) await tick()
    body.enqueue(frameOf(CHUNKS[0]))
    body.enqueue(frameOf(CHUNKS[1]))
    for (let i = 0; i < 5; i++) await tick()
    runFrames()
    // A frame was drawn mid-answer: the handle to resume from is stored.
    expect(storage.getItem('weft:resume:c1')).not.toBeNull()
    for (const chunk of CHUNKS.slice(2)) body.enqueue(frameOf(chunk))
    body.enqueue(encoder.encode('data: [DONE]\n\n'))
    body.close()
    for (let i = 0; i < 20; i++) await tick()
    expect(() => client.dispose()).not.toThrow()
    await sent
    const state = store.getState()
    expect(state.status).toBe('done')
    expect(state.turns[state.turnIds.at(-1)!]!.status).toBe('done')
    expect(storage.getItem('weft:resume:c1')).toBeNull()
  })
})
