/**
 * An agent in process that answers each request with what the test scripted for
 * it, over real `Response` bodies: held before the headers, streaming and held
 * open, ended, or dropped. What is not scripted gets a short complete answer.
 * Every request is recorded, and a request's abort signal ends what it holds,
 * as a real connection would.
 */
/** Sends the frames; then ends the body (`end`, with `[DONE]` when `done`), leaves it open (`open`) or fails it (`drop`). */
export interface StreamReply {
  frames: readonly unknown[]
  then: 'end' | 'open' | 'drop'
  done?: boolean
}

export type Reply =
  /** No headers until the request is aborted or `closeAll` lets it go (the client is connecting). */
  | { hold: true }
  | StreamReply
  | { status: number; body?: string }

export interface ScriptedRequest {
  url: string
  method: string
  body: Record<string, unknown> | undefined
  signal: AbortSignal | undefined
}

const HEADERS = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }
const encoder = new TextEncoder()
const frame = (chunk: unknown) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)

/** A complete UI message stream answer with `text`. */
export function answer(text: string, id = 'm'): StreamReply {
  return {
    frames: [{ type: 'start', messageId: id }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }, { type: 'text-end', id: 't' }, { type: 'finish' }],
    then: 'end', done: true,
  }
}

export class ScriptedAgent {
  readonly requests: ScriptedRequest[] = []
  private readonly queue: Reply[] = []
  private readonly open = new Set<ReadableStreamDefaultController<Uint8Array>>()
  private readonly held = new Set<() => void>()
  private answered = 0

  /** Replies for the next requests, in order. */
  next(...replies: Reply[]): this {
    this.queue.push(...replies)
    return this
  }

  /** Forget the replies no request took. */
  clearQueue(): void {
    this.queue.length = 0
  }

  /** Requests that carried a body (posts), not resume reads. */
  get posts(): ScriptedRequest[] {
    return this.requests.filter((r) => r.method === 'POST')
  }

  /** Ends every body still open, with `[DONE]` when asked; a request held before its headers gets a complete answer. */
  closeAll(done = false): void {
    for (const release of this.held) release()
    this.held.clear()
    for (const controller of this.open) {
      try {
        if (done) controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      } catch {
        // Already ended by an abort.
      }
    }
    this.open.clear()
  }

  readonly fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input)
    const text = typeof init?.body === 'string' ? init.body : undefined
    const signal = init?.signal ?? undefined
    this.requests.push({ url, method: init?.method ?? 'GET', body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined, signal })
    const reply = this.queue.shift() ?? answer(`answer ${++this.answered}`)
    if (signal?.aborted) throw signal.reason
    if ('hold' in reply) {
      return new Promise<Response>((resolve, reject) => {
        const release = () => resolve(this.respond(answer(`answer ${++this.answered}`), signal))
        this.held.add(release)
        signal?.addEventListener('abort', () => {
          this.held.delete(release)
          reject(signal.reason)
        }, { once: true })
      })
    }
    return this.respond(reply, signal)
  }) as typeof globalThis.fetch

  private respond(reply: Exclude<Reply, { hold: true }>, signal: AbortSignal | undefined): Response {
    // 204, 205 and 304 carry no body: a Response with one (even an empty string) throws.
    if ('status' in reply) return new Response([204, 205, 304].includes(reply.status) ? null : reply.body ?? '', { status: reply.status })
    let held: ReadableStreamDefaultController<Uint8Array> | undefined
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        for (const chunk of reply.frames) controller.enqueue(frame(chunk))
        if (reply.then === 'end') {
          if (reply.done) controller.enqueue(encoder.encode('data: [DONE]\n\n'))
          controller.close()
        } else if (reply.then === 'drop') {
          // After the frames are read: a reset connection, not an empty one.
          setTimeout(() => controller.error(new TypeError('network error: connection reset')), 5)
        } else {
          held = controller
          this.open.add(controller)
        }
      },
    })
    signal?.addEventListener('abort', () => {
      if (!held) return
      this.open.delete(held)
      try {
        held.error(signal.reason)
      } catch {
        // Already ended.
      }
    }, { once: true })
    return new Response(body, { headers: HEADERS })
  }
}
