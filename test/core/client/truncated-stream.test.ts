/**
 * A stream that ends cleanly but short of its protocol's end (no terminal
 * event, no `[DONE]`) was cut off: the turn keeps every token, ends `aborted`
 * rather than `done`, and records a `truncated` problem. The same on the live
 * client and in `foldStream`, for every split of the bytes and every protocol.
 */
import { describe, expect, it } from 'vitest'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import { selectTurnMessages } from '../../../src/core/store/selectors'
import { comparable, liveFold, perFrame, recordedFold } from '../../helpers/live-fold'
import { sse } from '../../helpers/yao'

const encoder = new TextEncoder()

/** An answer "Hello, world" in each protocol: the whole of it, and what is left when the body stops early. */
const answers: Record<ProtocolName, { whole: string; cut: string; text: string }> = (() => {
  const ui = [
    { type: 'start', messageId: 'm1' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Hello, ' },
    { type: 'text-delta', id: 't1', delta: 'world' },
  ]
  const agUi = [
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hello, ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'world' },
  ]
  const yao = [
    { type: 'event', props: { event: 'stream_start', request_id: 'q1' } },
    { type: 'text', chunk_id: 'C1', message_id: 'M1', props: { content: 'Hello, ' }, delta: true },
    { type: 'text', chunk_id: 'C2', message_id: 'M1', props: { content: 'world' }, delta: true },
  ]
  const vocion = [
    { type: 'response_delta', delta: 'Hello, ' },
    { type: 'response_delta', delta: 'world' },
  ]
  return {
    'ui-message': { cut: sse(ui), whole: `${sse([...ui, { type: 'text-end', id: 't1' }, { type: 'finish' }])}data: [DONE]\n\n`, text: 'Hello, world' },
    'ag-ui': { cut: sse(agUi), whole: sse([...agUi, { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' }]), text: 'Hello, world' },
    yao: { cut: sse(yao), whole: sse([...yao, { type: 'event', props: { event: 'stream_end', status: 'completed' } }]), text: 'Hello, world' },
    vocion: { cut: sse(vocion), whole: sse([...vocion, { type: 'done' }]), text: 'Hello, world' },
  }
})()

const textOf = (state: AgentState, turnId: string): unknown[] =>
  selectTurnMessages(state, turnId).filter((m) => m.type === 'text').map((m) => m.props.content)

/** The live client over the whole body, one frame per read and one byte per read; each must equal foldStream. */
async function everySplit(text: string, protocol: ProtocolName): Promise<Array<{ state: AgentState; turnId: string }>> {
  const bytes = encoder.encode(text)
  const runs = [
    await liveFold([bytes], { protocol }),
    await liveFold(perFrame(text), { protocol }),
    await liveFold([...bytes].map((b) => Uint8Array.of(b)), { protocol }),
  ]
  for (const run of runs) expect(comparable(run.state)).toEqual(comparable(recordedFold(text, run.turnId, protocol)))
  return runs
}

describe('a stream cut short of its protocol’s end', () => {
  for (const protocol of Object.keys(answers) as ProtocolName[]) {
    const { whole, cut, text } = answers[protocol]!

    it(`${protocol}: foldStream keeps the text and ends the turn aborted with a truncated problem`, () => {
      const state = foldStream(cut, { turnId: 'a1', protocol })
      expect(state.turns.a1!.status).toBe('aborted')
      expect(state.turns.a1!.problems.map((p) => [p.type, p.code, p.retryable])).toEqual([['network', STREAM_TRUNCATED, true]])
      expect(textOf(state, 'a1').join('')).toBe(text)
    })

    it(`${protocol}: the live client agrees on every split, and its stream ends aborted, not done`, async () => {
      for (const { state, turnId } of await everySplit(cut, protocol)) {
        expect(state.status).toBe('aborted')
        expect(state.turns[turnId]!.status).toBe('aborted')
        expect(state.turns[turnId]!.problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
        expect(textOf(state, turnId).join('')).toBe(text)
      }
    })

    it(`${protocol}: the whole answer, with its end, is done with no problem`, async () => {
      const state = foldStream(whole, { turnId: 'a1', protocol })
      expect([state.turns.a1!.status, state.turns.a1!.problems]).toEqual(['done', []])
      for (const run of await everySplit(whole, protocol)) {
        expect([run.state.status, run.state.turns[run.turnId]!.status, run.state.turns[run.turnId]!.problems]).toEqual(['done', 'done', []])
      }
    })
  }

  it('an error the protocol reported is kept, and the cut adds only its problem', () => {
    const text = sse([{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hi' }, { type: 'error', errorText: 'model overloaded' }])
    const state = foldStream(text, { turnId: 'a1', protocol: 'ui-message' })
    // The error chunk is the protocol's end: the body stopping after it cut nothing off.
    expect(state.turns.a1!.status).toBe('error')
    expect(state.turns.a1!.problems.map((p) => p.code)).not.toContain(STREAM_TRUNCATED)
  })

  it('[DONE] alone is an end: a UI message stream without a finish chunk is not cut off', () => {
    const text = `${sse([{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hi' }])}data: [DONE]\n\n`
    const state = foldStream(text, { turnId: 'a1', protocol: 'ui-message' })
    expect([state.turns.a1!.status, state.turns.a1!.problems]).toEqual(['done', []])
  })
})
