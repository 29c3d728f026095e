/**
 * Exact ops of the UI message stream's lifecycle and data chunks: chunks it cannot
 * read, message metadata merged deeply, steps, how the turn ends (finish, abort,
 * error, the stream's end, and a terminal chunk after another), data parts,
 * thinking steps, suggestions, notices, sources, files, custom parts and
 * interrupts; how sure the sniffer is of a first chunk; and which fields of a
 * chunk count as extra.
 */
import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import type { Op } from '../../../src/core/model/ops'
import { protocolProblem } from '../../../src/core/protocol/problem'
import type { DecodeContext, Decoder } from '../../../src/core/protocol/types'
import { chunkExtras } from '../../../src/protocols/ui-message/chunk-fields'
import { createUIMessageDecoder, sniffUIMessage } from '../../../src/protocols/ui-message/decoder'

const TURN = 't1'
const decoder = (context: Partial<DecodeContext> = {}): Decoder => createUIMessageDecoder({ turnId: TURN, scope: 's', ...context })
const feed = (d: Decoder, chunks: readonly unknown[]): Op[][] => chunks.map((chunk) => d.decode(chunk, {}))
const last = (chunks: readonly unknown[], context: Partial<DecodeContext> = {}): Op[] => feed(decoder(context), chunks).at(-1)!
const problem = (message: string, raw: unknown, code: string): Op => protocolProblem(TURN, message, raw, code)

const put = (messageId: string, type: string, props: Record<string, unknown>, blockId?: string): Op => ({
  op: 'message.put', turnId: TURN, messageId, type, role: 'assistant', blockId, props, status: 'done',
})
const stepOpen = (n: number): Op[] => [
  { op: 'block.open', turnId: TURN, blockId: `s/step:${n}`, kind: 'step', label: `Step ${n}` },
  { op: 'trace.node', turnId: TURN, node: { id: `s/step:${n}`, kind: 'step', label: `Step ${n}`, status: 'start' } },
]
const stepClose = (n: number, status: 'done' | 'error' = 'done'): Op[] => [
  { op: 'block.close', blockId: `s/step:${n}`, status },
  { op: 'trace.node', turnId: TURN, node: { id: `s/step:${n}`, status } },
]
const textPut: Op = { op: 'message.put', turnId: TURN, messageId: 's/text:a', type: 'text', role: 'assistant', blockId: 's/step:1', props: { content: '' }, status: 'streaming' }
const textDone: Op = { op: 'message.finish', messageId: 's/text:a', status: 'done' }

describe('chunks the decoder cannot read', () => {
  it('a chunk that is not an object, or has no type, is a problem', () => {
    expect(last([null])).toEqual([problem('a UI message chunk must be an object', null, 'invalid')])
    expect(last(['text-delta'])).toEqual([problem('a UI message chunk must be an object', 'text-delta', 'invalid')])
    expect(last([{ delta: 'x' }])).toEqual([problem('a chunk without a type', { delta: 'x' }, 'missing_type')])
    expect(last([{ type: '' }])).toEqual([problem('a chunk without a type', { type: '' }, 'missing_type')])
  })

  it('a text chunk without an id, or a delta without its string, is a problem', () => {
    const noId = { type: 'text-delta', delta: 'x' }
    expect(last([noId])).toEqual([problem('text-delta without an id', noId, 'missing_id')])
    const noDelta = { type: 'reasoning-delta', id: 'r', delta: 1 }
    expect(last([noDelta])).toEqual([problem('reasoning-delta without a delta string', noDelta, 'invalid')])
  })
})

describe('message metadata', () => {
  it('start writes its messageId and metadata; none, or null, writes nothing', () => {
    expect(last([{ type: 'start', messageId: 'm1', messageMetadata: { a: 1 } }])).toEqual([
      { op: 'turn.update', turnId: TURN, metadata: { a: 1, messageId: 'm1' } },
    ])
    expect(last([{ type: 'start' }])).toEqual([])
    expect(last([{ type: 'start', messageMetadata: null }])).toEqual([])
  })

  it('metadata that is not an object is an invalid problem', () => {
    const chunk = { type: 'start', messageMetadata: 'x' }
    expect(last([chunk])).toEqual([problem('messageMetadata must be an object', chunk, 'invalid')])
  })

  it('message-metadata without messageMetadata is an invalid problem', () => {
    const chunk = { type: 'message-metadata' }
    expect(last([chunk])).toEqual([problem('message-metadata without messageMetadata', chunk, 'invalid')])
  })

  it('is merged deeply, and each update names only the keys it changed, with their merged values', () => {
    const [, second, third] = feed(decoder(), [
      { type: 'start', messageMetadata: { usage: { input: 1 }, model: 'a' } },
      { type: 'message-metadata', messageMetadata: { usage: { output: 2 } } },
      { type: 'finish', messageMetadata: { usage: 'none' } },
    ])
    expect(second).toStrictEqual([{ op: 'turn.update', turnId: TURN, metadata: { usage: { input: 1, output: 2 } } }])
    expect(third).toStrictEqual([
      { op: 'turn.update', turnId: TURN, metadata: { usage: 'none' } },
      { op: 'turn.finish', turnId: TURN, status: 'done' },
    ])
  })

  it('skips a key that could reach a prototype', () => {
    const metadata = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>
    const ops = last([{ type: 'message-metadata', messageMetadata: metadata }])
    expect(ops).toStrictEqual([{ op: 'turn.update', turnId: TURN, metadata: { a: 1 } }])
    const update = ops[0] as { metadata: Record<string, unknown> }
    expect(Object.getPrototypeOf(update.metadata)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBe(undefined)
  })

  it('skips such a key inside a value it merges into', () => {
    const usage = JSON.parse('{"__proto__":{"polluted":true},"output":2}') as Record<string, unknown>
    const [, ops] = feed(decoder(), [
      { type: 'start', messageMetadata: { usage: { input: 1 } } },
      { type: 'message-metadata', messageMetadata: { usage } },
    ])
    expect(ops).toStrictEqual([{ op: 'turn.update', turnId: TURN, metadata: { usage: { input: 1, output: 2 } } }])
    const merged = (ops![0] as unknown as { metadata: { usage: Record<string, unknown> } }).metadata.usage
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect(merged.polluted).toBe(undefined)
  })
})

describe('steps', () => {
  it('each start-step is a numbered block and row; a new one closes the one in progress', () => {
    const [first, second] = feed(decoder(), [{ type: 'start-step' }, { type: 'start-step' }])
    expect(first).toEqual(stepOpen(1))
    expect(second).toEqual([...stepClose(1), ...stepOpen(2)])
  })

  it('finish-step without a step, and reset-step without one, are invalid problems', () => {
    const finish = { type: 'finish-step' }
    expect(last([finish])).toEqual([problem('finish-step without a start-step', finish, 'invalid')])
    const reset = { type: 'reset-step' }
    expect(last([reset])).toEqual([problem('reset-step without a step in progress', reset, 'invalid')])
  })
})

describe('how the turn ends', () => {
  it('finish closes the parts and the step, and keeps its finishReason', () => {
    const ops = last([{ type: 'start-step' }, { type: 'text-start', id: 'a' }, { type: 'finish', finishReason: 'stop' }])
    expect(ops).toEqual([textDone, ...stepClose(1), { op: 'turn.finish', turnId: TURN, status: 'done', finishReason: 'stop' }])
  })

  it('a finishReason that is not text is an invalid problem', () => {
    const chunk = { type: 'finish', finishReason: 3 }
    expect(last([chunk])).toStrictEqual([
      problem('finishReason must be text', chunk, 'invalid'),
      { op: 'turn.finish', turnId: TURN, status: 'done' },
    ])
  })

  it('abort closes the parts, closes the step as done, and keeps its reason', () => {
    const ops = last([{ type: 'start-step' }, { type: 'text-start', id: 'a' }, { type: 'abort', reason: 'user' }])
    expect(ops).toStrictEqual([
      textDone, ...stepClose(1),
      { op: 'turn.update', turnId: TURN, metadata: { abortReason: 'user' } },
      { op: 'turn.finish', turnId: TURN, status: 'aborted' },
    ])
  })

  it('an error leaves the parts open, closes the step as an error, and carries a typed error', () => {
    const d = decoder()
    const [, , ops] = feed(d, [{ type: 'start-step' }, { type: 'text-start', id: 'a' }, { type: 'error', errorText: 'slow down', errorCode: 'rate_limit', reason: 'x' }])
    expect(ops).toStrictEqual([
      ...stepClose(1, 'error'),
      { op: 'turn.finish', turnId: TURN, status: 'error', error: weftError('rate_limit', 'slow down', { code: 'rate_limit' }) },
    ])
    expect(d.end('done')).toStrictEqual([textDone])
  })

  it('an error without text says the stream reported one', () => {
    expect(last([{ type: 'error' }])).toStrictEqual([
      { op: 'turn.finish', turnId: TURN, status: 'error', error: weftError('unknown', 'the agent stream reported an error') },
    ])
  })

  it('after an error, a finish only adds its finishReason, and without one adds nothing', () => {
    expect(last([{ type: 'error', errorText: 'x' }, { type: 'finish', finishReason: 'stop' }])).toStrictEqual([
      { op: 'turn.update', turnId: TURN, finishReason: 'stop' },
    ])
    expect(last([{ type: 'error', errorText: 'x' }, { type: 'finish' }])).toStrictEqual([])
  })

  it('after a finish, an error is kept as a problem and an abort adds nothing', () => {
    expect(last([{ type: 'finish' }, { type: 'error', errorText: 'late' }])).toStrictEqual([
      { op: 'problem', turnId: TURN, error: weftError('unknown', 'late') },
    ])
    expect(last([{ type: 'finish' }, { type: 'abort' }])).toStrictEqual([])
  })

  it('the end of the stream closes the step and finishes the turn once', () => {
    const d = decoder()
    feed(d, [{ type: 'start-step' }])
    expect(d.end('eof')).toStrictEqual([...stepClose(1), { op: 'turn.finish', turnId: TURN, status: 'done' }])
    expect(d.decode({ type: 'finish' }, {})).toStrictEqual([])
    expect(d.ended).toBe(true)
  })
})

describe('data parts', () => {
  it('a data part is a finished message, keyed by its id when it has one', () => {
    const [noId, withId] = feed(decoder(), [
      { type: 'data-weather', data: { temp: 21 } },
      { type: 'data-weather', id: 'w1', data: { temp: 22 }, serverTag: 'x' },
    ])
    expect(noId).toStrictEqual([put('s/data-weather#1', 'data-weather', { data: { temp: 21 } })])
    expect(withId).toEqual([put('s/data-weather:w1', 'data-weather', { data: { temp: 22 }, id: 'w1', extra: { serverTag: 'x' } })])
  })

  it('a transient part goes to onData; an onData that throws is an invalid problem', () => {
    const seen: unknown[] = []
    expect(last([{ type: 'data-progress', id: 'p', data: 1, transient: true }], { onData: (part) => seen.push(part) })).toEqual([])
    expect(seen).toEqual([{ type: 'data-progress', id: 'p', data: 1 }])
    const throwing = { onData: () => { throw new Error('host down') } }
    expect(last([{ type: 'data-progress', data: 1, transient: true }], throwing)).toEqual([
      problem('the host\'s onData failed on data-progress: host down', undefined, 'invalid'),
    ])
    const throwingText = { onData: () => { throw 'nope' } }
    expect(last([{ type: 'data-progress', data: 1, transient: true }], throwingText)).toEqual([
      problem('the host\'s onData failed on data-progress: nope', undefined, 'invalid'),
    ])
  })
})

describe('thinking steps', () => {
  const node = (id: string, fields: Record<string, unknown>): Op => ({ op: 'trace.node', turnId: TURN, node: { id, ...fields } })

  it('a first step is a thinking row under the step; a later one with its id updates it', () => {
    const [, first, second] = feed(decoder(), [
      { type: 'start-step' },
      { type: 'data-thinking-step', id: 'k', data: { title: 'Search', status: 'in_progress', items: ['a'] } },
      { type: 'data-thinking-step', data: { id: 'k', status: 'completed' } },
    ])
    expect(first).toStrictEqual([node('s/thinking:k', { label: 'Search', status: 'progress', detail: ['a'], parentId: 's/step:1', kind: 'thinking' })])
    expect(second).toStrictEqual([node('s/thinking:k', { status: 'done' })])
  })

  it('data that is not an object is an invalid problem, and the part is kept as a data part', () => {
    const chunk = { type: 'data-thinking-step', data: 'x' }
    expect(last([chunk])).toEqual([
      problem('data-thinking-step whose data is not an object; kept as a data part', chunk, 'invalid'),
      put('s/data-thinking-step#1', 'data-thinking-step', { data: 'x' }),
    ])
  })

  it('without an id it is a missing_id problem and a row of its own', () => {
    const chunk = { type: 'data-thinking-step', data: { title: 'Plan' } }
    expect(last([chunk])).toStrictEqual([
      problem('data-thinking-step without an id (on the chunk or in data); it cannot be updated later', chunk, 'missing_id'),
      node('s/thinking#1', { label: 'Plan', kind: 'thinking' }),
    ])
  })

  it('an unknown status is an invalid problem and is left out', () => {
    const chunk = { type: 'data-thinking-step', id: 'k', data: { status: 'paused' } }
    expect(last([chunk])).toStrictEqual([
      problem('data-thinking-step with an unknown status "paused"', chunk, 'invalid'),
      node('s/thinking:k', { kind: 'thinking' }),
    ])
  })

  it('a row keeps the step it first appeared in: resetting a later step does not make it new', () => {
    const d = decoder()
    feed(d, [
      { type: 'start-step' }, { type: 'data-thinking-step', id: 'k', data: { status: 'pending' } },
      { type: 'start-step' }, { type: 'data-thinking-step', id: 'k', data: { status: 'in_progress' } },
      { type: 'reset-step' },
    ])
    expect(d.decode({ type: 'data-thinking-step', id: 'k', data: { status: 'failed' } }, {})).toStrictEqual([node('s/thinking:k', { status: 'error' })])
  })

  it('a row the reset step introduced is new again; one from before any step is kept', () => {
    const d = decoder()
    feed(d, [
      { type: 'data-thinking-step', id: 'early', data: {} },
      { type: 'start-step' }, { type: 'data-thinking-step', id: 'k', data: {} },
      { type: 'reset-step' },
    ])
    const [k, early] = feed(d, [
      { type: 'data-thinking-step', id: 'k', data: { status: 'error' } },
      { type: 'data-thinking-step', id: 'early', data: { status: 'error' } },
    ])
    expect(k).toStrictEqual([node('s/thinking:k', { status: 'error', parentId: 's/step:1', kind: 'thinking' })])
    expect(early).toStrictEqual([node('s/thinking:early', { status: 'error' })])
  })
})

describe('suggestions and notices', () => {
  it('further questions are the turn\'s suggestions, text only, from a list or data.questions', () => {
    expect(last([{ type: 'data-further-questions', data: ['a', 1, 'b'] }])).toEqual([{ op: 'turn.update', turnId: TURN, suggestions: ['a', 'b'] }])
    expect(last([{ type: 'data-further-questions', data: { questions: ['c', null] } }])).toEqual([{ op: 'turn.update', turnId: TURN, suggestions: ['c'] }])
    const chunk = { type: 'data-further-questions', data: { questions: 'c' } }
    expect(last([chunk])).toEqual([
      problem('data-further-questions without a questions list; kept as a data part', chunk, 'invalid'),
      put('s/data-further-questions#1', 'data-further-questions', { data: { questions: 'c' } }),
    ])
  })

  it('terminal info is a notice, keyed by its id when it has one, info unless it names a known level', () => {
    expect(last([{ type: 'data-terminal-info', data: { text: 'Saved' } }])).toStrictEqual([put('s/notice#1', 'notice', { text: 'Saved', level: 'info' })])
    expect(last([{ type: 'data-terminal-info', id: 'n', data: { text: 'Careful', type: 'warning' }, serverTag: 'x' }])).toStrictEqual([
      put('s/data-terminal-info:n', 'notice', { text: 'Careful', level: 'warning', extra: { serverTag: 'x' } }),
    ])
    const unknown = { type: 'data-terminal-info', data: { text: 'Hm', type: 'loud' } }
    expect(last([unknown])).toStrictEqual([
      problem('data-terminal-info with an unknown type "loud"; shown as info', unknown, 'invalid'),
      put('s/notice#1', 'notice', { text: 'Hm', level: 'info' }),
    ])
  })

  it('terminal info without text is an invalid problem, and the part is kept as a data part', () => {
    const chunk = { type: 'data-terminal-info', data: { type: 'info' } }
    expect(last([chunk])).toEqual([
      problem('data-terminal-info without data.text; kept as a data part', chunk, 'invalid'),
      put('s/data-terminal-info#1', 'data-terminal-info', { data: { type: 'info' } }),
    ])
  })
})

describe('sources, files and custom parts', () => {
  it('a source url needs a url; without a sourceId its url stands in', () => {
    const noUrl = { type: 'source-url', sourceId: 's1' }
    expect(last([noUrl])).toEqual([problem('source-url without a url', noUrl, 'invalid')])
    const noId = { type: 'source-url', url: 'https://a.example', title: 'A', providerMetadata: { p: 1 }, serverTag: 'x' }
    expect(last([noId])).toStrictEqual([
      problem('source-url without a sourceId; its url stands in', noId, 'missing_id'),
      { op: 'source.add', turnId: TURN, source: { id: 'https://a.example', kind: 'url', url: 'https://a.example', title: 'A', providerMetadata: { p: 1 }, extra: { serverTag: 'x' } } },
    ])
  })

  it('a source document without a sourceId is named by its filename, then its title, or is a problem', () => {
    const none = { type: 'source-document', mediaType: 'text/plain' }
    expect(last([none])).toEqual([problem('source-document without a sourceId, title or filename', none, 'missing_id')])
    const named = { type: 'source-document', title: 'Report', filename: 'r.pdf', mediaType: 'application/pdf', description: 'Q3' }
    expect(last([named])).toStrictEqual([
      problem('source-document without a sourceId; its name stands in', named, 'missing_id'),
      { op: 'source.add', turnId: TURN, source: { id: 'r.pdf', kind: 'document', title: 'Report', filename: 'r.pdf', mediaType: 'application/pdf', snippet: 'Q3' } },
    ])
    const titled = { type: 'source-document', sourceId: 'd1', title: 'Report', providerMetadata: { p: 1 }, serverTag: 'x' }
    expect(last([titled])).toStrictEqual([
      { op: 'source.add', turnId: TURN, source: { id: 'd1', kind: 'document', title: 'Report', providerMetadata: { p: 1 }, extra: { serverTag: 'x' } } },
    ])
  })

  it('a file needs a url and should name its media type', () => {
    const noUrl = { type: 'file', mediaType: 'image/png' }
    expect(last([noUrl])).toEqual([problem('file without a url', noUrl, 'invalid')])
    const noType = { type: 'reasoning-file', url: 'https://a.example/x' }
    expect(last([noType])).toStrictEqual([
      problem('reasoning-file without a mediaType', noType, 'invalid'),
      put('s/reasoning-file#1', 'reasoning-file', { url: 'https://a.example/x' }),
    ])
    expect(last([{ type: 'file', url: 'u', mediaType: 'image/png', filename: 'x.png', providerMetadata: { p: 1 }, serverTag: 'x' }])).toStrictEqual([
      put('s/file#1', 'file', { url: 'u', mediaType: 'image/png', filename: 'x.png', providerMetadata: { p: 1 }, extra: { serverTag: 'x' } }),
    ])
  })

  it('a custom part needs a kind and is a custom message', () => {
    const noKind = { type: 'custom' }
    expect(last([noKind])).toEqual([problem('custom without a kind', noKind, 'invalid')])
    expect(last([{ type: 'custom', kind: 'acme.card', providerMetadata: { p: 1 }, body: 'x' }])).toStrictEqual([
      put('s/custom#1', 'custom', { kind: 'acme.card', providerMetadata: { p: 1 }, extra: { body: 'x' } }),
    ])
  })
})

describe('interrupts', () => {
  const gate = (question: string, payload: Record<string, unknown>): Op => ({
    op: 'gate.open', gate: { id: 's/interrupt#1', turnId: TURN, kind: 'interrupt', question, payload },
  })

  it('asks its first action request\'s description, else reviews it by name or action, else waits for a review', () => {
    const described = { action_requests: [{ description: 'Send the mail?', name: 'send' }] }
    expect(last([{ type: 'interrupt', interrupt: described, payload: 1, serverTag: 'x' }])).toStrictEqual([
      gate('Send the mail?', { interrupt: described, payload: 1, extra: { serverTag: 'x' } }),
    ])
    const named = { action_requests: [{ name: 'send' }] }
    expect(last([{ type: 'interrupt', interrupt: named }])).toStrictEqual([gate('Review send', { interrupt: named })])
    const action = { action_requests: [{ action: 'delete' }] }
    expect(last([{ type: 'interrupt', interrupt: action }])).toStrictEqual([gate('Review delete', { interrupt: action })])
    expect(last([{ type: 'interrupt', interrupt: {} }])).toStrictEqual([gate('The agent is waiting for your review', { interrupt: {} })])
    const notList = { action_requests: { name: 'x' } }
    expect(last([{ type: 'interrupt', interrupt: notList }])).toStrictEqual([gate('The agent is waiting for your review', { interrupt: notList })])
  })

  it('without an interrupt object is an invalid problem', () => {
    const chunk = { type: 'interrupt', interrupt: 'x' }
    expect(last([chunk])).toEqual([problem('interrupt without an interrupt object', chunk, 'invalid')])
  })
})

describe('sniffUIMessage', () => {
  const headers = (value: string) => new Headers({ 'x-vercel-ai-ui-message-stream': value })

  it('the marker header decides: v1 (trimmed) is certain, another version nearly', () => {
    expect(sniffUIMessage({ headers: headers(' v1 ') })).toBe(1)
    expect(sniffUIMessage({ headers: headers('v2') })).toBe(0.95)
  })

  it('a first chunk that is not an object, has no text type, or carries props is not this protocol', () => {
    expect(sniffUIMessage({ first: 'text-delta' })).toBe(0)
    expect(sniffUIMessage({ first: { type: 5 } })).toBe(0)
    expect(sniffUIMessage({ first: { type: 'text-delta', props: {} } })).toBe(0)
    expect(sniffUIMessage({ first: { type: 'text-delta', id: 'a', delta: 'x' } })).toBe(0.9)
  })

  it('a custom chunk counts only with a kind', () => {
    expect(sniffUIMessage({ first: { type: 'custom', kind: 'acme' } })).toBe(0.9)
    expect(sniffUIMessage({ first: { type: 'custom' } })).toBe(0)
  })

  it('a data chunk counts only with data, and only a data- type does', () => {
    expect(sniffUIMessage({ first: { type: 'data-x', data: 1 } })).toBe(0.9)
    expect(sniffUIMessage({ first: { type: 'data-x' } })).toBe(0)
    expect(sniffUIMessage({ first: { type: 'weather', data: 1 } })).toBe(0)
  })
})

describe('chunkExtras', () => {
  it('a chunk type it does not know has no extras', () => {
    expect(chunkExtras({ type: 'weather', temp: 21 })).toBe(undefined)
    expect(chunkExtras({ type: 'data-weather', temp: 21 })).toEqual({ temp: 21 })
  })
})
