/**
 * An injectable `fetch` that answers by method and URL and remembers every request.
 */
import type { AgentFixture } from './frames'
import { streamResponse, type StreamResponseOptions, type StreamSource } from './stream-response'

/**
 * One request as the mock received it. The body is read once, up front, so a
 * test can look at it after the stream ended.
 *
 * @example
 * const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain })
 * await new AgentClient(createAgentStore(), { url: '/api/agent', fetch }).send('Hello')
 * expect(fetch.calls[0]!.json()).toEqual({ input: 'Hello' })
 */
export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  /** The body as text (`undefined` when there was none). */
  body: string | undefined
  /** The body parsed as JSON. Throws when it is not JSON. */
  json<T = unknown>(): T
}

/**
 * What a route answers: a `Response`, a fixture or bare events (streamed with
 * `streamResponse`), or a function of the request. An array answers one entry per
 * call, in order, and repeats its last.
 *
 * @example
 * const answer: RouteAnswer = (_request, { signal }) => streamResponse(fixtures.vocion.plain, { signal })
 */
export type RouteAnswer =
  | Response
  | AgentFixture
  | readonly unknown[]
  | ((request: Request, context: RouteContext) => Response | AgentFixture | Promise<Response | AgentFixture>)

/**
 * What a route function gets besides the request.
 *
 * @example
 * const answer: RouteAnswer = (_request, { signal }) => streamResponse(fixtures.yao['long-answer'], { pace: 20, signal })
 */
export interface RouteContext {
  recorded: RecordedRequest
  /** The caller's abort signal (kept apart from the `Request`, whose realm may differ under jsdom). */
  signal: AbortSignal | undefined
}

/**
 * A route: `"POST /api/chat"`, `"/api/chat"` (any method), or a pattern object.
 * A URL without an origin matches the path of any origin; `*` matches one path segment or more.
 *
 * @example
 * const route: MockRoute = { method: 'GET', url: /\/runs\/\w+\/events$/, answer: fixtures['ag-ui'].run }
 */
export interface MockRoute {
  method?: string
  url: string | RegExp
  answer: RouteAnswer | readonly RouteAnswer[]
  /** How fixtures and events are streamed on this route. */
  stream?: StreamResponseOptions
}

/**
 * A `fetch` made by `mockFetch`, with what it received.
 *
 * @example
 * const fetch: MockFetch = mockFetch({ 'POST /api/chat': fixtures['ui-message'].plain })
 * // … the test sends one message …
 * expect(fetch.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(['POST /api/chat'])
 */
export interface MockFetch {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>
  /** Every request, oldest first (unmatched ones too). */
  readonly calls: readonly RecordedRequest[]
  /** The latest request, if any. */
  readonly lastCall: RecordedRequest | undefined
  /** Requests that matched no route (each was answered 404). */
  readonly unmatched: readonly RecordedRequest[]
  /** Forget the recorded requests and restart every route's sequence. */
  reset(): void
}

/**
 * An injectable `fetch` for an agent client: answers by URL and method, records
 * every request. An unmatched request gets a 404 with a JSON body naming it.
 *
 * @example
 * const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain })
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent', fetch })
 * await client.send('Hello')
 * fetch.lastCall?.json() // { input: 'Hello' }
 */
export function mockFetch(routes: Record<string, RouteAnswer | readonly RouteAnswer[]> | readonly MockRoute[], defaults: StreamResponseOptions = {}): MockFetch {
  const list: MockRoute[] = Array.isArray(routes)
    ? [...(routes as readonly MockRoute[])]
    : Object.entries(routes as Record<string, RouteAnswer | readonly RouteAnswer[]>).map(([key, answer]) => parseKey(key, answer))
  const calls: RecordedRequest[] = []
  const unmatched: RecordedRequest[] = []
  let served = new Map<MockRoute, number>()

  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    // jsdom's AbortSignal is not the one Node's `Request` accepts, so the signal travels beside the request.
    const { signal: initSignal, ...rest } = init ?? {}
    const signal = initSignal ?? (input instanceof Request ? input.signal : undefined) ?? undefined
    const request = new Request(absolute(input), rest)
    const body = request.body ? await request.clone().text() : undefined
    const recorded = record(request, body)
    calls.push(recorded)
    const route = list.find((r) => matches(r, request))
    if (!route) {
      unmatched.push(recorded)
      return new Response(JSON.stringify({ error: 'not_mocked', message: `mockFetch has no route for ${request.method} ${request.url}` }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      })
    }
    const answers = isAnswerList(route.answer) ? route.answer : [route.answer]
    const n = served.get(route) ?? 0
    served.set(route, n + 1)
    const answer = answers[Math.min(n, answers.length - 1)]!
    const result = typeof answer === 'function' ? await answer(request, { recorded, signal }) : answer
    if (result instanceof Response) return result
    return streamResponse(result as StreamSource, { ...defaults, ...route.stream, signal })
  }

  // defineProperties, not Object.assign: the getters must stay live.
  return Object.defineProperties(fetchImpl, {
    calls: { get: () => calls },
    lastCall: { get: () => calls[calls.length - 1] },
    unmatched: { get: () => unmatched },
    reset: {
      value: () => {
        calls.length = 0
        unmatched.length = 0
        served = new Map()
      },
    },
  }) as MockFetch
}

function parseKey(key: string, answer: RouteAnswer | readonly RouteAnswer[]): MockRoute {
  const m = /^([A-Z]+)\s+(.+)$/.exec(key.trim())
  return m ? { method: m[1], url: m[2]!, answer } : { url: key.trim(), answer }
}

/** Relative URLs resolve against the page in a browser and a fixed origin elsewhere. */
function absolute(input: RequestInfo | URL): RequestInfo | URL {
  if (typeof input !== 'string') return input
  const base = typeof location !== 'undefined' && location.href.startsWith('http') ? location.href : 'http://localhost/'
  return new URL(input, base)
}

function matches(route: MockRoute, request: Request): boolean {
  if (route.method && route.method.toUpperCase() !== request.method.toUpperCase()) return false
  const url = new URL(request.url)
  if (route.url instanceof RegExp) return route.url.test(request.url)
  const pattern = route.url
  const hasOrigin = /^[a-z]+:\/\//i.test(pattern)
  const target = hasOrigin ? url.origin + url.pathname : url.pathname
  const path = hasOrigin ? pattern.split('?')[0]! : (pattern.split('?')[0] ?? '/')
  const source = '^' + path.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.+') + '/?$'
  return new RegExp(source).test(target)
}

function isAnswerList(answer: MockRoute['answer']): answer is readonly RouteAnswer[] {
  // Bare events are an array too: a list of answers holds only answers.
  return Array.isArray(answer) && answer.length > 0 && answer.every((a) => a instanceof Response || typeof a === 'function' || isFixture(a))
}

function isFixture(value: unknown): value is AgentFixture {
  return typeof value === 'object' && value !== null && Array.isArray((value as AgentFixture).frames) && typeof (value as AgentFixture).protocol === 'string'
}

function record(request: Request, body: string | undefined): RecordedRequest {
  const headers: Record<string, string> = {}
  request.headers.forEach((value, key) => {
    headers[key] = value
  })
  return {
    method: request.method,
    url: request.url,
    headers,
    body,
    json<T>() {
      if (body === undefined) throw new Error(`weft/testing: ${request.method} ${request.url} had no body`)
      return JSON.parse(body) as T
    },
  }
}
