import { describe, expect, it } from 'vitest'
import {
  checkNavigationAction, followNavigation, isNavigationAction, navigationHref, toNavigationTarget, type NavigationParams,
} from '../../../src/protocols/ag-ui/navigation'

const nav = (path: unknown, params?: unknown) => ({ type: 'navigation', label: 'Go', path, ...(params === undefined ? {} : { params }) })

describe('navigation actions: accepted', () => {
  it.each<[string, unknown, NavigationParams]>([
    ['/todo/123', undefined, {}],
    ['/todo/123/edit', { from: 'chat' }, { from: 'chat' }],
    ['/calendar/events/new', { day: '2026-03-16', allDay: true, count: 2 }, { day: '2026-03-16', allDay: true, count: 2 }],
    ['/', null, {}],
    ['/search?q=milk', { page: 2 }, { page: 2 }],
    ['/a:b/c', {}, {}],
    ['/todo/%E4%B9%B0', {}, {}],
    ['/todo/123#notes', {}, {}],
  ])('%s with params %j', (path, params, expected) => {
    expect(toNavigationTarget(nav(path, params))).toEqual({ path, params: expected })
  })

  it('reads the nested form {action: {type, path, params}}', () => {
    expect(toNavigationTarget({ label: 'Edit', action: { type: 'navigation', path: '/todo/1/edit', params: { x: 1 } } }))
      .toEqual({ path: '/todo/1/edit', params: { x: 1 } })
  })
})

describe('navigation actions: refused', () => {
  it.each<[string, unknown, unknown, RegExp]>([
    ['no path', undefined, undefined, /needs a path/],
    ['empty path', '', undefined, /needs a path/],
    ['a number', 42, undefined, /needs a path/],
    ['relative', 'todo/123', undefined, /not internal/],
    ['absolute URL', 'https://evil.example/todo', undefined, /not internal/],
    ['javascript: scheme', 'javascript:alert(1)', undefined, /not internal/],
    ['protocol-relative', '//evil.example/x', undefined, /"\/\/"/],
    ['double slash inside', '/todo//123', undefined, /"\/\/"/],
    ['backslash', '/\\evil.example', undefined, /backslash/],
    ['encoded slash start', '/%2Fevil.example', undefined, /outside the app/],
    ['encoded backslash', '/%5Cevil.example', undefined, /outside the app/],
    ['broken escape', '/todo/%E0%A4%A', undefined, /percent-encoding/],
    ['unfilled :param', '/todo/:id', undefined, /unfilled ":id"/],
    ['unfilled :param mid-path', '/todo/:id/edit', undefined, /unfilled ":id"/],
    ['unfilled {id}', '/todo/{id}/edit', undefined, /placeholder/],
    ['encoded {id}', '/todo/%7Bid%7D', undefined, /placeholder/],
    ['whitespace', '/todo/1 2', undefined, /whitespace/],
    ['newline', '/todo/1\n', undefined, /whitespace/],
    ['control character', '/todo/\u0000', undefined, /control/],
    ['too long', `/${'a'.repeat(3000)}`, undefined, /too long/],
    ['params not an object', '/todo/1', 'tab=1', /object of scalars/],
    ['params an array', '/todo/1', ['a'], /object of scalars/],
    ['nested object param', '/todo/1', { filter: { a: 1 } }, /not a string, number or boolean/],
    ['array param', '/todo/1', { ids: [1, 2] }, /not a string, number or boolean/],
    ['null param', '/todo/1', { a: null }, /not a string, number or boolean/],
    ['non-finite number', '/todo/1', { a: Number.POSITIVE_INFINITY }, /not a string, number or boolean/],
    ['prototype key', '/todo/1', JSON.parse('{"__proto__":"x"}'), /not allowed/],
    ['empty key', '/todo/1', { '': 'x' }, /not allowed/],
  ])('%s', (_name, path, params, reason) => {
    const action = nav(path, params)
    expect(toNavigationTarget(action)).toBeUndefined()
    const checked = checkNavigationAction(action)
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.reason).toMatch(reason)
  })

  it('is not a navigation unless it says so', () => {
    expect(isNavigationAction({ type: 'submit', path: '/x' })).toBe(false)
    expect(isNavigationAction(null)).toBe(false)
    expect(checkNavigationAction({ type: 'link', path: '/x' })).toEqual({ ok: false, reason: 'not a navigation action' })
  })
})

describe('navigationHref', () => {
  it.each<[string, NavigationParams, string]>([
    ['/todo/123', {}, '/todo/123'],
    ['/todo/123', { tab: 'notes', done: false, n: 2 }, '/todo/123?tab=notes&done=false&n=2'],
    ['/search?q=a', { page: 2 }, '/search?q=a&page=2'],
    ['/search?', { page: 2 }, '/search?page=2'],
    ['/todo/1#notes', { from: 'chat' }, '/todo/1?from=chat#notes'],
    ['/x', { q: 'a b&c=d' }, '/x?q=a+b%26c%3Dd'],
  ])('%s + %j → %s', (path, params, href) => {
    expect(navigationHref(path, params)).toBe(href)
  })
})

describe('followNavigation', () => {
  it('calls the host handler with path and params for a valid action only', () => {
    const calls: Array<[string, NavigationParams]> = []
    const onNavigate = (path: string, params: NavigationParams) => calls.push([path, params])
    expect(followNavigation(nav('/todo/9', { from: 'chat' }), onNavigate)).toBe(true)
    expect(followNavigation(nav('https://evil.example'), onNavigate)).toBe(false)
    expect(calls).toEqual([['/todo/9', { from: 'chat' }]])
  })
})
