/**
 * `isJsonData` and `patchJsonData`: only JSON data is JSON data, and a JSON
 * Patch applied through `patchJsonData` either changes nothing (refused whole)
 * or gives JSON data, never a member of a prototype.
 */
import fc from 'fast-check'
import jsonPatch from 'fast-json-patch'
import { describe, expect, it } from 'vitest'
import { isJsonData, JsonPatchRefused, patchJsonData } from '../../../src/core/util/json-data'

/** Names every plain object answers to without having them. */
const INHERITED = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__', '__defineGetter__', 'length', 'prototype']

describe('isJsonData', () => {
  it('every JSON value is JSON data, and so is what JSON.parse makes of it', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(isJsonData(value)).toBe(true)
      expect(isJsonData(JSON.parse(JSON.stringify(value)))).toBe(true)
    }), { numRuns: 500 })
  })

  it('a JSON value with anything else put somewhere inside is not', () => {
    const foreign = fc.constantFrom<unknown>(
      () => 1, Object.prototype.toString, Object, Symbol('s'), undefined, 1n, Number.NaN, Infinity, -Infinity,
      new Date(0), new Map(), new Set(), /x/, new Uint8Array(1), Object.create({ inherited: 1 }) as unknown,
    )
    fc.assert(fc.property(fc.jsonValue(), foreign, fc.nat(), (value, odd, seed) => {
      expect(isJsonData(plant(value, odd, seed))).toBe(false)
    }), { numRuns: 500 })
  })

  it('cycles, getters, holes, symbol keys, hidden and extra array properties are not; a shared value and a null prototype are', () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = { back: cycle }
    expect(isJsonData(cycle)).toBe(false)
    const list: unknown[] = [1]
    list.push(list)
    expect(isJsonData(list)).toBe(false)
    expect(isJsonData(Object.defineProperty({}, 'x', { get: () => 1, enumerable: true }))).toBe(false)
    expect(isJsonData(Object.defineProperty({}, 'x', { value: 1, enumerable: false }))).toBe(false)
    expect(isJsonData({ [Symbol('k')]: 1 })).toBe(false)
    // eslint-disable-next-line no-sparse-arrays
    expect(isJsonData([1, , 3])).toBe(false)
    expect(isJsonData(Object.assign([1], { extra: 2 }))).toBe(false)
    const shared = { n: 1 }
    expect(isJsonData({ a: shared, b: [shared, shared] })).toBe(true)
    expect(isJsonData(Object.assign(Object.create(null) as object, { a: 1 }))).toBe(true)
    expect(isJsonData(JSON.parse('{"__proto__":{"x":1}}'))).toBe(true)
  })

  it('depth costs no stack', () => {
    let deep: unknown = 1
    for (let i = 0; i < 20_000; i++) deep = [deep]
    expect(isJsonData(deep)).toBe(true)
  })
})

/** `value` with `odd` put in place of one of its parts (or as a new member), chosen by `seed`. */
function plant(value: unknown, odd: unknown, seed: number): unknown {
  const containers: Array<Record<string, unknown> | unknown[]> = []
  const walk = (v: unknown) => {
    if (v !== null && typeof v === 'object') {
      containers.push(v as Record<string, unknown>)
      for (const child of Object.values(v)) walk(child)
    }
  }
  walk(value)
  if (containers.length === 0) return seed % 2 === 0 ? odd : [value, odd]
  const target = containers[seed % containers.length]!
  if (Array.isArray(target)) target.push(odd)
  else target[`k${seed}`] = odd
  return value
}

/** A pointer to a place in `doc`: own keys and indices, sometimes a name it does not own. */
function pointers(doc: unknown): string[] {
  const out: string[] = ['']
  const walk = (v: unknown, at: string, depth: number) => {
    if (depth > 4 || v === null || typeof v !== 'object') return
    const keys = Array.isArray(v) ? v.map((_, i) => String(i)) : Object.keys(v)
    for (const key of keys) {
      const next = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
      out.push(next)
      walk((v as Record<string, unknown>)[key], next, depth + 1)
    }
  }
  walk(doc, '', 0)
  return out
}

const jsonObject = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })

describe('patchJsonData', () => {
  it('a patch naming an inherited member, in "from" or "path", is refused whole and the document is not touched', () => {
    const op = fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test')
    fc.assert(fc.property(jsonObject, op, fc.constantFrom(...INHERITED), fc.boolean(), fc.nat(), (doc, name, member, inFrom, seed) => {
      const own = pointers(doc).filter((p) => p !== '')
      const base = own.length > 0 && seed % 3 !== 0 ? own[seed % own.length]! : ''
      const inherited = `${base}/${member}`
      // Let a valid operation come first: refusing the patch must undo it.
      const first = { op: 'add', path: '/__first', value: 1 }
      const usesFrom = name === 'move' || name === 'copy'
      const operation = usesFrom
        ? { op: name, from: inFrom ? inherited : '/__first', path: inFrom ? '/__target' : `${inherited}/x` }
        : { op: name, path: name === 'add' ? `${inherited}/x` : inherited, value: 1 }
      const before = structuredClone(doc)
      const owned = (() => {
        try {
          return jsonPatch.getValueByPointer(doc, inherited) !== undefined && Object.prototype.hasOwnProperty.call(jsonPatch.getValueByPointer(doc, base) ?? {}, member)
        } catch {
          return false
        }
      })()
      fc.pre(!owned)
      expect(() => patchJsonData(doc, [first, operation])).toThrow(JsonPatchRefused)
      expect(doc).toEqual(before)
    }), { numRuns: 400 })
  })

  it('whatever the patch, the result is JSON data that structuredClone copies, and the input is never changed', () => {
    const pointer = (doc: unknown) => fc.oneof(
      fc.constantFrom(...pointers(doc)),
      fc.constantFrom(...pointers(doc)).chain((p) => fc.constantFrom(...INHERITED, '-', '0', '01', '~0', '').map((t) => `${p}/${t}`)),
      fc.string({ maxLength: 6 }),
    )
    const operation = (doc: unknown) => fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', '_get', 'nope'),
      path: pointer(doc),
      from: pointer(doc),
      value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom<unknown>(() => 1, undefined, Symbol('s'), new Date(0))),
    }, { requiredKeys: ['op', 'path'] })
    fc.assert(fc.property(jsonObject.chain((doc) => fc.tuple(fc.constant(doc), fc.array(operation(doc), { maxLength: 4 }))), ([doc, patch]) => {
      const before = structuredClone(doc)
      let result: unknown
      try {
        result = patchJsonData(doc, patch)
      } catch (thrown) {
        expect(thrown).toBeInstanceOf(JsonPatchRefused)
        expect(doc).toEqual(before)
        return
      }
      expect(doc).toEqual(before)
      expect(isJsonData(result)).toBe(true)
      expect(() => structuredClone(result)).not.toThrow()
    }), { numRuns: 400 })
  })

  it('a patch of the document\'s own data gives what fast-json-patch gives', () => {
    const operation = (doc: unknown) => {
      const own = pointers(doc)
      const at = fc.constantFrom(...own)
      const value = fc.jsonValue({ maxDepth: 2 })
      const inside = own.filter((p) => p !== '')
      return fc.oneof(
        fc.record({ op: fc.constant('replace'), path: at, value }),
        fc.record({ op: fc.constant('test'), path: at, value }),
        fc.record({ op: fc.constant('add'), path: at.chain((p) => fc.constantFrom(p, `${p}/new`, `${p}/-`, `${p}/0`)), value }),
        fc.record({ op: fc.constant('copy'), from: at, path: fc.constantFrom('/copied', '/a') }),
        ...(inside.length === 0 ? [] : [
          fc.record({ op: fc.constant('remove'), path: fc.constantFrom(...inside) }),
          fc.record({ op: fc.constant('move'), from: fc.constantFrom(...inside), path: fc.constantFrom('/moved', '/a') }),
        ]),
      )
    }
    fc.assert(fc.property(jsonObject.chain((doc) => fc.tuple(fc.constant(doc), operation(doc))), ([doc, op]) => {
      let expected: { ok: true; value: unknown } | { ok: false }
      try {
        expected = { ok: true, value: jsonPatch.applyPatch(structuredClone(doc), [op as never], true, false).newDocument }
      } catch {
        expected = { ok: false }
      }
      // fast-json-patch alone is laxer (it takes "01" as an index and adds through a missing parent in a few
      // cases); where it refuses, this does too, and where this applies, both agree.
      let actual: { ok: true; value: unknown } | { ok: false }
      try {
        actual = { ok: true, value: patchJsonData(doc, [op]) }
      } catch {
        actual = { ok: false }
      }
      if (!expected.ok) expect(actual.ok).toBe(false)
      if (actual.ok) expect(actual).toEqual(expected)
      // Replacing, testing or removing what is there never fails for being named.
      if (expected.ok && (op.op === 'replace' || op.op === 'remove' || op.op === 'copy' || op.op === 'move')) expect(actual).toEqual(expected)
    }), { numRuns: 400 })
  })

  it('names each refusal', () => {
    const refusal = (doc: unknown, patch: unknown) => {
      try {
        patchJsonData(doc, patch)
      } catch (thrown) {
        return (thrown as Error).message
      }
      return undefined
    }
    expect(refusal({}, [{ op: 'copy', from: '/constructor', path: '/f' }])).toBe('operation 0 (copy): "from" "/constructor" names "constructor", which may not be written')
    expect(refusal({}, [{ op: 'copy', from: '/toString', path: '/f' }])).toBe('operation 0 (copy): "from" "/toString" names "toString", which the object there does not have')
    expect(refusal({ l: [1] }, [{ op: 'move', from: '/l/length', path: '/n' }])).toBe('operation 0 (move): "from" "/l/length" names "length", which is not an index of the array there')
    expect(refusal({ a: {} }, [{ op: 'move', from: '/a', path: '/a/b' }])).toBe('operation 0 (move): "/a" cannot move into itself ("/a/b")')
    expect(refusal({}, [{ op: 'add', path: '/f', value: () => 1 }])).toBe('operation 0 (add): "value" is not JSON data')
    expect(refusal({ n: 1 }, [{ op: 'test', path: '/n', value: 2 }])).toBe('operation 0 (test): Test operation failed')
    expect(refusal({}, [{ op: '_get', path: '' }])).toBe('operation 0: not a JSON Patch operation (add, remove, replace, move, copy or test)')
    expect(refusal({}, { op: 'add' })).toBe('a JSON Patch is an array of operations')
    expect(refusal({ n: 1 }, [{ op: 'replace', path: '/n', value: 2 }])).toBeUndefined()
  })
})
