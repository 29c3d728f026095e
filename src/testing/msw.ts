/**
 * weft/testing/msw: agent streams as MSW request handlers, so a host's Storybook
 * (msw-storybook-addon), its Vitest browser tests and its Node tests
 * (`setupServer`) share one mock.
 */
import { http, HttpResponse, type HttpHandler } from 'msw'
import { getFixture, allFixtures } from './fixtures'
import type { AgentFixture, FixtureProtocol } from './frames'
import { streamResponse, type Chunking, type Pace, type StreamResponseOptions } from './stream-response'

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
  /** The protocol of `scenario` names and bare events. Default `vocion`. */
  protocol?: FixtureProtocol
  /** Default `post`. */
  method?: 'get' | 'post' | 'put' | 'all'
  /** Default `instant`. */
  pace?: Pace
  chunking?: Chunking
  seed?: number
  /** Drop the connection after this many frames. */
  cutAt?: number
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
 */
export function agentHandlers(options: AgentHandlersOptions): HttpHandler[] {
  const protocol = options.protocol ?? (typeof options.scenario === 'object' ? options.scenario.protocol : 'vocion')
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
  const method = http[options.method ?? 'post']
  return [method(options.url, ({ request }) => streamResponse(source, { ...streamOptions, signal: request.signal }))]
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
 * `GET|POST <prefix>/stream/:protocol/:name`, the list at `GET <prefix>/scenarios`, and
 * Vocion's resume endpoint at `GET <prefix>/resume/vocion/:name?id=<streamId>&after=<count>`.
 * Query options: `delay=<ms>`, `pace=tokens|recorded`, `cut=<k>`, `chunk=random`,
 * `seed=<n>`, `crlf=1`, `status=<code>`. Stories can pick a stream by URL alone.
 *
 * @example
 * // .storybook/preview.ts
 * export default { loaders: [mswLoader()], parameters: { msw: fixtureHandlers() } }
 * // a component
 * useAgentStream({ url: '/mock/stream/vocion/hitl?delay=30' })
 */
export function fixtureHandlers(options: FixtureHandlersOptions = {}): HttpHandler[] {
  const prefix = (options.prefix ?? '/mock').replace(/\/$/, '')
  const extra = options.fixtures ?? []
  const find = (protocol: string, name: string): AgentFixture | undefined => {
    const own = extra.find((f) => f.protocol === protocol && f.name === name)
    if (own) return own
    try {
      return getFixture(protocol as FixtureProtocol, name)
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
  const stream = ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
    const fixture = find(String(params.protocol), String(params.name))
    if (!fixture) {
      return HttpResponse.json({ error: 'not_found', message: `Unknown scenario ${String(params.protocol)}/${String(params.name)}` }, { status: 404 })
    }
    return streamResponse(fixture, { ...queryOptions(new URL(request.url).searchParams, options.defaultDelayMs ?? 0), signal: request.signal })
  }
  // Vocion's resume endpoint: the events after `after` (the stream_meta frame neither counted nor replayed); another id is 404.
  const vocionResume = ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
    const fixture = find('vocion', String(params.name))
    const query = new URL(request.url).searchParams
    const isMeta = (frame: AgentFixture['frames'][number]) =>
      typeof frame.data === 'object' && frame.data !== null && (frame.data as { type?: unknown }).type === 'stream_meta'
    const meta = fixture?.frames.find(isMeta)
    const streamId = meta ? (meta.data as { streamId?: unknown }).streamId : undefined
    if (!fixture || query.get('expired') === '1' || typeof streamId !== 'string' || query.get('id') !== streamId) {
      return HttpResponse.json({ error: 'not_found', message: 'Unknown or expired stream' }, { status: 404 })
    }
    const after = Number(query.get('after') ?? 0)
    const events = fixture.frames.filter((frame) => frame.data !== undefined && !isMeta(frame))
    const rest = { ...fixture, frames: events.slice(Number.isInteger(after) && after > 0 ? after : 0), end: undefined }
    return streamResponse(rest, { ...queryOptions(query, options.defaultDelayMs ?? 0), signal: request.signal })
  }
  return [
    http.get(`${prefix}/resume/vocion/:name`, vocionResume),
    http.get(`${prefix}/scenarios`, () =>
      HttpResponse.json(list().map((f) => ({ protocol: f.protocol, name: f.name, title: f.title, frames: f.frames.length, url: `${prefix}/stream/${f.protocol}/${f.name}` }))),
    ),
    http.get(`${prefix}/stream/:protocol/:name`, stream),
    http.post(`${prefix}/stream/:protocol/:name`, stream),
  ]
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
