/**
 * `<think>` tags in a streamed text part: a tag cut across deltas is held until it
 * is known, and how the text is cut never changes what comes out.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ThinkTagSplitter, type ThinkPiece } from '../../../src/protocols/ui-message/think-tags'

/** Pieces of the same kind in a row, joined: the split into pieces may differ, the text may not. */
function joined(pieces: readonly ThinkPiece[]): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const piece of pieces) {
    const text = piece.kind === 'orphan-close' ? '' : piece.text
    const last = out.at(-1)
    if (last && last[0] === piece.kind) last[1] += text
    else out.push([piece.kind, text])
  }
  return out
}

function split(deltas: readonly string[]): ThinkPiece[] {
  const splitter = new ThinkTagSplitter()
  return [...deltas.flatMap((delta) => splitter.push(delta)), ...splitter.flush()]
}

describe('ThinkTagSplitter', () => {
  it('holds the start of a tag cut across deltas, and lets it go when it turns out to be text', () => {
    const splitter = new ThinkTagSplitter()
    expect(splitter.push('x <thi')).toEqual([{ kind: 'text', text: 'x' }])
    expect(splitter.push('nk>plan')).toEqual([{ kind: 'reasoning', text: 'plan' }])
    expect(splitter.push('</')).toEqual([])
    expect(splitter.push('think>Hi <')).toEqual([{ kind: 'text', text: 'Hi' }])
    expect(splitter.push('b>')).toEqual([{ kind: 'text', text: ' <b>' }])
    expect(splitter.push('a</thin')).toEqual([{ kind: 'text', text: 'a' }])
    expect(splitter.flush()).toEqual([{ kind: 'text', text: '</thin' }])
  })

  it('holds only a tail that can start a tag: a < further back, or one followed by other text, is text at once', () => {
    expect(new ThinkTagSplitter().push('a <x')).toEqual([{ kind: 'text', text: 'a <x' }])
    expect(new ThinkTagSplitter().push('a <<')).toEqual([{ kind: 'text', text: 'a <' }])
    expect(new ThinkTagSplitter().push('<think>a</think')).toEqual([{ kind: 'reasoning', text: 'a' }])
    const inside = new ThinkTagSplitter()
    inside.push('<think>')
    // Inside a think block only a closing tag can start: `<thi` is reasoning text.
    expect(inside.push('a <thi')).toEqual([{ kind: 'reasoning', text: 'a <thi' }])
  })

  it('gives the same text of each kind however the deltas are cut', () => {
    const alphabet = fc.constantFrom('a', 'b', ' ', '\n', '<', '/', '>', 't', 'h', 'i', 'n', 'k', '<think>', '</think>', '<thi', 'nk>', '</')
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 12 }), (parts, cuts) => {
      const text = parts.join('')
      const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
      const deltas: string[] = []
      let from = 0
      for (const point of points) {
        deltas.push(text.slice(from, point))
        from = point
      }
      deltas.push(text.slice(from))
      expect(joined(split(deltas))).toEqual(joined(split([text])))
      expect(joined(split([...text]))).toEqual(joined(split([text])))
    }), { numRuns: 500 })
  })

  it('takes a plain delta the short way with the same pieces and held space as the full scan', () => {
    // The full scan alone: `plain` declines every delta.
    class FullScan extends ThinkTagSplitter {
      override plain(): string | undefined {
        return undefined
      }
    }
    const alphabet = fc.constantFrom('a', 'b c', ' ', '\n', '\t ', '<', '>', 'think', '<think>', '</think>', '<thi', 'nk>', '</')
    fc.assert(fc.property(fc.array(fc.array(alphabet, { maxLength: 4 }).map((p) => p.join('')), { maxLength: 30 }), (deltas) => {
      const fast = new ThinkTagSplitter()
      const full = new FullScan()
      for (const delta of deltas) expect(fast.push(delta)).toEqual(full.push(delta))
      expect(fast.flush()).toEqual(full.flush())
    }), { numRuns: 500 })
  })
})
