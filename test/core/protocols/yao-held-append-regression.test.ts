/**
 * The differential property once failed for Yao with seed 1093447631: a thinking
 * message whose `content` was an object, then two plain tokens for it. The live
 * client, whose read ended between the tokens, wrote them as two appends and
 * recorded "cannot append string to an object" twice; `foldStream` held both
 * tokens as one append and recorded it once. A held append now keeps its tokens
 * (as the fold's own merged appends do), and the fold applies the tokens of a
 * merged append that a value refuses one by one, each where it arrived.
 */
import { describe, expect, it } from 'vitest'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { fold } from '../../../src/core/fold/fold'
import { weftError } from '../../../src/core/model/errors'
import type { Op } from '../../../src/core/model/ops'
import { createHeldAppends } from '../../../src/core/protocol/held-appends'
import { comparable, cutAt, liveFold, perFrame, recordedFold } from '../../helpers/live-fold'
import { sse } from '../../helpers/yao'
import { checkDifferential, rerunCommand } from '../fold/differential-property'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'

const encoder = new TextEncoder()
const REFUSED = 'cannot append string to an object; the object was kept'

/** The seed's counterexample, shrunk by hand: an object where text goes, then two tokens. */
const OBJECT_THEN_TOKENS = [
  { chunk_id: 'C3', message_id: 'M3', type: 'thinking', props: { content: { a: 1 } }, delta: false },
  { chunk_id: 'C6', message_id: 'M3', type: 'thinking', props: { content: 'x' }, delta: true },
  // No flag on a message already streaming this type: a token too.
  { chunk_id: 'C4', message_id: 'M3', type: 'thinking', props: { content: 'y' } },
]

// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problemsOf = (state: AgentState, turnId: string) => state.turns[turnId]?.problems.filter((p) => p.code !== STREAM_TRUNCATED).map((p) => p.message)

/** The live client over the given reads, and foldStream over the whole text, under the live turn's id. */
async function bothPaths(text: string, reads: readonly Uint8Array[]) {
  const live = await liveFold(reads, { protocol: 'yao' })
  return { live: live.state, recorded: recordedFold(text, live.turnId, 'yao'), turnId: live.turnId }
}

describe('Yao held tokens fold alike wherever reads end', () => {
  it('two tokens an object refuses are two problems, in one read or two', async () => {
    const text = sse(OBJECT_THEN_TOKENS)
    const bytes = encoder.encode(text)
    const between = text.indexOf('data: {"chunk_id":"C4"')
    for (const reads of [[bytes], cutAt(bytes, [between]), perFrame(text)]) {
      const { live, recorded, turnId } = await bothPaths(text, reads)
      expect(comparable(live)).toEqual(comparable(recorded))
      expect(problemsOf(recorded, turnId)).toEqual([REFUSED, REFUSED])
      expect(recorded.messages).toEqual(live.messages)
    }
  })

  it('the seed’s own stream and cut: live and recorded agree, with the refusal once per token', async () => {
    const text = 'data: not json\r\n\r\n' + sse([
      { chunk_id: 'C3', message_id: 'M3', type: 'thinking', props: { content: { a: 1 } }, delta: 0 },
      { chunk_id: 'C10', message_id: 'M2', type: 'text', props: { content: ' ' }, delta: true, delta_path: '__proto__.x', delta_action: 'set' },
      { chunk_id: 'C6', message_id: 'M3', type: 'thinking', props: { content: '𓉰𝐹𖨗ﰀ肭‧ㆃ趼' }, delta: true },
      { chunk_id: 'C1', message_id: 'M2', type: 'text', props: { content: '𝞻⪰🁏㊃𝌰𖩅' }, delta: true },
      { chunk_id: 'C4', message_id: 'M3', type: 'thinking', props: { content: 'क़ʈ𑼪𘫰𖤠𐍵➳' } },
    ]).replaceAll('\n\n', '\r\n\r\n')
    const bytes = encoder.encode(text)
    // The counterexample's one cut: just after the C6 frame's blank line and one byte more.
    const cut = encoder.encode(text.slice(0, text.indexOf('data: {"chunk_id":"C1"'))).length + 1
    expect(cut).toBe(391)
    const { live, recorded, turnId } = await bothPaths(text, cutAt(bytes, [cut]))
    expect(comparable(live)).toEqual(comparable(recorded))
    expect(problemsOf(recorded, turnId)?.filter((m) => m === REFUSED)).toHaveLength(2)
  })

  it('an array takes each token as an item, in one read or two', async () => {
    const text = sse([
      { chunk_id: 'C1', message_id: 'M', type: 'text', props: { content: [] }, delta: false },
      { chunk_id: 'C2', message_id: 'M', type: 'text', props: { content: 'x' }, delta: true },
      { chunk_id: 'C3', message_id: 'M', type: 'text', props: { content: 'y' }, delta: true },
    ])
    for (const reads of [[encoder.encode(text)], perFrame(text)]) {
      const { live, recorded, turnId } = await bothPaths(text, reads)
      expect(comparable(live)).toEqual(comparable(recorded))
      expect(Object.values(recorded.messages).flatMap((bucket) => Object.values(bucket)).find((m) => m.turnId === turnId)?.props.content).toEqual(['x', 'y'])
    }
  })

  it('a frame that is not JSON between held tokens keeps its place among the refusals', async () => {
    const text = sse([
      { chunk_id: 'C1', message_id: 'M', type: 'text', props: { content: { a: 1 } }, delta: false },
      { chunk_id: 'C2', message_id: 'M', type: 'text', props: { content: 'x' }, delta: true },
      'not json',
      { chunk_id: 'C3', message_id: 'M', type: 'text', props: { content: 'y' }, delta: true },
    ])
    for (const reads of [[encoder.encode(text)], perFrame(text)]) {
      const { live, recorded, turnId } = await bothPaths(text, reads)
      expect(comparable(live)).toEqual(comparable(recorded))
      expect(problemsOf(recorded, turnId)).toEqual([REFUSED, 'a frame was not valid JSON', REFUSED])
    }
  })

  it('a chunk’s problem between appends the fold merges keeps its place among the refusals', async () => {
    // Tokens with a field of their own are not held: the fold's coalescing merges them across the problem.
    const text = sse([
      { chunk_id: 'C1', message_id: 'M', type: 'text', props: { content: { a: 1 } }, delta: false },
      { chunk_id: 'C2', message_id: 'M', type: 'text', props: { content: 'x' }, delta: true, region: 'eu' },
      { chunk_id: 'C9', message_id: 'M', type: 'text', props: { content: 'q' }, delta: true, delta_action: 'bogus' },
      { chunk_id: 'C3', message_id: 'M', type: 'text', props: { content: 'y' }, delta: true, region: 'us' },
    ])
    for (const reads of [[encoder.encode(text)], perFrame(text)]) {
      const { live, recorded, turnId } = await bothPaths(text, reads)
      expect(comparable(live)).toEqual(comparable(recorded))
      expect(problemsOf(recorded, turnId)).toEqual([REFUSED, 'unknown delta_action "bogus"; the chunk was ignored', REFUSED])
    }
  })
})

describe('held appends and the fold', () => {
  const at = { turnId: 't', messageId: 'm', type: 'text', role: 'assistant' as const }

  it('a held append reads as one append and keeps its tokens for the fold', () => {
    const held = createHeldAppends()
    held.hold(at, 'Hel')
    held.hold(at, 'lo')
    const [op] = held.take()
    expect(op).toEqual({ op: 'message.delta', ...at, action: 'append', path: 'content', value: 'Hello' })
    expect((op as { parts?: string[] }).parts).toEqual(['Hel', 'lo'])
    expect(JSON.stringify(op)).not.toContain('parts')
  })

  it('folds a held append as its tokens one by one, on text, an object and an array', () => {
    for (const content of ['Hi ', { a: 1 }, ['a']]) {
      const start: Op[] = [{ op: 'turn.open', turnId: 't', role: 'assistant' }, { op: 'message.put', ...at, props: { content } }]
      const held = createHeldAppends()
      held.hold(at, 'x')
      held.hold(at, 'y')
      const tokens: Op[] = [
        { op: 'message.delta', ...at, action: 'append', path: 'content', value: 'x' },
        { op: 'message.delta', ...at, action: 'append', path: 'content', value: 'y' },
      ]
      const oneByOne = tokens.reduce((state, op) => fold(state, [op]), fold(emptyState(), start))
      expect(fold(emptyState(), [...start, ...held.take()])).toEqual(oneByOne)
    }
  })

  it('a merged append an object refuses leaves each refusal where its piece arrived', () => {
    const append = (value: string, messageId = 'm'): Op => ({ op: 'message.delta', ...at, messageId, action: 'append', path: 'content', value })
    const ops: Op[] = [
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'message.put', ...at, props: { content: { a: 1 } } },
      { op: 'message.put', ...at, messageId: 'n', props: { content: { b: 1 } } },
      append('a'), append('b', 'n'),
      { op: 'problem', turnId: 't', error: weftError('protocol', 'between') },
      append('c', 'n'), append('d'),
      { op: 'trace.node', turnId: 't', node: { id: '__proto__' } },
      append('e'),
    ]
    const oneByOne = ops.reduce((state, op) => fold(state, [op]), emptyState())
    const whole = fold(emptyState(), ops)
    expect(whole).toEqual(oneByOne)
    expect(whole.turns.t?.problems.map((p) => p.message)).toEqual([
      REFUSED, REFUSED, 'between', REFUSED, REFUSED, 'refused the id "__proto__" sent by the server', REFUSED,
    ])
  })

  it('a merged append whose path is refused is refused once per piece', () => {
    const ops: Op[] = [
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'message.delta', ...at, action: 'append', path: '__proto__.x', value: 'a' },
      { op: 'message.delta', ...at, action: 'append', path: '__proto__.x', value: 'b' },
    ]
    const oneByOne = ops.reduce((state, op) => fold(state, [op]), emptyState())
    expect(fold(emptyState(), ops)).toEqual(oneByOne)
    expect(oneByOne.turns.t?.problems).toHaveLength(2)
  })
})

describe('the differential property at the seed that found it', () => {
  // The 276th stream of this seed is the one that failed (fast-check's path "275"): start there.
  it('yao, seed 1093447631, from its 276th stream: the live client equals foldStream', async () => {
    const run = { protocol: 'yao' as const, seed: 1093447631, path: '275', runs: 10 }
    const result = await checkDifferential(run)
    expect(result.failed, rerunCommand(run, result)).toBe(false)
    expect(result.numRuns).toBe(10)
  }, 120_000)
})
