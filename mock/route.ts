/**
 * Route types and the tiny path matcher of the mock agent server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Scenario } from './scenario.js'

/** Everything a route handler needs about one request. */
export interface MockRequestContext {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Values of the `:name` segments of the route's path pattern. */
  params: Record<string, string>
  query: URLSearchParams
  /** Scenarios this handler serves (the registry unless options replaced it). */
  scenarios: readonly Scenario[]
  /** Default per-frame delay of this handler. */
  defaultDelayMs: number
}

/** May return a promise; other return values are ignored. */
export type MockRouteHandler = (ctx: MockRequestContext) => unknown

export interface MockRoute {
  /** `GET`, `['GET', 'POST']`, `'GET|POST'` or `'*'`. HEAD and OPTIONS ride along with GET. */
  method: string | readonly string[]
  /** Path pattern with `:name` segments, e.g. `/mock/resume/:protocol/:id`. */
  path: string
  handler: MockRouteHandler
}

export interface CompiledRoute {
  route: MockRoute
  methods: Set<string> | '*'
  pattern: RegExp
  names: string[]
}

export function compileRoute(route: MockRoute): CompiledRoute {
  const list = typeof route.method === 'string' ? route.method.split('|') : [...route.method]
  const upper = list.map((m) => m.trim().toUpperCase())
  const names: string[] = []
  const source = route.path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1))
        return '([^/]+)'
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return {
    route,
    methods: upper.includes('*') ? '*' : new Set(upper),
    pattern: new RegExp(`^${source}/?$`),
    names,
  }
}

export function matchRoutes(
  routes: readonly CompiledRoute[],
  method: string,
  pathname: string,
): { route: MockRoute; params: Record<string, string> } | undefined {
  for (const compiled of routes) {
    const m = compiled.pattern.exec(pathname)
    if (!m) continue
    const allowed =
      compiled.methods === '*' ||
      compiled.methods.has(method) ||
      ((method === 'HEAD' || method === 'OPTIONS') && compiled.methods.has('GET'))
    if (!allowed) continue
    const params: Record<string, string> = {}
    compiled.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? '')
    })
    return { route: compiled.route, params }
  }
  return undefined
}
