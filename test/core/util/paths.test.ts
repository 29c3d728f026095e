/**
 * Exact expectations for paths inside a message's props: the segments a path
 * splits into, the error (class and message) for each kind of path refused,
 * that a path parsed again returns the same segments until the bounded cache of
 * parsed paths starts over, and what reading and writing along a path do with
 * scalars, inherited keys, numeric segments and frozen values on the way.
 */
import { describe, expect, it } from 'vitest'
import { getAt, MAX_PATH_SEGMENTS, parentAt, parsePath, PathError, setAt } from '../../../src/core/util/paths'

/** What `run` throws; fails when it returns. */
function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('expected a throw')
}

/** Expect `run` to throw a PathError with exactly `message`. */
function refuses(run: () => unknown, message: string): void {
  const thrown = thrownBy(run)
  expect(thrown).toBeInstanceOf(PathError)
  expect((thrown as PathError).message).toBe(message)
}

describe('PathError', () => {
  it('is an Error named PathError', () => {
    const error = new PathError('no')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('PathError')
    expect(String(error)).toBe('PathError: no')
  })

  it('is what a refused path throws, under its own name', () => {
    expect(String(thrownBy(() => parsePath('a..b')))).toBe('PathError: malformed path "a..b"')
  })
})

describe('the segments of a path', () => {
  it('splits names at dots and takes each [index] group as a segment', () => {
    expect(parsePath('a')).toEqual(['a'])
    expect(parsePath('a.b.c')).toEqual(['a', 'b', 'c'])
    expect(parsePath('items[0].title')).toEqual(['items', '0', 'title'])
    expect(parsePath('a[1][2]')).toEqual(['a', '1', '2'])
    expect(parsePath('a[1][2].b')).toEqual(['a', '1', '2', 'b'])
    expect(parsePath('[3].x')).toEqual(['3', 'x'])
    expect(parsePath('grid[0][1][2]')).toEqual(['grid', '0', '1', '2'])
  })

  it('takes an index group as it is written, words and spaces included', () => {
    expect(parsePath('a[key with space]')).toEqual(['a', 'key with space'])
    expect(parsePath('a[x-y]')).toEqual(['a', 'x-y'])
  })

  it('an empty path is no segments, the whole props', () => {
    expect(parsePath('')).toEqual([])
  })

  it('returns frozen segments', () => {
    expect(Object.isFrozen(parsePath('frozen.a'))).toBe(true)
    expect(Object.isFrozen(parsePath(''))).toBe(true)
  })

  it('a path of exactly the limit of segments is used; one more is refused with the count', () => {
    const at = Array.from({ length: MAX_PATH_SEGMENTS }, () => 'a')
    expect(parsePath(at.join('.'))).toEqual(at)
    refuses(() => parsePath([...at, 'a'].join('.')), `a path of ${MAX_PATH_SEGMENTS + 1} segments is deeper than the limit of ${MAX_PATH_SEGMENTS}`)
  })
})

describe('paths refused as malformed', () => {
  it('a trailing dot', () => {
    refuses(() => parsePath('a.'), 'malformed path "a."')
    refuses(() => parsePath('a[0].'), 'malformed path "a[0]."')
  })

  it('a leading dot, two dots in a row, or a lone dot', () => {
    refuses(() => parsePath('.a'), 'malformed path ".a"')
    refuses(() => parsePath('a..b'), 'malformed path "a..b"')
    refuses(() => parsePath('.'), 'malformed path "."')
  })

  it('a closing bracket with no opening one', () => {
    refuses(() => parsePath('a]b'), 'malformed path "a]b"')
    refuses(() => parsePath('a]'), 'malformed path "a]"')
    refuses(() => parsePath('x.a]b.c'), 'malformed path "x.a]b.c"')
  })

  it('an opening bracket that is never closed', () => {
    refuses(() => parsePath('a[0'), 'malformed path "a[0"')
    refuses(() => parsePath('a['), 'malformed path "a["')
    refuses(() => parsePath('a[0][1'), 'malformed path "a[0][1"')
    refuses(() => parsePath('[0'), 'malformed path "[0"')
  })

  it('an index group holding a bracket or a dot', () => {
    refuses(() => parsePath('a[b.c]'), 'malformed path "a[b.c]"')
    refuses(() => parsePath('a[[0]'), 'malformed path "a[[0]"')
    refuses(() => parsePath('a[b[0].c]'), 'malformed path "a[b[0].c]"')
  })

  it('a name right after an index group, with no dot between', () => {
    refuses(() => parsePath('a[0]b'), 'malformed path "a[0]b"')
    refuses(() => parsePath('a[0]xy'), 'malformed path "a[0]xy"')
    refuses(() => parsePath('a[0]xy.z'), 'malformed path "a[0]xy.z"')
  })
})

describe('paths refused for their segments', () => {
  it('an empty index group is an empty segment', () => {
    refuses(() => parsePath('a[]'), 'empty segment in path "a[]"')
    refuses(() => parsePath('a[0][].b'), 'empty segment in path "a[0][].b"')
  })

  it('a segment that could reach a prototype names the key', () => {
    refuses(() => parsePath('a.__proto__'), 'path "a.__proto__" names a forbidden key "__proto__"')
    refuses(() => parsePath('constructor.prototype'), 'path "constructor.prototype" names a forbidden key "constructor"')
    refuses(() => parsePath('a[prototype]'), 'path "a[prototype]" names a forbidden key "prototype"')
  })
})

describe('a path parsed again', () => {
  it('returns the same segments as the first time', () => {
    const first = parsePath('again.items[0].title')
    expect(parsePath('again.items[0].title')).toBe(first)
    expect(first).toEqual(['again', 'items', '0', 'title'])
  })

  it('a few paths used in turn each keep their segments', () => {
    const a = parsePath('turns.a')
    const b = parsePath('turns.b')
    const c = parsePath('turns.c')
    for (let i = 0; i < 3; i++) {
      expect(parsePath('turns.a')).toBe(a)
      expect(parsePath('turns.b')).toBe(b)
      expect(parsePath('turns.c')).toBe(c)
    }
  })

  it('a refused path is refused every time', () => {
    refuses(() => parsePath('twice..refused'), 'malformed path "twice..refused"')
    refuses(() => parsePath('twice..refused'), 'malformed path "twice..refused"')
  })

  it('the parsed paths kept are bounded: 512 paths are kept, the next new one starts over', () => {
    const CACHED = 512
    // Parse new paths until the probe is parsed anew: the kept paths were just dropped,
    // and now only the last new path and the probe are kept.
    const first = parsePath('bound.probe')
    let probe = first
    for (let n = 0; probe === first; n++) {
      if (n > 2 * CACHED) throw new Error(`still kept after ${n} other paths`)
      parsePath(`bound.fill.${n}`)
      probe = parsePath('bound.probe')
    }
    expect(probe).toEqual(['bound', 'probe'])
    for (let i = 2; i < CACHED; i++) parsePath(`bound.more.${i}`)
    expect(parsePath('bound.probe')).toBe(probe)
    parsePath('bound.one.over')
    const after = parsePath('bound.probe')
    expect(after).not.toBe(probe)
    expect(after).toEqual(['bound', 'probe'])
  })
})

describe('reading at a path', () => {
  it('reads through objects and arrays', () => {
    expect(getAt({ a: [{ b: 1 }] }, ['a', '0', 'b'])).toBe(1)
    expect(getAt({ a: { b: null } }, ['a', 'b'])).toBe(null)
  })

  it('no segments read the root itself', () => {
    const root = { a: 1 }
    expect(getAt(root, [])).toBe(root)
    expect(getAt('text', [])).toBe('text')
  })

  it('a missing key is undefined', () => {
    expect(getAt({ a: {} }, ['a', 'b'])).toBeUndefined()
    expect(getAt({ a: {} }, ['a', 'b', 'c'])).toBeUndefined()
  })

  it('a string on the way is not read into: its characters are not fields', () => {
    expect(getAt({ content: 'abc' }, ['content', '0'])).toBeUndefined()
    expect(getAt({ content: 'abc' }, ['content', 'length'])).toBeUndefined()
    expect(getAt('abc', ['0'])).toBeUndefined()
  })

  it('null or a number on the way is undefined, never a throw', () => {
    expect(getAt({ a: null }, ['a', 'b'])).toBeUndefined()
    expect(getAt(null, ['a'])).toBeUndefined()
    expect(getAt(undefined, ['a'])).toBeUndefined()
    expect(getAt({ n: 5 }, ['n', 'toFixed'])).toBeUndefined()
  })

  it('a key the value only inherits is undefined', () => {
    expect(getAt({}, ['toString'])).toBeUndefined()
    expect(getAt({ a: {} }, ['a', 'hasOwnProperty'])).toBeUndefined()
    expect(getAt({ list: [1] }, ['list', 'map'])).toBeUndefined()
  })

  it("an array's own length is read", () => {
    expect(getAt({ list: [1, 2] }, ['list', 'length'])).toBe(2)
  })
})

describe('writing at a path', () => {
  it('writes into the objects on the way, keeping them', () => {
    const inner = { x: 1 }
    const root: Record<string, unknown> = { a: inner }
    setAt(root, ['a', 'y'], 2)
    expect(root).toStrictEqual({ a: { x: 1, y: 2 } })
    expect(root.a).toBe(inner)
  })

  it('creates an object for a name and an array for a numeric segment', () => {
    const root: Record<string, unknown> = {}
    setAt(root, ['a', '0'], 'x')
    expect(root).toStrictEqual({ a: ['x'] })
    setAt(root, ['b', 'c', 'd'], 1)
    expect(root).toStrictEqual({ a: ['x'], b: { c: { d: 1 } } })
  })

  it('replaces a null or a scalar on the way with a new container, an array before a numeric segment', () => {
    const root: Record<string, unknown> = { a: null, b: 'text', c: 3 }
    setAt(root, ['a', '0'], 'x')
    setAt(root, ['b', 'k'], 'y')
    setAt(root, ['c', '1'], 'z')
    expect(root).toEqual({ a: ['x'], b: { k: 'y' }, c: [undefined, 'z'] })
    expect(Array.isArray(root.a) && Array.isArray(root.c)).toBe(true)
  })

  it('a numeric segment past the start leaves the array empty before it', () => {
    const root: Record<string, unknown> = {}
    setAt(root, ['items', '2'], 'c')
    const items = root.items as unknown[]
    expect(Array.isArray(items)).toBe(true)
    expect(items).toHaveLength(3)
    expect(Object.keys(items)).toEqual(['2'])
    expect(items[2]).toBe('c')
  })

  it('a segment of several digits is numeric; one of digits and letters is a name', () => {
    const root: Record<string, unknown> = {}
    setAt(root, ['rows', '12'], 'r')
    expect(Array.isArray(root.rows)).toBe(true)
    expect(root.rows as unknown[]).toHaveLength(13)
    setAt(root, ['named', '1a'], 'n')
    expect(root.named).toStrictEqual({ '1a': 'n' })
    setAt(root, ['tail', 'a1'], 't')
    expect(root.tail).toStrictEqual({ a1: 't' })
  })

  it('a scalar or null on the way is replaced by a new object', () => {
    const root: Record<string, unknown> = { text: 'abc', none: null, n: 5 }
    setAt(root, ['text', 'b'], 1)
    setAt(root, ['none', 'b'], 2)
    setAt(root, ['n', '0'], 3)
    expect(root).toStrictEqual({ text: { b: 1 }, none: { b: 2 }, n: [3] })
  })

  it('a frozen object on the way is copied, the frozen one untouched', () => {
    const frozen = Object.freeze({ x: 1 })
    const root: Record<string, unknown> = { a: frozen }
    setAt(root, ['a', 'y'], 2)
    expect(root).toStrictEqual({ a: { x: 1, y: 2 } })
    expect(root.a).not.toBe(frozen)
    expect(frozen).toStrictEqual({ x: 1 })
  })

  it('one segment writes the field of the root', () => {
    const root: Record<string, unknown> = { a: 1 }
    setAt(root, ['a'], 2)
    expect(root).toStrictEqual({ a: 2 })
  })

  it('no segments is refused: the root cannot be set', () => {
    const root: Record<string, unknown> = { a: 1 }
    refuses(() => setAt(root, [], { b: 2 }), 'cannot set the root')
    expect(root).toStrictEqual({ a: 1 })
  })

  it('the parent of a path is the object holding its last segment', () => {
    const root: Record<string, unknown> = {}
    const parent = parentAt(root, ['a', 'b', 'c'])
    expect(root).toStrictEqual({ a: { b: {} } })
    expect(parent).toBe((root.a as Record<string, unknown>).b)
    expect(parentAt(root, ['top'])).toBe(root)
  })
})
