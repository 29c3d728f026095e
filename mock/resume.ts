/**
 * Resume endpoints for the mock agent server, one per strategy the kit knows.
 * Each serves the rest of a registered scenario the way a real server would, so a
 * stream cut with `cut=<k>` on its first request can be picked up again.
 *
 * | route | behaves like |
 * |---|---|
 * | `GET /mock/resume/vocion/:scenario?id=<streamId>&after=<count>` | Vocion: replays the events after `count` (`stream_meta` is not counted, nor replayed); unknown id: 404 |
 * | `GET\|POST /mock/sse/:protocol/:scenario` (+ `Last-Event-ID`) | standard SSE: every event has an `id:` (the scenario's own, else its number); a reconnect gets the events after that id (no keepalives); unknown id: 404; nothing left: 204; `retry=<ms>` adds a `retry:` field to the first event |
 * | `POST /mock/ai/:protocol/:scenario` (body `{id}`), then `GET /mock/ai/:protocol/:scenario/:chatId/stream` | AI SDK: the GET replays the active stream from its start; no active stream (never started, or finished): 204 |
 * | `GET /mock/resume/yao/:scenario?since=<sequence>` | Yao tasks: replays messages with a higher `metadata.sequence`, then `event: read_complete {last_seq, live}` |
 *
 * Every route takes the stream options of `parseStreamOptions` (`delay`, `cut`,
 * `chunk=random`, `seed`, `crlf`). Replays also take `older=<n>`: start `n` events
 * earlier than asked, as a server whose position drifted does (the AI SDK replay
 * always starts at the beginning, so it has no such option).
 * Yao's takes `buffered=<n>`: only `n` messages are replayed before `read_complete`
 * (`live: true`), the rest follow as live events.
 */
import type { MockFrame, Scenario } from './scenario.js'
import { findScenario } from './scenarios/index.js'
import {
  parseStreamOptions, readBody, sendJson, streamFrames, type MockRequestContext, type MockRoute,
} from './server.js'

/**
 * The resume routes, with their own state (which AI SDK style chats have a stream running).
 *
 * @example
 * createMockAgentHandler({ routes: createResumeRoutes() })
 */
export function createResumeRoutes(): MockRoute[] {
  // chat id → whether its stream has been written to the end.
  const chats = new Map<string, { finished: boolean }>()

  return [
    { method: 'GET', path: '/mock/resume/vocion/:scenario', handler: vocionResume },
    { method: ['GET', 'POST'], path: '/mock/sse/:protocol/:scenario', handler: lastEventIdStream },
    {
      method: 'POST',
      path: '/mock/ai/:protocol/:scenario',
      handler: async (ctx) => {
        const scenario = scenarioOf(ctx, ctx.params.protocol)
        if (!scenario) return
        const chatId = ctx.query.get('chatId') ?? chatIdOf(await readBody(ctx.req))
        const chat = { finished: false }
        if (chatId) chats.set(chatId, chat)
        const options = parseStreamOptions(ctx.query, ctx.defaultDelayMs)
        await streamFrames(ctx.res, scenario.frames, options, scenario.headers)
        // The generation ran to its end (even if the socket was cut after the last frame).
        if (options.cutAfter === undefined || options.cutAfter >= scenario.frames.length) chat.finished = true
      },
    },
    {
      method: 'GET',
      path: '/mock/ai/:protocol/:scenario/:chatId/stream',
      handler: async (ctx) => {
        const chat = chats.get(ctx.params.chatId ?? '')
        if (!chat || chat.finished) {
          ctx.res.writeHead(204, { 'cache-control': 'no-cache' }).end()
          return
        }
        const scenario = scenarioOf(ctx, ctx.params.protocol)
        if (!scenario) return
        const options = parseStreamOptions(ctx.query, ctx.defaultDelayMs)
        await streamFrames(ctx.res, scenario.frames, options, scenario.headers)
        if (options.cutAfter === undefined || options.cutAfter >= scenario.frames.length) chat.finished = true
      },
    },
    { method: 'GET', path: '/mock/resume/yao/:scenario', handler: yaoResume },
  ]
}

async function vocionResume(ctx: MockRequestContext): Promise<void> {
  const scenario = scenarioOf(ctx, 'vocion')
  if (!scenario) return
  const meta = scenario.frames.find((f) => isMeta(f))
  const streamId = meta && isRecord(meta.data) ? meta.data.streamId : undefined
  if (ctx.query.get('expired') === '1' || typeof streamId !== 'string' || ctx.query.get('id') !== streamId) {
    sendJson(ctx.res, 404, { error: 'not_found', message: 'Unknown or expired stream' })
    return
  }
  const events = scenario.frames.filter((f) => f.data !== undefined && !isMeta(f))
  const after = intOf(ctx.query.get('after')) ?? 0
  const start = Math.max(0, after - (intOf(ctx.query.get('older')) ?? 0))
  await streamFrames(ctx.res, events.slice(start), parseStreamOptions(ctx.query, ctx.defaultDelayMs), scenario.headers)
}

async function lastEventIdStream(ctx: MockRequestContext): Promise<void> {
  const scenario = scenarioOf(ctx, ctx.params.protocol)
  if (!scenario) return
  ctx.req.resume()
  let n = 0
  const frames: MockFrame[] = scenario.frames.map((f) => (f.data === undefined || f.id !== undefined ? f : { ...f, id: String(++n) }))
  // Scenario ids keep their own numbering; the counter only names frames that had none.
  const header = ctx.req.headers['last-event-id']
  const lastId = Array.isArray(header) ? header[0] : header
  let start = 0
  if (lastId !== undefined && lastId !== '') {
    const at = frames.findIndex((f) => f.id === lastId)
    if (at < 0) {
      sendJson(ctx.res, 404, { error: 'not_found', message: `No event with id ${lastId}` })
      return
    }
    if (!frames.slice(at + 1).some((f) => f.data !== undefined)) {
      ctx.res.writeHead(204, { 'cache-control': 'no-cache' }).end()
      return
    }
    start = backBy(frames, at + 1, intOf(ctx.query.get('older')) ?? 0)
  }
  // A replay resends events, not the keepalives that went between them.
  const rest = start > 0 ? frames.slice(start).filter((f) => f.data !== undefined) : frames
  const retry = intOf(ctx.query.get('retry'))
  // `retry:` rides on the first event, so that `cut=1` still delivers one event per connection.
  const sent = retry !== undefined && rest[0] ? [{ ...rest[0], retry }, ...rest.slice(1)] : rest
  await streamFrames(ctx.res, sent, parseStreamOptions(ctx.query, ctx.defaultDelayMs), scenario.headers)
}

async function yaoResume(ctx: MockRequestContext): Promise<void> {
  const scenario = scenarioOf(ctx, 'yao')
  if (!scenario) return
  const since = (intOf(ctx.query.get('since')) ?? 0) - (intOf(ctx.query.get('older')) ?? 0)
  const newer = scenario.frames.filter((f) => (sequenceOf(f) ?? 0) > since)
  const buffered = Math.min(newer.length, intOf(ctx.query.get('buffered')) ?? newer.length)
  const replayed = newer.slice(0, buffered)
  const lastSeq = replayed.length > 0 ? sequenceOf(replayed[replayed.length - 1]!) ?? since : Math.max(0, since)
  const readComplete: MockFrame = { event: 'read_complete', data: { last_seq: lastSeq, live: buffered < newer.length } }
  await streamFrames(
    ctx.res,
    [...replayed, readComplete, ...newer.slice(buffered)],
    parseStreamOptions(ctx.query, ctx.defaultDelayMs),
    scenario.headers,
  )
}

/** The scenario a route names, or a 404 already sent. */
function scenarioOf(ctx: MockRequestContext, protocol: string | undefined): Scenario | undefined {
  const scenario = findScenario(protocol ?? '', ctx.params.scenario ?? '', ctx.scenarios)
  if (!scenario) sendJson(ctx.res, 404, { error: 'not_found', message: `Unknown scenario ${protocol}/${ctx.params.scenario}` })
  return scenario
}

/** The index `older` data frames before `index` (never before the start). */
function backBy(frames: readonly MockFrame[], index: number, older: number): number {
  let at = index
  for (let left = older; left > 0 && at > 0; ) {
    at -= 1
    if (frames[at]?.data !== undefined) left -= 1
  }
  return at
}

function isMeta(frame: MockFrame): boolean {
  return isRecord(frame.data) && frame.data.type === 'stream_meta'
}

function sequenceOf(frame: MockFrame): number | undefined {
  const metadata = isRecord(frame.data) && isRecord(frame.data.metadata) ? frame.data.metadata : undefined
  return typeof metadata?.sequence === 'number' ? metadata.sequence : undefined
}

function chatIdOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body)
    return isRecord(parsed) && typeof parsed.id === 'string' ? parsed.id : undefined
  } catch {
    return undefined
  }
}

function intOf(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const n = Number(value)
  return Number.isInteger(n) && n >= 0 ? n : undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A Vocion resume endpoint that drops every connection while `healthy()` says
 * no, and otherwise redirects to the real one: for testing bounded backoff.
 *
 * @example
 * let up = false
 * createMockAgentHandler({ routes: [...createResumeRoutes(), flakyVocionResumeRoute(() => up)] })
 */
export function flakyVocionResumeRoute(healthy: () => boolean): MockRoute {
  return {
    method: 'GET',
    path: '/mock/flaky/vocion/:scenario',
    handler: ({ res, url, params }) => {
      if (!healthy()) {
        res.socket?.destroy()
        return
      }
      res.writeHead(307, { location: `/mock/resume/vocion/${params.scenario}${url.search}` }).end()
    },
  }
}
