/**
 * SSE writing helpers shared by the built-in stream route and any route added later.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { encodeFrame, seededRandom, sliceBytes, type LineEnding, type MockFrame } from './scenario.js'

/** How a stream is written; parsed from the query by {@link parseStreamOptions}. */
export interface StreamOptions {
  /** Milliseconds to wait before each frame (added to the frame's own `delayMs`). */
  delayMs: number
  /** Destroy the socket after this many frames (instead of ending cleanly), simulating a dropped connection. */
  cutAfter?: number
  /**
   * Milliseconds a cut connection stays open after its last frame before it drops.
   * Chromium errors a response body as soon as the drop arrives and discards bytes
   * the page has not read yet, so a page under load can lose the frames before a cut.
   */
  lingerMs?: number
  /** Write each frame in random-size byte slices, forcing splits inside multibyte characters and CRLF. */
  randomChunks: boolean
  /** Seed for the slice sizes, so a failing run can be replayed. */
  seed: number
  eol: LineEnding
}

/**
 * Reads the stream options shared by every streaming route:
 * `delay=<ms>`, `cut=<frames>`, `linger=<ms>`, `chunk=random`, `seed=<int>`, `crlf=1`.
 *
 * @example
 * parseStreamOptions(new URLSearchParams('delay=30&cut=4'))
 * // { delayMs: 30, cutAfter: 4, randomChunks: false, seed: <random>, eol: '\n' }
 */
export function parseStreamOptions(query: URLSearchParams, defaultDelayMs = 0): StreamOptions {
  const delay = toInt(query.get('delay'))
  const cut = toInt(query.get('cut'))
  const linger = toInt(query.get('linger'))
  const seed = toInt(query.get('seed'))
  const crlf = query.get('crlf')
  return {
    delayMs: delay !== undefined && delay >= 0 ? delay : defaultDelayMs,
    ...(cut !== undefined && cut >= 0 ? { cutAfter: cut } : {}),
    ...(linger !== undefined && linger > 0 ? { lingerMs: linger } : {}),
    randomChunks: query.get('chunk') === 'random',
    seed: seed ?? Math.floor(Math.random() * 2 ** 31),
    eol: crlf === '1' || crlf === 'true' ? '\r\n' : '\n',
  }
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
}

/**
 * Writes frames to `res` as an SSE response, honouring delays, cuts and slicing.
 * Resolves when the stream ends, is cut, or the client goes away.
 */
export async function streamFrames(
  res: ServerResponse,
  frames: readonly MockFrame[],
  options: StreamOptions,
  headers: Record<string, string> = {},
): Promise<void> {
  let closed = false
  res.on('close', () => {
    closed = true
  })
  res.writeHead(200, { ...SSE_HEADERS, ...headers })
  res.flushHeaders()

  const random = seededRandom(options.seed)
  let sent = 0
  for (const frame of frames) {
    if (options.cutAfter !== undefined && sent >= options.cutAfter) break
    const wait = options.delayMs + (frame.delayMs ?? 0)
    if (wait > 0) await sleep(wait)
    if (closed) return
    const bytes = Buffer.from(encodeFrame(frame, options.eol), 'utf8')
    if (options.randomChunks) {
      for (const slice of sliceBytes(bytes, random)) {
        if (closed) return
        await write(res, slice)
        // Yield so each slice leaves in its own TCP segment rather than being coalesced.
        await sleep(0)
      }
    } else {
      await write(res, bytes)
    }
    sent++
  }
  if (closed) return
  if (options.cutAfter !== undefined) {
    if (options.lingerMs) await sleep(options.lingerMs)
    // No terminating chunk: the client sees the connection drop mid-stream,
    // even when every frame already went out (a drop before the clean close).
    res.socket?.destroy()
    return
  }
  res.end()
}

/** Sends a JSON body with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** Reads the request body as text (for POST routes that look at what the client sent). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export { sliceBytes }

/** Parses a whole-number query value; anything else is `undefined`. */
export function toInt(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const n = Number(value)
  return Number.isInteger(n) ? n : undefined
}

function write(res: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) {
      resolve()
      return
    }
    res.write(chunk, () => resolve())
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)))
}

/** Small seeded PRNG (mulberry32) so random slicing is reproducible with `seed=`. */
export const mulberry32 = seededRandom
