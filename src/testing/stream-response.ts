/**
 * A `Response` whose body streams a recorded agent stream as SSE, with the pace,
 * the chunking and the dropped connection a test asks for.
 */
import { encodeFrame, seededRandom, sliceBytes, type AgentFixture, type FixtureFrame, type FixtureProtocol, type LineEnding } from './frames'

/**
 * How fast frames leave: `instant` (no waits), a fixed number of milliseconds per
 * frame, `recorded` (each frame's own `delayMs`), or `tokens` (a first-token wait,
 * then a rhythm that follows each frame's length, with seeded jitter).
 *
 * @example
 * const pace: Pace = 25
 */
export type Pace = 'instant' | 'recorded' | 'tokens' | number

/**
 * How the bytes are cut into chunks: `whole` (one chunk per run of frames sent
 * without a wait, so an instant stream is one chunk), `frame` (one chunk per
 * frame), or `random` (seeded slices of 1–16 bytes that always cut inside CRLF
 * pairs and multibyte UTF-8).
 *
 * @example
 * const chunking: Chunking = 'random'
 */
export type Chunking = 'whole' | 'frame' | 'random'

/**
 * Options of `streamResponse`.
 *
 * @example
 * const options: StreamResponseOptions = { protocol: 'vocion', pace: 20, chunking: 'random', seed: 7, cutAt: 3 }
 */
export interface StreamResponseOptions {
  /**
   * The protocol of bare events (a fixture names its own): a built-in one or a
   * host protocol's name. Decides the framing: `ui-message` ends with `[DONE]`
   * and sends its header; any other protocol's events are plain `data:` frames.
   */
  protocol?: FixtureProtocol
  /** Default `instant`. */
  pace?: Pace
  /** Default `frame`. */
  chunking?: Chunking
  /** Seed of `random` chunking and of the `tokens` jitter (default 1), so a failure replays. */
  seed?: number
  /** Drop the connection after this many frames: the body errors as a lost socket does, never ends cleanly. */
  cutAt?: number
  /** Default `\n`. */
  eol?: LineEnding
  /** Answer with this HTTP status and a JSON error body instead of the stream (any non-2xx). */
  status?: number
  /** Extra response headers. */
  headers?: Record<string, string>
  /** The request's signal: when it aborts, the body stops and its timers are cleared. */
  signal?: AbortSignal | null
}

/**
 * What `streamResponse` streams: a fixture, its frames, or bare decoded events.
 *
 * @example
 * const source: StreamSource = [{ type: 'response_delta', delta: 'Hi' }, { type: 'done' }]
 */
export type StreamSource = AgentFixture | readonly unknown[]

const UI_MESSAGE_HEADERS = { 'x-vercel-ai-ui-message-stream': 'v1' }

/**
 * A `Response` whose body streams events (or a fixture) as the protocol's SSE.
 * Works wherever `Response` and `ReadableStream` exist: Node 18+, browsers, MSW handlers.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), {
 *   url: '/api/agent',
 *   fetch: async () => streamResponse(fixtures.vocion.answer, { chunking: 'random', seed: 3 }),
 * })
 */
export function streamResponse(source: StreamSource, options: StreamResponseOptions = {}): Response {
  const fixture = toFixture(source, options.protocol)
  if (options.status !== undefined && (options.status < 200 || options.status > 299)) {
    return new Response(JSON.stringify({ error: 'mock_status', message: `Mocked HTTP ${options.status}` }), {
      status: options.status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...options.headers },
    })
  }
  const headers = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...fixture.headers,
    ...options.headers,
  }
  if (options.status === 204) return new Response(null, { status: 204, headers })
  const plan = planChunks(fixture, options)
  const cut = options.cutAt !== undefined || fixture.end === 'drop'
  return new Response(chunkStream(plan, cut, options.signal ?? undefined), { status: options.status ?? 200, headers })
}

/**
 * The fixture a source stands for: bare events become frames in the protocol's
 * framing (default `vocion`; a host protocol's name is kept).
 *
 * @example
 * toFixture([{ type: 'finish' }], 'ui-message').frames // [{ data: { type: 'finish' } }, { data: '[DONE]' }]
 * toFixture([{ line: 'Hi' }], 'lines').protocol        // 'lines'
 */
export function toFixture(source: StreamSource, protocol?: FixtureProtocol): AgentFixture {
  if (!Array.isArray(source)) return source as AgentFixture
  const name = protocol ?? 'vocion'
  const frames: FixtureFrame[] = source.map((data) => ({ data }))
  if (name === 'ui-message' && !source.includes('[DONE]')) frames.push({ data: '[DONE]' })
  return {
    protocol: name,
    name: 'events',
    title: 'Events',
    frames,
    ...(name === 'ui-message' ? { headers: UI_MESSAGE_HEADERS } : {}),
  }
}

interface TimedChunk {
  delayMs: number
  bytes: Uint8Array
}

/** The chunks a response writes, each with the wait before it. */
export function planChunks(fixture: AgentFixture, options: StreamResponseOptions = {}): TimedChunk[] {
  const encoder = new TextEncoder()
  const eol = options.eol ?? '\n'
  const chunking = options.chunking ?? 'frame'
  const random = seededRandom(options.seed ?? 1)
  const delays = paceDelays(fixture.frames, options.pace ?? 'instant', seededRandom((options.seed ?? 1) ^ 0x5bd1e995))
  const frames = options.cutAt !== undefined ? fixture.frames.slice(0, Math.max(0, options.cutAt)) : fixture.frames

  if (chunking === 'frame') {
    return frames
      .map((frame, i) => ({ delayMs: delays[i] ?? 0, bytes: encoder.encode(encodeFrame(frame, eol)) }))
      .filter((chunk) => chunk.bytes.length > 0)
  }
  // Frames sent without a wait between them travel together, as they would over one socket write.
  const groups: TimedChunk[] = []
  frames.forEach((frame, i) => {
    const text = encodeFrame(frame, eol)
    const delayMs = delays[i] ?? 0
    const last = groups[groups.length - 1]
    if (last && delayMs === 0) last.bytes = concat(last.bytes, encoder.encode(text))
    else groups.push({ delayMs, bytes: encoder.encode(text) })
  })
  const nonEmpty = groups.filter((group) => group.bytes.length > 0)
  if (chunking === 'whole') return nonEmpty
  return nonEmpty.flatMap((group) => sliceBytes(group.bytes, random).map((bytes, i) => ({ delayMs: i === 0 ? group.delayMs : 0, bytes })))
}

function paceDelays(frames: readonly FixtureFrame[], pace: Pace, random: () => number): number[] {
  if (pace === 'instant') return frames.map(() => 0)
  if (typeof pace === 'number') return frames.map(() => Math.max(0, pace))
  if (pace === 'recorded') return frames.map((frame) => Math.max(0, frame.delayMs ?? 0))
  // A model thinks before its first token, then streams at a rhythm that follows how much each frame carries.
  return frames.map((frame, i) => {
    if (i === 0) return 0
    if (i === 1) return 250 + Math.round(random() * 250)
    const size = frame.data === undefined ? 0 : (typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)).length
    return Math.round(12 + Math.min(size, 400) / 8 + random() * 30)
  })
}

function chunkStream(plan: readonly TimedChunk[], cut: boolean, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let index = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let wake: (() => void) | undefined
  const stopTimer = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    wake?.()
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener('abort', () => {
        stopTimer()
        try {
          controller.error(signal.reason ?? new DOMException('The request was aborted', 'AbortError'))
        } catch {
          // Already closed or errored.
        }
      }, { once: true })
    },
    async pull(controller) {
      if (signal?.aborted) return
      const next = plan[index]
      if (!next) {
        // A lost socket surfaces as a failed read, never as a clean end of the body.
        if (cut) controller.error(droppedConnection())
        else controller.close()
        return
      }
      if (next.delayMs > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve
          timer = setTimeout(resolve, next.delayMs)
        })
        wake = undefined
        timer = undefined
        if (signal?.aborted) return
      }
      index++
      controller.enqueue(next.bytes)
    },
    cancel() {
      stopTimer()
    },
  })
}

/** The error Node's fetch (undici) raises when the server's socket closes mid-body, so a replayed drop reads like a live one. */
function droppedConnection(): TypeError {
  const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
  return new TypeError('terminated', { cause })
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
