/**
 * A streamed tool input: parsed natively when nobody looked before it ended, by the
 * incremental parser otherwise, and either way the same value and the same report.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IncrementalJsonParser } from '../../../src/core/util/partial-json'
import { cleanCopy } from '../../../src/core/util/record'
import { StreamedInput, type EndedInput } from '../../../src/core/util/streamed-input'

const MAX_DEPTH = 8

/**
 * What the incremental parser alone makes of the whole text. A number that ends the
 * text is whole once the text ends: the parser learns that from one more space.
 */
function incremental(text: string): EndedInput {
  let parser = new IncrementalJsonParser()
  parser.push(text)
  if (!parser.complete && !parser.error) {
    const ended = new IncrementalJsonParser()
    ended.push(`${text} `)
    if (ended.complete) parser = ended
  }
  return { complete: parser.complete, value: parser.snapshot({ maxDepth: MAX_DEPTH }), unsafeKey: parser.unsafeKey, depth: parser.depth, error: parser.error }
}

/** The text cut at the given points. */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b)
  const pieces: string[] = []
  let from = 0
  for (const point of at) {
    pieces.push(text.slice(from, point))
    from = point
  }
  pieces.push(text.slice(from))
  return pieces
}

/** JSON texts: whole values, values with forbidden keys or deep nesting, and broken or cut text. */
const texts = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ a: value, __proto__x: 1 }).replace('__proto__x', '__proto__')),
  fc.jsonValue({ maxDepth: 2 }).map((value) => `{"constructor":${JSON.stringify(value)}}`),
  fc.integer({ min: 1, max: 14 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.tuple(fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))),
  fc.string({ maxLength: 30 }),
)

describe('StreamedInput', () => {
  it('ends with what the incremental parser makes of the whole text, however it was cut and whoever looked on the way', () => {
    fc.assert(fc.property(texts, fc.array(fc.nat(), { maxLength: 6 }), fc.array(fc.boolean(), { maxLength: 8 }), (text, points, looks) => {
      const input = new StreamedInput(MAX_DEPTH)
      cut(text, points).forEach((piece, i) => {
        input.append(piece)
        if (looks[i]) input.parsed()
      })
      const ended = input.end()
      const expected = incremental(text)
      expect(ended.complete).toBe(expected.complete)
      expect(ended.unsafeKey).toBe(expected.unsafeKey)
      expect(ended.depth).toBe(expected.depth)
      expect(ended.error).toEqual(expected.error)
      expect(cleanCopy(ended.value)).toEqual(expected.value)
      expect(input.text).toBe(text)
    }), { numRuns: 3000 })
  })

  it('parses an input nobody looked at natively, and seals the value it gives', () => {
    const input = new StreamedInput(MAX_DEPTH)
    input.append('{"q":"rain",')
    input.append('"days":[1,2]}')
    const ended = input.end()
    expect(ended).toEqual({ complete: true, value: { q: 'rain', days: [1, 2] }, depth: 2 })
    expect(Object.isFrozen(ended.value)).toBe(true)
    expect(Object.isFrozen((ended.value as { days: number[] }).days)).toBe(true)
    // The fold stores a sealed value as it is.
    expect(cleanCopy(ended.value)).toBe(ended.value)
  })

  it('leaves a forbidden key and nesting past the limit to the parser, which reports them and leaves them out', () => {
    const keyed = new StreamedInput(MAX_DEPTH, '{"__proto__":{"x":1},"a":1}').end()
    expect(keyed).toMatchObject({ complete: true, value: { a: 1 }, unsafeKey: '__proto__' })
    expect(Object.getPrototypeOf(keyed.value)).toBe(Object.prototype)
    const deep = new StreamedInput(MAX_DEPTH, '['.repeat(MAX_DEPTH + 2) + ']'.repeat(MAX_DEPTH + 2)).end()
    expect(deep.depth).toBe(MAX_DEPTH + 2)
    expect(JSON.stringify(deep.value)).toBe('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))
  })

  it('gives the value so far while the input streams, parsing only what came since the last look', () => {
    const input = new StreamedInput(MAX_DEPTH)
    input.append('{"q":"we')
    expect(input.parsed().snapshot()).toEqual({ q: 'we' })
    input.append('ather"}')
    const parser = input.parsed()
    expect(parser.snapshot()).toEqual({ q: 'weather' })
    expect(parser.complete).toBe(true)
    expect(input.end()).toMatchObject({ complete: true, value: { q: 'weather' } })
  })
})
