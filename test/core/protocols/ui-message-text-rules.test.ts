/**
 * Exact ops of the UI message stream's text and reasoning parts: the message ids
 * of reused part ids, what `<think>` tags in a text part split it into, what a
 * chunk keeps besides its text, the problems of parts out of order, what the end
 * of a step closes and what a reset step forgets; and the tag splitter's state
 * across a flush.
 */
import { describe, expect, it } from 'vitest'
import type { Op } from '../../../src/core/model/ops'
import { protocolProblem } from '../../../src/core/protocol/problem'
import type { Decoder } from '../../../src/core/protocol/types'
import { createUIMessageDecoder } from '../../../src/protocols/ui-message/decoder'
import { ThinkTagSplitter } from '../../../src/protocols/ui-message/think-tags'

const TURN = 't1'
type Side = 'text' | 'reasoning'

const decoder = (): Decoder => createUIMessageDecoder({ turnId: TURN, scope: 's' })
const feed = (d: Decoder, chunks: readonly unknown[]): Op[][] => chunks.map((chunk) => d.decode(chunk, {}))
const last = (chunks: readonly unknown[]): Op[] => feed(decoder(), chunks).at(-1)!
const problem = (message: string, raw: unknown, code: string): Op => protocolProblem(TURN, message, raw, code)

const at = (messageId: string, type: Side, blockId?: string) => ({ turnId: TURN, messageId, type, role: 'assistant' as const, blockId })
const put = (messageId: string, type: Side, blockId?: string): Op => ({ op: 'message.put', ...at(messageId, type, blockId), props: { content: '' }, status: 'streaming' })
const append = (messageId: string, type: Side, value: string, blockId?: string): Op => ({
  op: 'message.delta', ...at(messageId, type, blockId), action: 'append', path: 'content', value,
})
const set = (messageId: string, type: Side, value: unknown): Op => ({ op: 'message.delta', ...at(messageId, type), action: 'set', path: '', value })
const merge = (messageId: string, type: Side, value: unknown): Op => ({ op: 'message.delta', ...at(messageId, type), action: 'merge', path: '', value })
const finished = (messageId: string): Op => ({ op: 'message.finish', messageId, status: 'done' })
const reasonStart = (id: string, parentId?: string): Op => ({ op: 'trace.node', turnId: TURN, node: { id, kind: 'reason', label: 'Reasoning', status: 'start', parentId } })
const reasonDone = (id: string): Op => ({ op: 'trace.node', turnId: TURN, node: { id, status: 'done' } })

const A = 's/text:a'

describe('message ids of text and reasoning parts', () => {
  it('a text and a reasoning part with the same wire id each get their first id', () => {
    const [text, reasoning] = feed(decoder(), [{ type: 'text-start', id: 'a' }, { type: 'reasoning-start', id: 'a' }])
    expect(text).toEqual([put(A, 'text')])
    expect(reasoning).toEqual([put('s/reasoning:a', 'reasoning'), reasonStart('s/reasoning:a')])
    const [r, t] = feed(decoder(), [{ type: 'reasoning-start', id: 'a' }, { type: 'text-start', id: 'a' }])
    expect(r).toEqual([put('s/reasoning:a', 'reasoning'), reasonStart('s/reasoning:a')])
    expect(t).toEqual([put(A, 'text')])
  })

  it('a part id started again is a new message, numbered from 2; the open one is closed first', () => {
    const [, , again, third] = feed(decoder(), [
      { type: 'text-start', id: 'a' }, { type: 'text-end', id: 'a' },
      { type: 'text-start', id: 'a' }, { type: 'text-start', id: 'a' },
    ])
    expect(again).toEqual([put(`${A}~2`, 'text')])
    expect(third).toEqual([finished(`${A}~2`), put(`${A}~3`, 'text')])
    const [, , reasoning] = feed(decoder(), [
      { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'x' },
    ])
    expect(reasoning).toEqual([append('s/reasoning:r~2', 'reasoning', 'x')])
  })
})

describe('think tags in a text part', () => {
  it('a closing tag without its opening one makes what came before reasoning', () => {
    const [, ops] = feed(decoder(), [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'plan</think>Hi' }])
    expect(ops).toEqual([
      append(A, 'text', 'plan'),
      { op: 'message.delta', ...at(A, 'reasoning'), action: 'set', path: '', value: {}, retype: true },
      finished(A),
      reasonStart(A),
      reasonDone(A),
      put(`${A}#2`, 'text'),
      append(`${A}#2`, 'text', 'Hi'),
    ])
  })

  it('reasoning a closing tag finished is not finished again when the part ends', () => {
    const d = decoder()
    feed(d, [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'plan</think>' }])
    expect(d.decode({ type: 'text-end', id: 'a' }, {})).toEqual([])
  })

  it('a closing tag first, before any text, changes nothing', () => {
    const [, ops] = feed(decoder(), [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: '</think>Hi' }])
    expect(ops).toEqual([append(A, 'text', 'Hi')])
  })

  it('a second closing tag, after reasoning, is dropped and leaves the answer an answer', () => {
    const [, ops] = feed(decoder(), [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: '<think>plan</think>Hi</think> there' }])
    expect(ops).toEqual([
      { op: 'message.delta', ...at(A, 'reasoning'), action: 'set', path: 'content', value: '', retype: true },
      reasonStart(A),
      append(A, 'reasoning', 'plan'),
      finished(A),
      reasonDone(A),
      put(`${A}#2`, 'text'),
      append(`${A}#2`, 'text', 'Hi'),
      append(`${A}#2`, 'text', 'there'),
    ])
  })

  it('reasoning after an answer is a third message with its own row under the step; the end closes it', () => {
    const d = decoder()
    const [, , first, second] = feed(d, [
      { type: 'start-step' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Hi <think>' },
      { type: 'text-delta', id: 'a', delta: 'more' },
    ])
    const step = 's/step:1'
    expect(first).toEqual([append(A, 'text', 'Hi', step)])
    expect(second).toEqual([
      finished(A),
      put(`${A}#2`, 'reasoning', step),
      reasonStart(`${A}#2`, step),
      append(`${A}#2`, 'reasoning', 'more', step),
    ])
    expect(d.decode({ type: 'text-end', id: 'a' }, {})).toEqual([finished(`${A}#2`), reasonDone(`${A}#2`)])
  })
})

describe('what a chunk keeps besides its text', () => {
  it('text-end keeps provider metadata and citations; a field it does not read is merged into extra', () => {
    const ops = last([
      { type: 'text-start', id: 'a' },
      { type: 'text-end', id: 'a', providerMetadata: { p: 1 }, citations: [1], serverTag: 'x' },
    ])
    expect(ops).toEqual([set(A, 'text', { providerMetadata: { p: 1 }, citations: [1] }), merge(A, 'text', { extra: { serverTag: 'x' } }), finished(A)])
  })

  it('a plain text-end writes nothing but its finish', () => {
    expect(last([{ type: 'text-start', id: 'a' }, { type: 'text-end', id: 'a' }])).toEqual([finished(A)])
  })

  it('citations on any other chunk are only an unread field', () => {
    expect(last([{ type: 'text-start', id: 'a', citations: [1] }])).toEqual([put(A, 'text'), merge(A, 'text', { extra: { citations: [1] } })])
  })

  it('a delta keeps an unread field on the message it wrote to', () => {
    const ops = last([{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'Hi', confidence: 0.5 }])
    expect(ops).toEqual([append(A, 'text', 'Hi'), merge(A, 'text', { extra: { confidence: 0.5 } })])
  })

  it('a delta keeps its provider metadata', () => {
    const ops = last([{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'Hi', providerMetadata: { p: 1 } }])
    expect(ops).toEqual([append(A, 'text', 'Hi'), set(A, 'text', { providerMetadata: { p: 1 } })])
  })

  it('reasoning chunks keep theirs on the reasoning message', () => {
    const R = 's/reasoning:r'
    const [start, delta, end] = feed(decoder(), [
      { type: 'reasoning-start', id: 'r', providerMetadata: { p: 1 } },
      { type: 'reasoning-delta', id: 'r', delta: 'x', providerMetadata: { p: 2 } },
      { type: 'reasoning-end', id: 'r', serverTag: 'y' },
    ])
    expect(start).toEqual([put(R, 'reasoning'), reasonStart(R), set(R, 'reasoning', { providerMetadata: { p: 1 } })])
    expect(delta).toEqual([append(R, 'reasoning', 'x'), set(R, 'reasoning', { providerMetadata: { p: 2 } })])
    expect(end).toEqual([merge(R, 'reasoning', { extra: { serverTag: 'y' } }), finished(R), reasonDone(R)])
  })
})

describe('parts out of order', () => {
  it('a text-delta before its start starts the part', () => {
    const chunk = { type: 'text-delta', id: 'a', delta: 'Hi' }
    expect(last([chunk])).toEqual([
      problem('text-delta for "a" came before its text-start; the part was started', chunk, 'repaired'),
      put(A, 'text'),
      append(A, 'text', 'Hi'),
    ])
  })

  it('a reasoning-delta before its start starts the part', () => {
    const chunk = { type: 'reasoning-delta', id: 'r', delta: 'x' }
    expect(last([chunk])).toEqual([
      problem('reasoning-delta for "r" came before its reasoning-start; the part was started', chunk, 'repaired'),
      put('s/reasoning:r', 'reasoning'),
      reasonStart('s/reasoning:r'),
      append('s/reasoning:r', 'reasoning', 'x'),
    ])
  })

  it('an end for a part that is not open is an invalid problem', () => {
    const text = { type: 'text-end', id: 'a' }
    expect(last([text])).toEqual([problem('text-end for "a", which is not open', text, 'invalid')])
    const reasoning = { type: 'reasoning-end', id: 'r' }
    expect(last([reasoning])).toEqual([problem('reasoning-end for "r", which is not open', reasoning, 'invalid')])
  })
})

describe('steps close and forget parts', () => {
  it('finish-step closes every open text and reasoning part', () => {
    const ops = last([
      { type: 'start-step' }, { type: 'text-start', id: 'a' }, { type: 'reasoning-start', id: 'r' }, { type: 'finish-step' },
    ])
    expect(ops).toEqual([
      finished(A),
      finished('s/reasoning:r'),
      reasonDone('s/reasoning:r'),
      { op: 'block.close', blockId: 's/step:1', status: 'done' },
      { op: 'trace.node', turnId: TURN, node: { id: 's/step:1', status: 'done' } },
    ])
  })

  it('a reset step forgets the parts it opened and keeps the ones opened before it', () => {
    const d = decoder()
    feed(d, [
      { type: 'text-start', id: 'out' }, { type: 'reasoning-start', id: 'rout' },
      { type: 'start-step' }, { type: 'text-start', id: 'a' }, { type: 'reasoning-start', id: 'r' },
      { type: 'reset-step' },
    ])
    const [text, reasoning, outside, reasoningOutside] = feed(d, [
      { type: 'text-end', id: 'a' }, { type: 'reasoning-end', id: 'r' },
      { type: 'text-end', id: 'out' }, { type: 'reasoning-end', id: 'rout' },
    ])
    expect(text).toEqual([problem('text-end for "a", which is not open', { type: 'text-end', id: 'a' }, 'invalid')])
    expect(reasoning).toEqual([problem('reasoning-end for "r", which is not open', { type: 'reasoning-end', id: 'r' }, 'invalid')])
    expect(outside).toEqual([finished('s/text:out')])
    expect(reasoningOutside).toEqual([finished('s/reasoning:rout'), reasonDone('s/reasoning:rout')])
  })
})

describe('ThinkTagSplitter across a flush', () => {
  it('tells whether it is inside a tag', () => {
    const splitter = new ThinkTagSplitter()
    expect(splitter.thinking).toBe(false)
    splitter.push('<think>a')
    expect(splitter.thinking).toBe(true)
    splitter.push('</think>')
    expect(splitter.thinking).toBe(false)
  })

  it('starts clean after a flush: nothing held before it comes back', () => {
    const splitter = new ThinkTagSplitter()
    expect(splitter.push('a <th')).toEqual([{ kind: 'text', text: 'a' }])
    expect(splitter.flush()).toEqual([{ kind: 'text', text: ' <th' }])
    expect(splitter.push('b')).toEqual([{ kind: 'text', text: 'b' }])
    const spaced = new ThinkTagSplitter()
    expect(spaced.push('a ')).toEqual([{ kind: 'text', text: 'a' }])
    expect(spaced.flush()).toEqual([{ kind: 'text', text: ' ' }])
    expect(spaced.push('b')).toEqual([{ kind: 'text', text: 'b' }])
  })

  it('a delta of only whitespace is held, not written as an empty piece', () => {
    const splitter = new ThinkTagSplitter()
    expect(splitter.push('a')).toEqual([{ kind: 'text', text: 'a' }])
    expect(splitter.push('  ')).toEqual([])
    expect(splitter.push('b')).toEqual([{ kind: 'text', text: '  b' }])
  })

  it('newlines and carriage returns around a tag are dropped', () => {
    const splitter = new ThinkTagSplitter()
    expect(splitter.push('<think>\r\nplan\r\n</think>\n\rHi')).toEqual([{ kind: 'reasoning', text: 'plan' }, { kind: 'text', text: 'Hi' }])
  })
})

describe('the tokens of a batch', () => {
  const delta = (text: string, id = 'a'): Record<string, unknown> => ({ type: 'text-delta', id, delta: text })

  it('after the first, reach the message in one append at the next chunk of another kind', () => {
    const d = decoder()
    const [, first, second, third, end] = feed(d, [{ type: 'text-start', id: 'a' }, delta('Hel'), delta('lo, '), delta('world'), { type: 'text-end', id: 'a' }])
    expect(first).toEqual([append(A, 'text', 'Hel')])
    expect(second).toEqual([])
    expect(third).toEqual([])
    // The space waits for what follows it, as it always did; the end writes what was held, then finishes.
    expect(end).toEqual([append(A, 'text', 'lo, world'), finished(A)])
  })

  it('are written at each write point: a read\'s end, a release, the stream\'s end', () => {
    const d = decoder()
    feed(d, [{ type: 'text-start', id: 'a' }, delta('a'), delta('b'), delta('c')])
    expect(d.flush!()).toEqual([append(A, 'text', 'bc')])
    expect(d.flush!()).toEqual([])
    feed(d, [delta('d')])
    expect(d.release!()).toEqual([append(A, 'text', 'd')])
    feed(d, [delta('e')])
    expect(d.end('done')).toEqual([append(A, 'text', 'e'), finished(A), { op: 'turn.finish', turnId: TURN, status: 'done' }])
  })

  it('of several parts are written in the order their runs began, before any other chunk\'s ops', () => {
    const d = decoder()
    feed(d, [{ type: 'text-start', id: 'a' }, { type: 'text-start', id: 'b' }, delta('1', 'a'), delta('1', 'b'), delta('2', 'b'), delta('2', 'a')])
    const B = 's/text:b'
    expect(d.decode({ type: 'reasoning-start', id: 'r' }, {})).toEqual([
      // b's second token began a held run before a's did.
      append(B, 'text', '2'), append(A, 'text', '2'), put('s/reasoning:r', 'reasoning'), reasonStart('s/reasoning:r'),
    ])
  })

  it('a token that opens a tag or carries a field writes what was held first', () => {
    const d = decoder()
    feed(d, [{ type: 'text-start', id: 'a' }, delta('a'), delta('b')])
    expect(d.decode({ ...delta('c'), confidence: 1 }, {})).toEqual([append(A, 'text', 'b'), append(A, 'text', 'c'), merge(A, 'text', { extra: { confidence: 1 } })])
    feed(d, [delta('d')])
    const think = d.decode(delta('<think>x'), {})
    expect(think.slice(0, 2)).toEqual([append(A, 'text', 'd'), finished(A)])
  })
})
