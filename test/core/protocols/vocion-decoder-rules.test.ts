/**
 * The Vocion decoder's lifecycle, op by op: the problems a malformed event
 * reports (exact message and code), the stream's cursor, the reasoning and
 * answer ops with their kept fields, how `done`, `error` and the body's end
 * close the turn, `run_meta`, how an error message is classified, and how
 * sure the sniffer is from a stream's first event.
 */
import { describe, expect, it } from 'vitest'
import type { Op } from '../../../src/core/model/ops'
import { classifyVocionError, createVocionDecoder, sniffVocion } from '../../../src/protocols/vocion/decoder'

const decoder = () => createVocionDecoder({ turnId: 't1', scope: 't1' })
const run = (events: readonly unknown[], d = decoder()): Op[] => events.flatMap((e) => d.decode(e, {}))
const problem = (message: string, raw: unknown, code: string): Op => ({
  op: 'problem', turnId: 't1',
  error: { type: 'protocol', message, retryable: false, code, detail: JSON.stringify(raw) },
})
const reasoning = (more: Record<string, unknown>): Op =>
  ({ op: 'message.delta', turnId: 't1', messageId: 't1/reasoning-1', type: 'reasoning', role: 'assistant', ...more }) as Op
const answerOp = (more: Record<string, unknown>): Op =>
  ({ op: 'message.delta', turnId: 't1', messageId: 't1/answer', type: 'text', role: 'assistant', ...more }) as Op
const finish = (status: 'done' | 'error' = 'done'): Op => ({ op: 'turn.finish', turnId: 't1', status })

describe('Vocion events that cannot be read', () => {
  it('an event that is not an object is a not_object problem', () => {
    expect(run([42])).toStrictEqual([problem('a Vocion event must be an object', 42, 'not_object')])
    expect(run([null])).toStrictEqual([problem('a Vocion event must be an object', null, 'not_object')])
  })

  it('an event whose type is missing, not text or empty is a missing_type problem', () => {
    for (const event of [{ delta: 'x' }, { type: 3 }, { type: '' }]) {
      expect(run([event])).toStrictEqual([problem('a Vocion event has no type', event, 'missing_type')])
    }
  })

  it('a type the decoder does not know names itself in an unknown_event problem', () => {
    const event = { type: 'mystery', a: 1 }
    expect(run([event])).toStrictEqual([problem('unknown Vocion event "mystery"', event, 'unknown_event')])
  })

  it('an event after done names its type in an after_end problem', () => {
    const late = { type: 'response_delta', delta: 'late' }
    expect(run([{ type: 'done' }, late]).slice(1)).toStrictEqual([
      problem('"response_delta" arrived after the turn ended; it was ignored', late, 'after_end'),
    ])
  })

  it('a thinking_delta or response_delta whose delta is not text is an invalid problem and nothing else', () => {
    const thinking = { type: 'thinking_delta', delta: 42 }
    const response = { type: 'response_delta', delta: 42 }
    expect(run([thinking])).toStrictEqual([problem('thinking_delta without a delta', thinking, 'invalid')])
    expect(run([response])).toStrictEqual([problem('response_delta without a delta', response, 'invalid')])
  })
})

describe('Vocion stream_meta', () => {
  it('a stream_meta whose streamId is not text is an invalid problem, even a number', () => {
    for (const event of [{ type: 'stream_meta', streamId: 5 }, { type: 'stream_meta', streamId: '' }, { type: 'stream_meta' }]) {
      expect(run([event])).toStrictEqual([problem('stream_meta without a streamId', event, 'invalid')])
    }
  })

  it('a stream_meta with a streamId is a cursor, and its other fields belong to the turn', () => {
    expect(run([{ type: 'stream_meta', streamId: 's9', region: 'eu' }])).toStrictEqual([
      { op: 'cursor', cursor: { streamId: 's9', protocol: 'vocion' } },
      { op: 'turn.update', turnId: 't1', metadata: { extra: { region: 'eu' } } },
    ])
  })
})

describe('Vocion reasoning and answer ops', () => {
  it('a thinking_delta appends to the reasoning, and its unread fields merge into the reasoning extra', () => {
    expect(run([{ type: 'thinking_delta', delta: 'Hm', step: 2 }])).toStrictEqual([
      reasoning({ action: 'append', path: 'content', value: 'Hm' }),
      reasoning({ action: 'merge', path: 'extra', value: { step: 2 } }),
    ])
  })

  it('a response_delta closes the reasoning, appends to the answer, and merges its unread fields into the answer extra', () => {
    expect(run([{ type: 'thinking' }, { type: 'response_delta', delta: 'Hi', seq: 7 }])).toStrictEqual([
      reasoning({ action: 'append', path: 'content', value: '' }),
      { op: 'message.finish', messageId: 't1/reasoning-1', status: 'done' },
      answerOp({ action: 'append', path: 'content', value: 'Hi' }),
      answerOp({ action: 'merge', path: 'extra', value: { seq: 7 } }),
    ])
  })

  it('answering marks the turn with its fields and closes the reasoning', () => {
    expect(run([{ type: 'thinking' }, { type: 'answering', phase: 'final' }]).slice(1)).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { extra: { phase: 'final' } } },
      { op: 'message.finish', messageId: 't1/reasoning-1', status: 'done' },
    ])
  })
})

describe('Vocion done', () => {
  it('a done with nothing else finishes the turn and writes no trace id', () => {
    expect(run([{ type: 'done' }])).toStrictEqual([finish()])
  })

  it('a done whose response differs from the deltas sets the answer and records the trace id', () => {
    expect(run([{ type: 'response_delta', delta: 'Hel' }, { type: 'done', response: 'Hello', traceId: 'tr-1' }]).slice(1)).toStrictEqual([
      answerOp({ action: 'set', path: 'content', value: 'Hello' }),
      { op: 'turn.update', turnId: 't1', metadata: { traceId: 'tr-1' } },
      finish(),
    ])
  })

  it('a done whose response is not text reports it and keeps the streamed answer', () => {
    const event = { type: 'done', response: 42 }
    expect(run([{ type: 'response_delta', delta: 'Hi' }, event]).slice(1)).toStrictEqual([
      problem('done.response must be text; the streamed answer was kept', event, 'invalid'),
      finish(),
    ])
  })

  it('a done whose response is null is no problem', () => {
    expect(run([{ type: 'done', response: null }])).toStrictEqual([finish()])
  })

  it('done closes the reasoning and the lanes still open', () => {
    expect(run([{ type: 'thinking' }, { type: 'subagent_start', name: 'scout' }, { type: 'done' }]).slice(3)).toStrictEqual([
      { op: 'message.finish', messageId: 't1/reasoning-1', status: 'done' },
      { op: 'thread.close', threadId: 't1/subagent-2', status: 'done' },
      finish(),
    ])
  })
})

describe('Vocion error and the end of the body', () => {
  it('an error without a message fails the turn with a plain message', () => {
    expect(run([{ type: 'error' }])).toStrictEqual([
      { op: 'turn.finish', turnId: 't1', status: 'error', error: { type: 'unknown', message: 'the agent stream ended with an error', retryable: false } },
    ])
  })

  it('the body ending without done finishes the turn once, after which events are late', () => {
    const d = decoder()
    expect(d.ended).toBe(false)
    expect(d.end('eof')).toStrictEqual([finish()])
    expect(d.ended).toBe(true)
    expect(d.end('eof')).toStrictEqual([])
    const late = { type: 'thinking' }
    expect(d.decode(late, {})).toStrictEqual([problem('"thinking" arrived after the turn ended; it was ignored', late, 'after_end')])
  })
})

describe('Vocion run_meta', () => {
  it('writes only the model fields the event carries', () => {
    expect(run([{ type: 'run_meta', model: 'm-1' }])).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { model: 'm-1' } },
    ])
  })
})

describe('classifying a Vocion error message', () => {
  it('reads rate limits, timeouts and authentication failures however they are spelled', () => {
    expect(classifyVocionError('RateLimitError')).toBe('rate_limit')
    expect(classifyVocionError('request time out')).toBe('timeout')
    expect(classifyVocionError('Unauthorised')).toBe('authentication')
    expect(classifyVocionError('HTTP 403')).toBe('authentication')
    expect(classifyVocionError('HTTP 404')).toBe('unknown')
  })
})

describe('sniffing a Vocion stream', () => {
  it('an event type only Vocion sends is a strong sign, unless the event has Yao fields', () => {
    expect(sniffVocion({ first: { type: 'response_delta', delta: 'x' } })).toBe(0.9)
    expect(sniffVocion({ first: { type: 'response_delta', props: {} } })).toBe(0)
    expect(sniffVocion({ first: { type: 'response_delta', chunk_id: 'c1' } })).toBe(0)
  })

  it('a bare thinking or answering is a strong sign, with any other field none', () => {
    expect(sniffVocion({ first: { type: 'thinking' } })).toBe(0.9)
    expect(sniffVocion({ first: { type: 'answering' } })).toBe(0.9)
    expect(sniffVocion({ first: { type: 'thinking', x: 1 } })).toBe(0)
    expect(sniffVocion({ first: { type: 'other' } })).toBe(0)
  })

  it('a done with a text response is a fair sign, and without one none', () => {
    expect(sniffVocion({ first: { type: 'done', response: 'ok' } })).toBe(0.6)
    expect(sniffVocion({ first: { type: 'done' } })).toBe(0)
    expect(sniffVocion({ first: { type: 'done', response: 3 } })).toBe(0)
    expect(sniffVocion({ first: { type: 'finished', response: 'ok' } })).toBe(0)
  })

  it('an error with only a text message is a fair sign', () => {
    expect(sniffVocion({ first: { type: 'error', message: 'boom' } })).toBe(0.6)
    expect(sniffVocion({ first: { type: 'error', message: 'boom', code: 1 } })).toBe(0)
    expect(sniffVocion({ first: { type: 'error', code: 1 } })).toBe(0)
    expect(sniffVocion({ first: { type: 'failure', message: 'boom' } })).toBe(0)
    expect(sniffVocion({ first: { type: 'failure', reason: 'boom', code: 1 } })).toBe(0)
  })
})
