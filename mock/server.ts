/**
 * A small, framework-free mock agent server.
 *
 * `createMockAgentHandler()` returns a Node request handler that works as
 * Vite/connect middleware (it calls `next()` for paths outside `/mock/`) and
 * with `http.createServer` in tests.
 *
 * Built-in routes:
 * - `GET /mock/scenarios`: JSON list of registered scenarios.
 * - `GET|POST /mock/stream/:protocol/:scenario`: streams a scenario as SSE.
 *   Query options (see {@link parseStreamOptions}): `delay`, `cut`, `chunk=random`,
 *   `seed`, `crlf=1`, `status`.
 *
 * Extra routes come from `options.routes`, the registry in `mock/routes`, and
 * `handler.route()`; all are matched before the built-ins.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { compileRoute, matchRoutes, type CompiledRoute, type MockRoute, type MockRouteHandler } from './route.js'
import { routes as registeredRoutes } from './routes/index.js'
import type { Scenario } from './scenario.js'
import { findScenario, scenarios as registeredScenarios } from './scenarios/index.js'
import { parseStreamOptions, sendJson, streamFrames, toInt } from './sse.js'

export type { MockFrame, Scenario } from './scenario.js'
export type { MockRequestContext, MockRoute, MockRouteHandler } from './route.js'
export { parseStreamOptions, readBody, sendJson, sliceBytes, SSE_HEADERS, streamFrames, type StreamOptions } from './sse.js'

export interface MockAgentHandlerOptions {
  /** Scenarios to serve; defaults to the registry in `mock/scenarios`. */
  scenarios?: readonly Scenario[]
  /** Extra routes, matched first (before the `mock/routes` registry and the built-ins). */
  routes?: readonly MockRoute[]
  /** Per-frame delay when the request has no `delay` query option. Default 0. */
  defaultDelayMs?: number
}

export interface MockAgentHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void
  /** Registers an extra route (matched before the built-ins); returns the handler for chaining. */
  route(method: MockRoute['method'], path: string, handler: MockRouteHandler): MockAgentHandler
}

/** Summary returned by `GET /mock/scenarios`. */
export interface ScenarioSummary {
  protocol: string
  name: string
  title: string
  frames: number
  url: string
}

const builtInRoutes: MockRoute[] = [
  {
    method: 'GET',
    path: '/mock/scenarios',
    handler: ({ res, scenarios }) => {
      const list: ScenarioSummary[] = scenarios.map((s) => ({
        protocol: s.protocol,
        name: s.name,
        title: s.title,
        frames: s.frames.length,
        url: `/mock/stream/${s.protocol}/${s.name}`,
      }))
      sendJson(res, 200, list)
    },
  },
  {
    method: ['GET', 'POST'],
    path: '/mock/stream/:protocol/:scenario',
    handler: async ({ req, res, params, query, scenarios, defaultDelayMs }) => {
      const scenario = findScenario(params.protocol ?? '', params.scenario ?? '', scenarios)
      if (!scenario) {
        sendJson(res, 404, {
          error: 'not_found',
          message: `Unknown scenario ${params.protocol}/${params.scenario}`,
        })
        return
      }
      req.resume() // drain any request body; the scenario does not depend on it
      const status = toInt(query.get('status'))
      if (status !== undefined && status !== 200) {
        if (status === 204) res.writeHead(204).end()
        else sendJson(res, status, { error: 'mock_status', message: `Mock failure with HTTP ${status}` })
        return
      }
      await streamFrames(res, scenario.frames, parseStreamOptions(query, defaultDelayMs), scenario.headers)
    },
  },
]

/**
 * Creates the mock agent request handler.
 *
 * @example
 * const handler = createMockAgentHandler()
 * handler.route('GET', '/mock/echo/:id', ({ res, params }) => sendJson(res, 200, params))
 * http.createServer(handler).listen(0)
 */
export function createMockAgentHandler(options: MockAgentHandlerOptions = {}): MockAgentHandler {
  const scenarios = options.scenarios ?? registeredScenarios
  const defaultDelayMs = options.defaultDelayMs ?? 0
  const extraRoutes: CompiledRoute[] = [...(options.routes ?? []), ...registeredRoutes].map(compileRoute)
  const builtIns = builtInRoutes.map(compileRoute)

  const handler = ((req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://mock.local')
    const method = (req.method ?? 'GET').toUpperCase()
    const owned = url.pathname === '/mock' || url.pathname.startsWith('/mock/')
    const extraMatch = matchRoutes(extraRoutes, method, url.pathname)

    if (!extraMatch && !owned) {
      if (next) next()
      else sendJson(res, 404, { error: 'not_found', message: `No route for ${method} ${url.pathname}` })
      return
    }
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': '*',
      })
      res.end()
      return
    }
    res.setHeader('access-control-allow-origin', '*')

    const found = extraMatch ?? matchRoutes(builtIns, method, url.pathname)
    if (!found) {
      sendJson(res, 404, { error: 'not_found', message: `No mock route for ${method} ${url.pathname}` })
      return
    }
    const ctx = { req, res, url, params: found.params, query: url.searchParams, scenarios, defaultDelayMs }
    Promise.resolve()
      .then(() => found.route.handler(ctx))
      .catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: 'mock_error', message: String(error) })
        else res.destroy()
      })
  }) as MockAgentHandler

  handler.route = (method, path, fn) => {
    extraRoutes.push(compileRoute({ method, path, handler: fn }))
    return handler
  }
  return handler
}
