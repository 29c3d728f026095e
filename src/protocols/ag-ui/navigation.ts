/**
 * Navigation actions in a tool result's `ui_schema.actions`: the server names an
 * internal, already filled route (`/todo/123`) and scalar query parameters; the
 * kit checks both and hands the host `(path, params)`. The kit never touches
 * `location` itself.
 */
import { isRecord, isSafeKey, recordOf } from '../../protocol-kit/index'

/**
 * Query parameters of a navigation: scalars only.
 *
 * @example
 * const params: NavigationParams = { from: 'chat', page: 2, archived: false }
 */
export type NavigationParams = Record<string, string | number | boolean>

/**
 * Where a navigation action leads.
 *
 * @example
 * const target: NavigationTarget = { path: '/todo/123', params: { tab: 'notes' } }
 */
export interface NavigationTarget {
  path: string
  params: NavigationParams
}

/**
 * The host's router, called when the user follows a navigation action.
 *
 * @example
 * const onNavigate: NavigateHandler = (path, params) => router.push(navigationHref(path, params))
 */
export type NavigateHandler = (path: string, params: NavigationParams) => void

/**
 * The outcome of checking one action: a target, or why there is none.
 *
 * @example
 * const checked: NavigationCheck = checkNavigationAction(action)
 * if (!checked.ok) console.warn(checked.reason)
 */
export type NavigationCheck = { ok: true; target: NavigationTarget } | { ok: false; reason: string }

const MAX_PATH_LENGTH = 2048

/**
 * True when an action (from `ui_schema.actions`) declares itself a navigation,
 * either as `{type: 'navigation', path}` or as `{action: {type: 'navigation', path}}`.
 *
 * @example
 * isNavigationAction({ type: 'navigation', path: '/todo/1' }) // true
 * isNavigationAction({ type: 'submit' })                      // false
 */
export function isNavigationAction(action: unknown): boolean {
  return navigationBody(action) !== undefined
}

/**
 * Check a navigation action and say why it is refused, if it is.
 *
 * Accepted: a path with exactly one leading `/`, no scheme, no `//`, no
 * backslash, no whitespace or control characters, no unfilled `:param` segment
 * and no `{placeholder}`; params absent or a plain object of strings, finite
 * numbers and booleans.
 *
 * @example
 * checkNavigationAction({ type: 'navigation', path: '/todo/:id' })
 * // { ok: false, reason: 'the path "/todo/:id" has an unfilled ":id" segment' }
 */
export function checkNavigationAction(action: unknown): NavigationCheck {
  const body = navigationBody(action)
  if (!body) return { ok: false, reason: 'not a navigation action' }
  const pathProblem = checkPath(body.path)
  if (pathProblem) return { ok: false, reason: pathProblem }
  const params = readParams(body.params)
  if (typeof params === 'string') return { ok: false, reason: params }
  return { ok: true, target: { path: body.path as string, params } }
}

/**
 * The target of a navigation action, or `undefined` when the action is not a
 * navigation or is refused (see `checkNavigationAction`).
 *
 * @example
 * toNavigationTarget({ type: 'navigation', path: '/todo/123/edit', params: { from: 'chat' } })
 * // { path: '/todo/123/edit', params: { from: 'chat' } }
 * toNavigationTarget({ type: 'navigation', path: 'https://evil.example' }) // undefined
 */
export function toNavigationTarget(action: unknown): NavigationTarget | undefined {
  const checked = checkNavigationAction(action)
  return checked.ok ? checked.target : undefined
}

/**
 * A link for a target: the path with the params as a query string (added to a
 * query the path already has, kept before any `#fragment`).
 *
 * @example
 * navigationHref('/todo/123', { tab: 'notes', done: false }) // '/todo/123?tab=notes&done=false'
 * navigationHref('/calendar/events/new', {})               // '/calendar/events/new'
 */
export function navigationHref(path: string, params: NavigationParams = {}): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) query.append(key, String(value))
  const text = query.toString()
  if (!text) return path
  const hashAt = path.indexOf('#')
  const base = hashAt >= 0 ? path.slice(0, hashAt) : path
  const hash = hashAt >= 0 ? path.slice(hashAt) : ''
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?'
  return `${base}${joiner}${text}${hash}`
}

/**
 * Follow an action through the host's handler when it is a valid navigation.
 * Returns whether the handler was called.
 *
 * @example
 * <button onClick={() => followNavigation(action, onNavigate)}>{action.label}</button>
 */
export function followNavigation(action: unknown, onNavigate: NavigateHandler): boolean {
  const target = toNavigationTarget(action)
  if (!target) return false
  onNavigate(target.path, { ...target.params })
  return true
}

function navigationBody(action: unknown): { path: unknown; params: unknown } | undefined {
  if (!isRecord(action)) return undefined
  if (action.type === 'navigation') return { path: action.path, params: action.params }
  const inner = action.action
  if (isRecord(inner) && inner.type === 'navigation') return { path: inner.path, params: inner.params }
  return undefined
}

function checkPath(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'a navigation needs a path'
  const shown = JSON.stringify(path.length > 120 ? `${path.slice(0, 120)}…` : path)
  if (path.length > MAX_PATH_LENGTH) return `the path ${shown} is too long`
  if (!path.startsWith('/')) return `the path ${shown} is not internal (it must start with "/")`
  if (path.includes('\\')) return `the path ${shown} has a backslash`
  if (path.includes('//')) return `the path ${shown} has "//"`
  if (/[\s\u0000-\u001f\u007f]/.test(path)) return `the path ${shown} has whitespace or control characters`
  const decoded = safeDecode(path)
  if (decoded === undefined) return `the path ${shown} is not valid percent-encoding`
  if (decoded.startsWith('//') || decoded.includes('\\')) return `the path ${shown} decodes to an address outside the app`
  const route = path.split(/[?#]/, 1)[0] as string
  if (/[{}]/.test(route) || /%7[bd]/i.test(route)) return `the path ${shown} has an unfilled "{…}" placeholder`
  const unfilled = route.split('/').find((segment) => segment.startsWith(':'))
  if (unfilled !== undefined) return `the path ${shown} has an unfilled "${unfilled}" segment`
  return undefined
}

function readParams(raw: unknown): NavigationParams | string {
  if (raw === undefined || raw === null) return {}
  if (!isRecord(raw)) return 'navigation params must be an object of scalars'
  const params: NavigationParams = {}
  for (const [key, value] of Object.entries(raw)) {
    if (key === '' || !isSafeKey(key)) return `the navigation param name ${JSON.stringify(key)} is not allowed`
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      params[key] = value
    } else {
      return `the navigation param "${key}" is not a string, number or boolean`
    }
  }
  return params
}

function safeDecode(path: string): string | undefined {
  try {
    return decodeURIComponent(path)
  } catch {
    return undefined
  }
}

/**
 * One navigation action: an internal route, its query parameters and its label.
 *
 * @example
 * const action: NavigationAction = { path: '/todo/123', params: { tab: 'notes' }, label: 'Open' }
 */
export interface NavigationAction {
  path: string
  params: NavigationParams
  label: string
}

/**
 * The navigation actions in a tool's `props.actions` that pass the kit's check
 * (an internal, filled-in path; scalar params). An item without a `type` counts
 * as a navigation; an item of another type is skipped.
 *
 * @example
 * readNavigationActions([{ path: '/todo/1', params: { tab: 'notes' } }, { type: 'navigation', path: 'https://evil.example' }])
 * // [{ path: '/todo/1', params: { tab: 'notes' }, label: '/todo/1' }]
 */
export function readNavigationActions(actions: unknown): NavigationAction[] {
  if (!Array.isArray(actions)) return []
  const out: NavigationAction[] = []
  for (const item of actions) {
    const action = recordOf(item)
    if (!action) continue
    const target = toNavigationTarget(action.type === undefined && action.action === undefined ? { ...action, type: 'navigation' } : action)
    if (!target) continue
    const inner = recordOf(action.action)
    const label = labelText(action.label) || labelText(action.title) || labelText(inner?.label) || target.path
    out.push({ ...target, label })
  }
  return out
}

// Display text of a label field: a string as it is, a number or boolean spelled out.
function labelText(value: unknown): string {
  if (typeof value === 'string') return value
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''
}
