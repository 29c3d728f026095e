import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { cleanCopy } from '../../../src/core/util/record'
import { IncrementalJsonParser, type JsonEdit } from '../../../src/core/util/partial-json'

/** Documents that exercise every token kind, escapes, nesting and odd keys. */
const DOCUMENTS = [
  '{"query":"最新 AI 论文","limit":10,"exact":false,"filters":null}',
  '{"city":"San Francisco","unit":"celsius","days":[1,2,3],"nested":{"a":{"b":[{"c":"d"}]}}}',
  '  {\n  "text": "line 1\\nline \\"2\\"\\t\\\\ \\/ \\b\\f\\r",\n  "emoji": "\\ud83d\\ude00 and \\u00e9",\n  "n": -12.5e+3 }  ',
  '[0, -0.5, 1e-7, 123456789, true, false, null, "", {}, [], [[]], {"": ""}]',
  '{"a.b":{"c[0]":1},"":{"x":"y"},"__proto__":{"polluted":true},"constructor":"c"}',
  '"just a string"',
  '42',
  '{"deep":[[[[[[{"k":"v"}]]]]]],"after":"end"}',
]

/** Replays edits onto a fresh holder, the way a consumer mirrors the value. */
function replay(edits: readonly JsonEdit[]): unknown {
  const holder: { root?: unknown } = {}
  for (const edit of edits) {
    if (edit.path.length === 0) {
      holder.root = edit.kind === 'delete' ? undefined : edit.kind === 'append' ? (holder.root as string) + edit.text : edit.value
      continue
    }
    let node = holder.root as Record<string, unknown>
    for (const segment of edit.path.slice(0, -1)) node = node[segment as string] as Record<string, unknown>
    const last = edit.path[edit.path.length - 1] as string
    if (edit.kind === 'delete') {
      if (Array.isArray(node)) node.pop()
      else delete node[last]
      continue
    }
    const value = edit.kind === 'append' ? (node[last] as string) + edit.text : edit.value
    Object.defineProperty(node, last, { value, writable: true, enumerable: true, configurable: true })
  }
  return holder.root
}

function parseInPieces(pieces: readonly string[]) {
  const edits: JsonEdit[] = []
  const parser = new IncrementalJsonParser({ onEdit: (e) => edits.push(e) })
  for (const piece of pieces) parser.push(piece)
  return { parser, edits }
}

/** A small deterministic random source, so failures can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

describe('IncrementalJsonParser: whole documents', () => {
  it.each(DOCUMENTS)('parses %s like JSON.parse', (text) => {
    const { parser, edits } = parseInPieces([text])
    expect(parser.error).toBeUndefined()
    expect(parser.value).toEqual(JSON.parse(text))
    expect(replay(edits)).toEqual(JSON.parse(text))
  })

  it('keeps "__proto__" as an own key and never touches a prototype', () => {
    const { parser } = parseInPieces(['{"__proto__":{"polluted":true},"a":1}'])
    const value = parser.value as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__', 'a'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('is complete only once the value closes', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"a":[1')
    expect(parser.complete).toBe(false)
    parser.push(']}')
    expect(parser.complete).toBe(true)
  })
})

describe('IncrementalJsonParser: partial values', () => {
  it.each([
    ['{', {}],
    ['{"qu', {}],
    ['{"query"', {}],
    ['{"query":', {}],
    ['{"query":"', { query: '' }],
    ['{"query":"San Fra', { query: 'San Fra' }],
    ['{"query":"a\\', { query: 'a' }],
    ['{"query":"a\\u00', { query: 'a' }],
    ['{"query":"a\\u00e9', { query: 'aé' }],
    ['{"n":12', { n: 12 }],
    ['{"n":-', {}],
    ['{"n":1.', { n: 1 }],
    ['{"n":1.5e', { n: 1.5 }],
    ['{"b":tr', {}],
    ['{"b":true', { b: true }],
    ['{"list":[1,2,{"x":"y', { list: [1, 2, { x: 'y' }] }],
    ['[', []],
    ['"abc', 'abc'],
  ])('%s → %j', (text, expected) => {
    const { parser, edits } = parseInPieces([text])
    expect(parser.error).toBeUndefined()
    expect(parser.value).toEqual(expected)
    expect(replay(edits)).toEqual(expected)
  })

  it('shows a value growing delta by delta', () => {
    const parser = new IncrementalJsonParser()
    expect(parser.push('{"city":"San Fra')).toEqual({ city: 'San Fra' })
    expect(parser.push('ncisco","days":')).toEqual({ city: 'San Francisco' })
    expect(parser.push('3')).toEqual({ city: 'San Francisco', days: 3 })
    expect(parser.push('0}')).toEqual({ city: 'San Francisco', days: 30 })
  })
})

describe('IncrementalJsonParser: any cut gives the same value', () => {
  it.each(DOCUMENTS)('split in two at every index: %s', (text) => {
    const expected = JSON.parse(text)
    for (let at = 0; at <= text.length; at++) {
      const { parser, edits } = parseInPieces([text.slice(0, at), text.slice(at)])
      expect(parser.error, `cut at ${at}`).toBeUndefined()
      expect(parser.value, `cut at ${at}`).toEqual(expected)
      expect(replay(edits), `edits, cut at ${at}`).toEqual(expected)
    }
  })

  it.each(DOCUMENTS)('one character at a time: %s', (text) => {
    const { parser, edits } = parseInPieces([...text])
    expect(parser.value).toEqual(JSON.parse(text))
    expect(replay(edits)).toEqual(JSON.parse(text))
  })

  it('random multi-splits', () => {
    const next = random(7)
    for (const text of DOCUMENTS) {
      for (let round = 0; round < 60; round++) {
        const pieces: string[] = []
        let at = 0
        while (at < text.length) {
          const size = 1 + Math.floor(next() * 6)
          pieces.push(text.slice(at, at + size))
          at += size
        }
        const { parser, edits } = parseInPieces(pieces)
        expect(parser.value, JSON.stringify(pieces)).toEqual(JSON.parse(text))
        expect(replay(edits), JSON.stringify(pieces)).toEqual(JSON.parse(text))
      }
    }
  })

  it('the mirrored value matches the parser after every piece', () => {
    const text = DOCUMENTS[1] as string
    const edits: JsonEdit[] = []
    const parser = new IncrementalJsonParser({ onEdit: (e) => edits.push(e) })
    for (let at = 0; at < text.length; at += 3) {
      parser.push(text.slice(at, at + 3))
      expect(replay(edits)).toEqual(parser.value)
    }
  })

  it('edit values are never the parser’s own objects', () => {
    const { parser, edits } = parseInPieces(['{"a":{"b":[]}}'])
    const value = parser.value as { a: { b: unknown[] } }
    const shared = edits.some((e) => e.kind === 'set' && (e.value === value || e.value === value.a || e.value === value.a.b))
    expect(shared).toBe(false)
  })
})

describe('IncrementalJsonParser: text that is not JSON', () => {
  it.each([
    ['{"a":}', { a: undefined }],
    ['{"a" 1}', {}],
    ['[1,]x', [1]],
    ['{"a":1} trailing', { a: 1 }],
    ['{"a":01}', {}],
    ['{"a":trux}', {}],
    ['{"a":"\\x"}', { a: '' }],
    ['{"a":1]', { a: 1 }],
  ])('%s stops with an error and keeps the best value', (text, best) => {
    const parser = new IncrementalJsonParser()
    expect(() => parser.push(text)).not.toThrow()
    expect(parser.error).toBeDefined()
    expect(parser.error!.offset).toBeGreaterThanOrEqual(0)
    expect(parser.value).toEqual(best)
  })

  it('ignores what comes after an error', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"a":1,,')
    const error = parser.error
    parser.push('"b":2}')
    expect(parser.error).toBe(error)
    expect(parser.value).toEqual({ a: 1 })
  })

  it('reports the offset of the bad character across pushes', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"a":1')
    parser.push(', x')
    expect(parser.error?.offset).toBe(8)
  })
})

describe('IncrementalJsonParser: many small deltas', () => {
  it('10,000 deltas into one string and one array give the right value', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"text":"')
    for (let i = 0; i < 10_000; i++) parser.push('x')
    parser.push('","items":[')
    for (let i = 0; i < 10_000; i++) parser.push(i === 0 ? '0' : `,${i}`)
    parser.push(']}')
    const value = parser.value as { text: string; items: number[] }
    expect(value.text).toHaveLength(10_000)
    expect(value.items).toHaveLength(10_000)
    expect(value.items[9_999]).toBe(9_999)
    expect(parser.complete).toBe(true)
  })
})

describe('IncrementalJsonParser: snapshots', () => {
  /** The value as the snapshot should show it: a plain copy without the keys that reach a prototype. */
  const expected = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map(expected)
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype') out[key] = expected((value as Record<string, unknown>)[key])
    }
    return out
  }

  it('after any cut, each snapshot is the value so far, frozen and free of prototype keys', () => {
    for (const doc of DOCUMENTS) {
      for (let seed = 1; seed <= 25; seed++) {
        const parser = new IncrementalJsonParser()
        let at = 0
        let next = seed
        while (at < doc.length) {
          next = (next * 1103515245 + 12345) % 2147483648
          const size = 1 + (next % 7)
          parser.push(doc.slice(at, at + size))
          at += size
          const snapshot = parser.snapshot()
          if (parser.value !== undefined) expect(snapshot, `${doc} cut at ${at}`).toEqual(expected(parser.value))
          if (snapshot !== null && typeof snapshot === 'object') expect(Object.isFrozen(snapshot)).toBe(true)
        }
        expect(parser.snapshot()).toEqual(expected(JSON.parse(doc)))
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('shares every container that did not change since the last snapshot, and copies the ones that did', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"done":{"a":[1,2]},"items":[{"id":1}],"open":{"b":"x')
    const first = parser.snapshot() as Record<string, Record<string, unknown>>
    parser.push('y')
    const second = parser.snapshot() as Record<string, Record<string, unknown>>
    expect(second).not.toBe(first)
    expect(second.done).toBe(first.done)
    expect(second.items).toBe(first.items)
    expect(second.open).not.toBe(first.open)
    expect(second.open).toEqual({ b: 'xy' })
    expect(first.open).toEqual({ b: 'x' })
    // Nothing changed: the same snapshot again.
    expect(parser.snapshot()).toBe(second)
  })

  it('tells how deep the value nests and the first key a snapshot leaves out', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"a":[{"constructor":1,"__proto__":{')
    expect(parser.depth).toBe(4)
    expect(parser.unsafeKey).toBe('constructor')
    parser.push('}}]}')
    expect(parser.depth).toBe(4)
    expect(parser.snapshot()).toEqual({ a: [{}] })
    expect(new IncrementalJsonParser().depth).toBe(0)
  })

  it('leaves out containers deeper than maxDepth and keeps what is above them', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"a":{"b":{"c":{"d":1}},"n":2}}')
    expect(parser.snapshot({ maxDepth: 2 })).toEqual({ a: { b: {}, n: 2 } })
  })

  /** Every container in `value`, with its depth (the root is 0). */
  const containers = (value: unknown, depth = 0, out: Array<[object, number]> = []): Array<[object, number]> => {
    if (value === null || typeof value !== 'object') return out
    out.push([value, depth])
    for (const key of Object.keys(value)) containers((value as Record<string, unknown>)[key], depth + 1, out)
    return out
  }
  const keyOrUnsafe = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('__proto__', 'constructor', 'prototype'))
  const documents = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(keyOrUnsafe, tie('value')), { maxLength: 4 }),
    ),
  })).value.map(function text(value: unknown): string {
    if (Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string')) {
      return `{${value.map(([key, item]) => `${JSON.stringify(key)}:${text(item)}`).join(',')}}`
    }
    if (Array.isArray(value)) return `[${value.map(text).join(',')}]`
    return JSON.stringify(value)
  })

  it('every snapshot, after any cuts, is frozen all through, free of prototype keys, and the fold keeps it as it is', () => {
    fc.assert(
      fc.property(documents, fc.array(fc.nat(), { maxLength: 12 }), fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (doc, cuts, maxDepth) => {
        const at = [...new Set(cuts.map((cut) => cut % (doc.length + 1)))].sort((a, b) => a - b)
        const parser = new IncrementalJsonParser()
        let from = 0
        const taken: Array<[unknown, string]> = []
        for (const to of [...at, doc.length]) {
          parser.push(doc.slice(from, to))
          from = to
          const snapshot = parser.snapshot({ maxDepth })
          for (const [container, depth] of containers(snapshot)) {
            expect(Object.isFrozen(container)).toBe(true)
            if (maxDepth !== undefined) expect(depth).toBeLessThanOrEqual(maxDepth)
            for (const key of Object.keys(container)) expect(['__proto__', 'constructor', 'prototype']).not.toContain(key)
          }
          if (snapshot !== null && typeof snapshot === 'object') expect(cleanCopy(snapshot)).toBe(snapshot)
          if (maxDepth === undefined && parser.value !== undefined) expect(snapshot).toEqual(expected(parser.value))
          taken.push([snapshot, JSON.stringify(snapshot)])
        }
        // No snapshot changes after the parser moves on.
        for (const [snapshot, json] of taken) expect(JSON.stringify(snapshot)).toBe(json)
        if (maxDepth === undefined) expect(parser.snapshot()).toEqual(expected(JSON.parse(doc)))
      }),
      { numRuns: 1500 },
    )
  })

  it('a container that closed is shared from then on, unless it holds a key that could reach a prototype', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"items":[{"id":1},{"id":2,"__proto__":{"x":1}}],"done":{"a":[1]},"open":"')
    const first = parser.snapshot() as Record<string, Array<Record<string, unknown>>>
    const live = parser.value as Record<string, Array<Record<string, unknown>>>
    expect(first.items![0]).toBe(live.items![0])
    expect(first.done).toBe(live.done)
    // The record holding "__proto__" is copied without it, and so is every container around it.
    expect(first.items![1]).not.toBe(live.items![1])
    expect(Object.keys(first.items![1]!)).toEqual(['id'])
    expect(first.items).not.toBe(live.items)
    parser.push('x"}')
    const second = parser.snapshot() as typeof first
    expect(second.done).toBe(first.done)
    expect(second.items![0]).toBe(first.items![0])
    expect(second).toEqual({ items: [{ id: 1 }, { id: 2 }], done: { a: [1] }, open: 'x' })
  })
})

describe('IncrementalJsonParser: containers read whole', () => {
  /** The character-by-character read: a listener for edits turns the whole-container path off. */
  const byCharacter = () => new IncrementalJsonParser({ onEdit: () => {} })
  const state = (parser: IncrementalJsonParser, maxDepth: number | undefined) => ({
    snapshot: parser.snapshot({ maxDepth }),
    value: parser.value,
    complete: parser.complete,
    depth: parser.depth,
    unsafeKey: parser.unsafeKey,
    error: parser.error,
  })
  const keys = fc.oneof(fc.constantFrom('', 'a'), fc.string({ maxLength: 3 }), fc.constantFrom('__proto__', 'constructor', 'prototype', '\\u005f_proto__', 'constr\\u0075ctor', 'a\\"b', '\\u0041'))
  const values = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('"\\\\"', '"x\\"]}"', '"\\ud83d\\ude00"', '"raw\nline"', '-0.5e3', '1e400'), fc.integer(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(fc.tuple(keys, tie('value')), { maxLength: 4 }),
    ),
  })).value.map(function text(value: unknown): string {
    if (Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string')) {
      return `{${value.map(([key, item]) => `"${key}" : ${text(item)}`).join(', ')}}`
    }
    if (Array.isArray(value)) return `[ ${value.map(text).join(',')}]`
    // Strings drawn from the list above are already JSON text (or nearly: a raw newline).
    return typeof value === 'string' && /^["\-0-9]/.test(value) ? value : JSON.stringify(value)
  })
  // Some documents are damaged: a character dropped or put in where it does not belong.
  const damage = fc.option(fc.tuple(fc.nat(), fc.constantFrom('', ']', '}', '"', ',', ':', '\\', 'x', '{', '[')), { nil: undefined })

  it('reads every document, whole or damaged, cut anywhere, exactly as the character-by-character read does', () => {
    fc.assert(
      fc.property(values, damage, fc.array(fc.nat(), { maxLength: 10 }), fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (clean, hurt, cuts, maxDepth) => {
        let doc = clean
        if (hurt) {
          const at = hurt[0] % (doc.length + 1)
          doc = doc.slice(0, at) + hurt[1] + doc.slice(hurt[1] === '' ? at + 1 : at)
        }
        const at = [...new Set(cuts.map((cut) => cut % (doc.length + 1)))].sort((a, b) => a - b)
        const fast = new IncrementalJsonParser()
        const slow = byCharacter()
        let from = 0
        for (const to of [...at, doc.length]) {
          const piece = doc.slice(from, to)
          from = to
          fast.push(piece)
          slow.push(piece)
          expect(state(fast, maxDepth)).toEqual(state(slow, maxDepth))
        }
      }),
      { numRuns: 3000 },
    )
  })

  it.each([
    ['a key that could reach a prototype, replaced by a later key of the same name', '[{"a":{"__proto__":1},"a":0}]'],
    ['the same key, escaped', '[{"a":{"\\u005f_proto__":1},"a":0}]'],
    ['a deeper value replaced by a later key of the same name', '[{"a":{"b":{"c":[]}},"a":1}]'],
    ['a number too large for a double', '[1e400,{"n":-1e999}]'],
    ['a raw newline in a string', '[{"t":"a\nb"}]'],
    ['brackets that do not pair', '[{"a":[1}]'],
  ])('tells %s exactly as the character-by-character read does', (_, doc) => {
    const fast = new IncrementalJsonParser()
    const slow = byCharacter()
    fast.push(doc)
    slow.push(doc)
    expect(state(fast, undefined)).toEqual(state(slow, undefined))
  })

  it('reads the whole containers of a piece in one JSON.parse, and the rest character by character', () => {
    const parse = vi.spyOn(JSON, 'parse')
    try {
      const parser = new IncrementalJsonParser()
      parser.push('{"items":[{"id":1,"tags":["a","b"]}, {"id":2},{"id"')
      // The two closed items in one call; the open root, the open array and the open item by character.
      expect(parse.mock.calls.map(([text]) => text)).toEqual(['[{"id":1,"tags":["a","b"]}, {"id":2}]'])
      expect(Object.isFrozen((parser.value as { items: unknown[] }).items[0])).toBe(true)
      parser.push(':3,"bad":"raw\nnewline"}, {"id":4}]}')
      // The third item's text is in two pieces, so none of it is read whole; the fourth is.
      expect(parse.mock.calls.map(([text]) => text)).toEqual(['[{"id":1,"tags":["a","b"]}, {"id":2}]', '{"id":4}'])
      expect(parser.snapshot()).toEqual({ items: [{ id: 1, tags: ['a', 'b'] }, { id: 2 }, { id: 3, bad: 'raw\nnewline' }, { id: 4 }] })
    } finally {
      parse.mockRestore()
    }
  })

  it('reads a run that JSON.parse refuses one container at a time, and each refused one by character', () => {
    const parse = vi.spyOn(JSON, 'parse')
    try {
      const parser = new IncrementalJsonParser()
      parser.push('{"list":[{"a":1},{"b":"raw\nline"},{"c":3}]}')
      expect(parse.mock.calls.map(([text]) => text)).toEqual([
        '{"list":[{"a":1},{"b":"raw\nline"},{"c":3}]}', // the root, whole: refused for the raw newline
        '[{"a":1},{"b":"raw\nline"},{"c":3}]', // the list, whole: refused
        '[{"a":1},{"b":"raw\nline"},{"c":3}]', // the run of its items: refused
        '{"a":1}', // then one by one up to where the run ended
        '{"b":"raw\nline"}', // refused: read by character
        '{"c":3}',
      ])
      expect(parser.snapshot()).toEqual({ list: [{ a: 1 }, { b: 'raw\nline' }, { c: 3 }] })
      expect(parser.complete).toBe(true)
    } finally {
      parse.mockRestore()
    }
  })
})

/** `doc` pushed in pieces cut at `cuts` (taken modulo its length, any order, repeats allowed). */
function parsedInCuts(doc: string, cuts: readonly number[]): IncrementalJsonParser {
  const parser = new IncrementalJsonParser()
  let from = 0
  for (const to of [...new Set(cuts.map((c) => c % (doc.length + 1)))].sort((a, b) => a - b)) {
    parser.push(doc.slice(from, to))
    from = to
  }
  parser.push(doc.slice(from))
  return parser
}

describe('IncrementalJsonParser: a string cut anywhere', () => {
  it('fails, or not, with the same value, message and offset however the text was cut', () => {
    const stringish = fc.array(fc.constantFrom('a', ' ', '\\', 'u', '0', 'F', '"', 'x', 'n'), { maxLength: 10 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(stringish, fc.boolean(), fc.array(fc.nat(), { maxLength: 4 }), (inner, nested, cuts) => {
        const doc = nested ? `{"k":"${inner}` : `"${inner}`
        const whole = parsedInCuts(doc, [])
        const cut = parsedInCuts(doc, cuts)
        expect(cut.error).toEqual(whole.error)
        expect(cut.snapshot()).toEqual(whole.snapshot())
      }),
      { numRuns: 3000 },
    )
  })
})

describe('IncrementalJsonParser: a number cut anywhere', () => {
  it('fails, or not, with the same message at the same offset however the text was cut', () => {
    const numberish = fc.array(fc.constantFrom(...'0123456789+-.eE'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(numberish, fc.constantFrom('', ']', ',1]', ' '), fc.array(fc.nat(), { maxLength: 4 }), (number, after, cuts) => {
        const doc = `[${number}${after}`
        const whole = parsedInCuts(doc, [])
        const cut = parsedInCuts(doc, cuts)
        expect(cut.error).toEqual(whole.error)
        expect(cut.snapshot()).toEqual(whole.snapshot())
      }),
      { numRuns: 3000 },
    )
  })

  it('names the number up to its first character no number could go on with, at that character', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"n":1')
    parser.push('2+e5}')
    expect(parser.error).toEqual({ message: '"12+" is not a number', offset: 7 })
    expect(parser.snapshot()).toEqual({})
  })
})
