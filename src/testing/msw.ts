/**
 * weft/testing/msw: agent streams as MSW request handlers, so a host's Storybook
 * (msw-storybook-addon), its Vitest browser tests and its Node tests
 * (`setupServer`) share one mock.
 */
import { http, HttpResponse, type HttpHandler } from 'msw'
import { allFixtures } from './fixtures'
import { getFixture } from './get-fixture'
import type { AgentFixture, FixtureProtocol } from './frames'
import { isBuiltInProtocol, UnsupportedProtocolError } from './protocols'
import { aiSdkReplay, langGraphResumeReply, replyAfter, resumeReply, vocionResumeReply, yaoResumeReply, type ReplyOptions } from './resume-replies'
import { streamResponse, toFixture, type Chunking, type Pace, type StreamResponseOptions, type StreamSource } from './stream-response'

/**
 * What a `reply` of `agentHandlers` is given for each request it answers.
 *
 * @example
 * const reply = ({ body, call }: AgentReplyContext) => call === 1 ? fixtures.vocion.hitl : [{ type: 'response_delta', delta: String(body) }, { type: 'done' }]
 */
export interface AgentReplyContext {
  /** The request as MSW received it (its body not read yet: use `body`). */
  request: Request
  /** The body parsed as JSON; `undefined` when there is none or it is not JSON. */
  body: unknown
  /** 1 for the first request these handlers answer, 2 for the next, and so on. */
  call: number
  /** The URL pattern's parameters (`:id` in `/api/chat/:id`). */
  params: Readonly<Record<string, string | readonly string[] | undefined>>
}

/**
 * A reply built from the request: a fixture or bare events (streamed with the
 * handlers' protocol, pace and chunking), a `Response` as it is, or `undefined`
 * to let the next handler (or MSW's unhandled-request rule) have the request.
 *
 * @example
 * const reply: AgentReply = ({ body }) => (isGateAnswer(body) ? continuation : undefined)
 */
export type AgentReply = (context: AgentReplyContext) => StreamSource | Response | undefined | Promise<StreamSource | Response | undefined>

/**
 * Options of `agentHandlers`.
 *
 * @example
 * const options: AgentHandlersOptions = { url: '/api/chat', protocol: 'ui-message', scenario: 'reasoning', pace: 30 }
 */
export interface AgentHandlersOptions {
  /** The agent endpoint: a path, a full URL, or an MSW path pattern (`/api/chat/:id`). */
  url: string
  /** A shipped fixture by name (with `protocol`), or a fixture of the host's own. */
  scenario?: string | AgentFixture
  /** Bare decoded events to stream instead of a scenario. */
  events?: readonly unknown[]
  /**
   * Answer each request from what it carries instead of one fixed stream: a
   * conversation loop (a gate's answer, a tool's result, a regenerate) gets its
   * own continuation. Pace, chunking, `cutAt` and `status` apply to each reply;
   * the resume routes of `cutAt` need a fixed `scenario` or `events`.
   */
  reply?: AgentReply
  /**
   * The protocol of `scenario` names, bare events and replies. Default `vocion`
   * (or the scenario fixture's own). A host protocol's name works with a fixture,
   * events or a reply of its own; a shipped scenario by name, or `resumeUrl`,
   * needs a built-in one (else an `UnsupportedProtocolError`).
   */
  protocol?: FixtureProtocol
  /** Default `post`. */
  method?: 'get' | 'post' | 'put' | 'all'
  /** Default `instant`. */
  pace?: Pace
  chunking?: Chunking
  seed?: number
  /** Drop the connection after this many frames. */
  cutAt?: number
  /**
   * Where a client reconnects after `cutAt`, for the protocols whose resume has
   * an endpoint of its own: Vocion (`?id=&after=`) and Yao tasks (`?since=`). The
   * AI SDK's `GET <url>/:chatId/stream`, AG-UI's `Last-Event-ID` on `url` and
   * LangGraph's rejoin (`<…>/runs/:runId/stream` of a `url` ending `/runs/stream`)
   * are served whenever `cutAt` is set.
   */
  resumeUrl?: string
  /** Answer with this status instead (a JSON error body). */
  status?: number
}

/**
 * MSW handlers that answer an agent endpoint with a stream.
 *
 * @example
 * // vitest.setup.ts
 * const server = setupServer(...agentHandlers({ url: '/api/chat', protocol: 'ui-message', scenario: 'plain' }))
 *
 * // a story
 * export const Reasoning = { parameters: { msw: agentHandlers({ url: '/api/chat', protocol: 'ui-message', scenario: 'reasoning', pace: 'tokens' }) } }
 *
 * // a drop at frame 9 that a Vocion client resumes from /api/chat/resume
 * agentHandlers({ url: '/api/chat', protocol: 'vocion', scenario: 'long-answer', cutAt: 9, resumeUrl: '/api/chat/resume' })
 *
 * // a loop: the approval gate first, then whatever the answer asks for
 * agentHandlers({
 *   url: '/api/chat', protocol: 'ui-message', pace: 20,
 *   reply: ({ body }) => (lastPartState(body) === 'approval-responded' ? deletedEvents : fixtures['ui-message'].full),
 * })
 */
export function agentHandlers(options: AgentHandlersOptions): HttpHandler[] {
  const protocol = options.protocol ?? (typeof options.scenario === 'object' ? options.scenario.protocol : 'vocion')
  const method = http[options.method ?? 'post']
  if (options.reply) return [replyHandler(method, options, protocol, options.reply)]
  const source = options.events
    ? options.events
    : typeof options.scenario === 'object'
      ? options.scenario
      : getFixture(protocol, options.scenario ?? 'plain')
  const streamOptions: StreamResponseOptions = {
    protocol,
    pace: options.pace,
    chunking: options.chunking,
    seed: options.seed,
    cutAt: options.cutAt,
    status: options.status,
  }
  if (options.cutAt === undefined) {
    return [method(options.url, ({ request }) => streamResponse(source, { ...streamOptions, signal: request.signal }))]
  }
  // A cut stream can be picked up again, the way the protocol's server does it.
  const fixture = toFixture(source, protocol)
  if (options.resumeUrl && !isBuiltInProtocol(fixture.protocol)) throw new UnsupportedProtocolError(fixture.protocol, 'resume')
  const reply: ReplyOptions = { pace: options.pace, chunking: options.chunking, seed: options.seed }
  const handlers = [
    // A reconnect with Last-Event-ID is a GET whatever method the first request used.
    http.get(options.url, ({ request }) => {
      const lastEventId = request.headers.get('last-event-id')
      return lastEventId ? replyAfter(fixture, lastEventId, { ...reply, signal: request.signal }) : undefined
    }),
    method(options.url, ({ request }) => streamResponse(fixture, { ...streamOptions, signal: request.signal })),
    http.get(`${options.url.replace(/\/$/, '')}/:chatId/stream`, ({ request }) => aiSdkReplay(fixture, { ...reply, signal: request.signal })),
  ]
  // LangGraph rejoins a run created at `…/threads/:id/runs/stream` at `…/threads/:id/runs/:runId/stream`.
  if (fixture.protocol === 'langgraph' && /\/runs\/stream\/?$/.test(options.url)) {
    const join = options.url.replace(/\/runs\/stream\/?$/, '/runs/:runId/stream')
    handlers.unshift(http.get(join, ({ request }) => langGraphResumeReply(fixture, request.headers.get('last-event-id'), { ...reply, signal: request.signal })))
  }
  if (options.resumeUrl) handlers.unshift(http.get(options.resumeUrl, ({ request }) => resumeReply(fixture, request, { ...reply, signal: request.signal })))
  return handlers
}

/** The handler of a `reply`: each request gets the reply built from it, streamed the handlers' way. */
function replyHandler(method: typeof http.post, options: AgentHandlersOptions, protocol: FixtureProtocol, reply: AgentReply): HttpHandler {
  let calls = 0
  return method(options.url, async ({ request, params }) => {
    const call = ++calls
    const answer = await reply({ request, body: await jsonOf(request), call, params })
    if (answer === undefined || answer instanceof Response) return answer
    return streamResponse(answer, {
      protocol, pace: options.pace, chunking: options.chunking, seed: options.seed, cutAt: options.cutAt, status: options.status, signal: request.signal,
    })
  })
}

/** A request's body as JSON, read from a clone so the request stays unread; `undefined` when it is not JSON. */
async function jsonOf(request: Request): Promise<unknown> {
  try {
    const text = await request.clone().text()
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

/**
 * Options of `fixtureHandlers`.
 *
 * @example
 * const options: FixtureHandlersOptions = { prefix: '/mock', fixtures: [myFixture] }
 */
export interface FixtureHandlersOptions {
  /** Where the routes live. Default `/mock`. */
  prefix?: string
  /** Fixtures served besides the shipped ones (same protocol and name wins over a shipped one). */
  fixtures?: readonly AgentFixture[]
  /** Per-frame wait when a request has no `delay`. Default 0. */
  defaultDelayMs?: number
}

/**
 * A whole mock agent server as MSW handlers: every fixture at
 * `GET|POST <prefix>/stream/:protocol/:name`, the list at `GET <prefix>/scenarios`,
 * and a resume route for each protocol's reconnect:
 *
 * - Vocion: `GET <prefix>/resume/vocion/:name?id=<streamId>&after=<count>` (another id: 404);
 * - Yao tasks: `GET <prefix>/resume/yao/:name?since=<sequence>`, ending in `event: read_complete`;
 * - AI SDK: `GET <prefix>/stream/:protocol/:name/:chatId/stream` replays the stream a
 *   `POST` with body `{ id: chatId }` left unfinished, from its start (none: 204);
 * - standard SSE (AG-UI): the stream route itself with `Last-Event-ID` sends the
 *   frames after that id (unknown id: 404; nothing left: 204);
 * - LangGraph: `POST <prefix>/stream/langgraph/:name/threads/:threadId/runs/stream`
 *   streams the run, and `GET …/threads/:threadId/runs/:runId/stream` rejoins it by
 *   `Last-Event-ID` (`-1`: from the start), as the `langgraph` strategy asks.
 *
 * Query options: `delay=<ms>`, `pace=tokens|recorded`, `cut=<k>`, `chunk=random`,
 * `seed=<n>`, `crlf=1`, `status=<code>`. `cut` and `status` apply to the first
 * connection only: a reconnect gets the rest whole. Stories can pick a stream by URL alone.
 *
 * @example
 * // .storybook/preview.ts
 * export default { loaders: [mswLoader()], parameters: { msw: fixtureHandlers() } }
 * // a component
 * useAgentStream({ url: '/mock/stream/vocion/hitl?delay=30' })
 * // a cut AG-UI stream that picks up again by Last-Event-ID
 * useAgentStream({ url: '/mock/stream/ag-ui/long-answer?cut=9', resume: { strategy: 'sse', conversationKey: 'c1' } })
 */
export function fixtureHandlers(options: FixtureHandlersOptions = {}): HttpHandler[] {
  const prefix = (options.prefix ?? '/mock').replace(/\/$/, '')
  const extra = options.fixtures ?? []
  const delay = options.defaultDelayMs ?? 0
  /** AI SDK chats whose stream a POST started and left unfinished, by `protocol/name/chatId`. */
  const unfinished = new Set<string>()
  const find = (protocol: string, name: string): AgentFixture | undefined => {
    const own = extra.find((f) => f.protocol === protocol && f.name === name)
    if (own) return own
    try {
      return getFixture(protocol, name)
    } catch {
      return undefined
    }
  }
  const list = () => {
    const seen = new Set<string>()
    return [...extra, ...allFixtures()].filter((f) => {
      const key = `${f.protocol}/${f.name}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
  const unknown = (protocol: unknown, name: unknown) =>
    HttpResponse.json({ error: 'not_found', message: `Unknown scenario ${String(protocol)}/${String(name)}` }, { status: 404 })
  const stream = async ({ request, params }: Resolver) => {
    const fixture = find(String(params.protocol), String(params.name))
    if (!fixture) return unknown(params.protocol, params.name)
    const query = new URL(request.url).searchParams
    const lastEventId = request.headers.get('last-event-id')
    if (lastEventId) return replyAfter(fixture, lastEventId, { ...replyOptions(query, delay), signal: request.signal })
    const streamOptions = queryOptions(query, delay)
    const chatId = request.method === 'POST' ? await chatIdOf(request) : undefined
    if (chatId !== undefined) {
      const key = `${fixture.protocol}/${fixture.name}/${chatId}`
      const cut = streamOptions.cutAt !== undefined && streamOptions.cutAt < fixture.frames.length
      if (cut || fixture.end === 'drop') unfinished.add(key)
      else unfinished.delete(key)
    }
    return streamResponse(fixture, { ...streamOptions, signal: request.signal })
  }
  const aiSdkResume = ({ request, params }: Resolver) => {
    const fixture = find(String(params.protocol), String(params.name))
    if (!fixture) return unknown(params.protocol, params.name)
    const key = `${fixture.protocol}/${fixture.name}/${String(params.chatId)}`
    if (!unfinished.has(key)) return new HttpResponse(null, { status: 204, headers: { 'cache-control': 'no-cache' } })
    if (fixture.end !== 'drop') unfinished.delete(key)
    return aiSdkReplay(fixture, { ...replyOptions(new URL(request.url).searchParams, delay), signal: request.signal })
  }
  const vocionResume = ({ request, params }: Resolver) => {
    const fixture = find('vocion', String(params.name))
    const query = new URL(request.url).searchParams
    if (!fixture || query.get('expired') === '1') return HttpResponse.json({ error: 'not_found', message: 'Unknown or expired stream' }, { status: 404 })
    const after = Number(query.get('after') ?? 0)
    return vocionResumeReply(fixture, { id: query.get('id'), after: Number.isInteger(after) ? after : 0 }, { ...replyOptions(query, delay), signal: request.signal })
  }
  const yaoResume = ({ request, params }: Resolver) => {
    const fixture = find('yao', String(params.name))
    if (!fixture) return unknown('yao', params.name)
    const query = new URL(request.url).searchParams
    const since = Number(query.get('since') ?? 0)
    return yaoResumeReply(fixture, Number.isInteger(since) && since > 0 ? since : 0, { ...replyOptions(query, delay), signal: request.signal })
  }
  // LangGraph's own paths: a run created and streamed at `…/threads/:id/runs/stream`, rejoined at `…/runs/:runId/stream`.
  const langGraph = `${prefix}/stream/langgraph/:name/threads/:threadId/runs`
  const langGraphRun = ({ request, params }: Resolver) => stream({ request, params: { ...params, protocol: 'langgraph' } })
  const langGraphRejoin = ({ request, params }: Resolver) => {
    const fixture = find('langgraph', String(params.name))
    if (!fixture) return unknown('langgraph', params.name)
    return langGraphResumeReply(fixture, request.headers.get('last-event-id'), { ...replyOptions(new URL(request.url).searchParams, delay), signal: request.signal })
  }
  return [
    http.post(`${langGraph}/stream`, langGraphRun),
    http.get(`${langGraph}/:runId/stream`, langGraphRejoin),
    http.get(`${prefix}/resume/vocion/:name`, vocionResume),
    http.get(`${prefix}/resume/yao/:name`, yaoResume),
    http.get(`${prefix}/scenarios`, () =>
      HttpResponse.json(list().map((f) => ({ protocol: f.protocol, name: f.name, title: f.title, frames: f.frames.length, url: `${prefix}/stream/${f.protocol}/${f.name}` }))),
    ),
    http.get(`${prefix}/stream/:protocol/:name/:chatId/stream`, aiSdkResume),
    http.get(`${prefix}/stream/:protocol/:name`, stream),
    http.post(`${prefix}/stream/:protocol/:name`, stream),
  ]
}

type Resolver = { request: Request; params: Record<string, string | readonly string[] | undefined> }

/** The chat id of an AI SDK request body (`{ id }`), if it has one. */
async function chatIdOf(request: Request): Promise<string | undefined> {
  const body = await jsonOf(request)
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** The options of a reconnect: the query's, without the first connection's cut and status. */
function replyOptions(query: URLSearchParams, defaultDelayMs: number): ReplyOptions {
  const { cutAt: _cut, status: _status, protocol: _protocol, ...rest } = queryOptions(query, defaultDelayMs)
  return rest
}

/** The stream options a URL's query asks for. */
function queryOptions(query: URLSearchParams, defaultDelayMs: number): StreamResponseOptions {
  const int = (key: string) => {
    const raw = query.get(key)
    if (raw === null || raw.trim() === '') return undefined
    const n = Number(raw)
    return Number.isInteger(n) ? n : undefined
  }
  const delay = int('delay')
  const pace = query.get('pace')
  const cut = int('cut')
  const status = int('status')
  return {
    pace: pace === 'tokens' || pace === 'recorded' ? pace : delay !== undefined && delay >= 0 ? delay : defaultDelayMs,
    chunking: query.get('chunk') === 'random' ? 'random' : 'frame',
    seed: int('seed') ?? 1,
    eol: query.get('crlf') === '1' || query.get('crlf') === 'true' ? '\r\n' : '\n',
    ...(cut !== undefined && cut >= 0 ? { cutAt: cut } : {}),
    ...(status !== undefined ? { status } : {}),
  }
}

// The types the handlers' options reach, so a host can name them from this entry too.
export type { StreamSource, Pace, Chunking } from './stream-response'
export type { AgentFixture, BuiltInProtocol, FixtureFrame, FixtureProtocol } from './frames'
export type { ProtocolName } from '../core/model/model'
