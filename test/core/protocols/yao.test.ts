import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState } from '../../../src/core/model/model'
import { encodeFrame } from '../../../mock/scenario'
import { findScenario } from '../../../mock/scenarios/index'
import { contents, messagesOf, sse } from '../../helpers/yao'
import { messageIn } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { timeline } from '../../helpers/timeline'

// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problemsOf = (s: { turns: Record<string, { problems: Array<{ code?: string }> } | undefined> }) => s.turns['turn-1']!.problems.filter((p) => p.code !== STREAM_TRUNCATED)

function scenarioText(name: string): string {
  const scenario = findScenario('yao', name)
  if (!scenario) throw new Error(`no scenario ${name}`)
  return scenario.frames.map((f) => encodeFrame(f)).join('')
}

/** The per-thread view of a state, independent of arrival order. */
function byThread(state: AgentState): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const thread of Object.values(state.threads)) {
    out[thread.id] = thread.messageIds.map((id) => String(messageIn(state.messages, id)!.props.content))
  }
  return out
}

describe('Yao: the five scenarios of the document, as the document writes them', () => {
  it('1. a simple text message', () => {
    const s = foldStream([{ chunk_id: 'C1', type: 'text', props: { content: 'Hello World' } }])
    expect(s.turns['turn-1']!.protocol).toBe('yao')
    expect(contents(s)).toEqual(['Hello World'])
    // The document's snippet has no stream_end: folded alone, it is an answer cut off.
    expect(s.turns['turn-1']!.status).toBe('aborted')
    expect(s.turns['turn-1']!.problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
  })

  it('a chunk without a message_id and a server message of the same name stay two messages, in either order', () => {
    const serverFirst = foldStream([
      { chunk_id: 'C1', message_id: 'C2#1', type: 'text', props: { content: 'named' } },
      { chunk_id: 'C2', type: 'text', props: { content: 'anonymous' } },
    ])
    expect(contents(serverFirst)).toEqual(['named', 'anonymous'])
    const anonymousFirst = foldStream([
      { chunk_id: 'C5', type: 'text', props: { content: 'anonymous' } },
      { chunk_id: 'C6', message_id: 'C5#1', type: 'text', delta: true, props: { content: 'Hel' } },
      { chunk_id: 'C7', message_id: 'C5#1', type: 'text', delta: true, props: { content: 'lo' } },
    ])
    expect(contents(anonymousFirst)).toEqual(['anonymous', 'Hello'])
  })

  it('2. one streaming message merged by message_id', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hello' }, delta: true },
      { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: ' World' }, delta: true },
      { chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: '!' }, delta: true },
    ])
    expect(contents(s)).toEqual(['Hello World!'])
  })

  it('3. thinking, a tool call and text in one block', () => {
    const s = foldStream(scenarioText('one-block'))
    const turn = s.turns['turn-1']!
    expect(turn.blockIds).toHaveLength(1)
    const block = s.blocks[turn.blockIds[0]!]!
    expect(block).toMatchObject({ kind: 'llm', label: 'Answering the question', status: 'done' })
    const [thinking, tool, text] = messagesOf(s)
    expect(block.messageIds).toEqual([thinking!.id, tool!.id, text!.id])
    expect(thinking).toMatchObject({ type: 'reasoning', props: { content: 'The user asks about the weather, so I should call the weather tool.' } })
    expect(tool!.type).toBe('tool')
    expect(tool!.props).toMatchObject({ toolCallId: 'call_weather_1', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' }, arguments: '{"city": "Paris", "unit": "celsius"}' })
    expect(text!.props.content).toBe('It is sunny in Paris, 25°C.')
    // The block and the tool call are rows of the timeline.
    const rows = timeline(s)
    expect(rows.map((r) => [r.kind, r.label, r.status])).toEqual([['llm', 'Answering the question', 'done'], ['tool', 'get_weather', 'done']])
    expect(rows[1]!.args).toEqual({ city: 'Paris', unit: 'celsius' })
  })

  it('4. three sequential blocks', () => {
    const s = foldStream(scenarioText('sequential-blocks'))
    const blocks = s.turns['turn-1']!.blockIds.map((id) => s.blocks[id]!)
    expect(blocks.map((b) => [b.kind, b.label, b.messageIds.length])).toEqual([['llm', 'Planning', 1], ['mcp', 'weather.forecast', 2], ['llm', 'Answer', 1]])
    expect(messagesOf(s).map((m) => m.type)).toEqual(['text', 'loading', 'text', 'text'])
    expect(contents(s)[3]).toBe('Tomorrow will be sunny with a high of 25°C.')
  })

  it('5. concurrent threads, as the document writes them (no delta flag), merge per thread', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', block_id: 'B1', thread_id: 'T1', type: 'text', props: { content: 'Weather: Sunny' } },
      { chunk_id: 'C2', message_id: 'M2', block_id: 'B1', thread_id: 'T2', type: 'text', props: { content: 'News: ...' } },
      { chunk_id: 'C3', message_id: 'M1', block_id: 'B1', thread_id: 'T1', type: 'text', props: { content: ', 25°C' } },
      { chunk_id: 'C4', message_id: 'M3', block_id: 'B1', thread_id: 'T3', type: 'text', props: { content: 'Summary...' } },
    ])
    expect(byThread(s)).toEqual({ 'turn-1/T1': ['Weather: Sunny, 25°C'], 'turn-1/T2': ['News: ...'], 'turn-1/T3': ['Summary...'] })
    expect(s.blocks['turn-1/B1']!.threadIds).toEqual(['turn-1/T1', 'turn-1/T2', 'turn-1/T3'])
  })

  it('5. interleaved in any order, each thread folds to the same result', () => {
    const scenario = findScenario('yao', 'concurrent-threads')!
    const events = scenario.frames.filter((f) => f.data !== undefined).map((f) => f.data as Record<string, unknown>)
    const reference = byThread(foldStream(events))
    expect(reference['turn-1/T1']).toEqual(['Weather: Sunny, 25°C'])
    // Shuffle the chunks of different threads while keeping each thread's own order.
    let seed = 7
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647)
    for (let round = 0; round < 25; round++) {
      const lanes = new Map<string, Array<Record<string, unknown>>>()
      for (const e of events) {
        const props = e.props as Record<string, unknown>
        const data = props?.data as Record<string, unknown> | undefined
        const lane = String(e.thread_id ?? data?.thread_id ?? 'main')
        lanes.set(lane, [...(lanes.get(lane) ?? []), e])
      }
      const main = lanes.get('main')!
      lanes.delete('main')
      const head = main.slice(0, 2) // stream_start, block_start
      const tail = main.slice(2) // block_end, stream_end
      const mixed: Array<Record<string, unknown>> = []
      const queues = [...lanes.values()].map((q) => [...q])
      while (queues.some((q) => q.length)) {
        const open = queues.filter((q) => q.length)
        mixed.push(open[Math.floor(random() * open.length)]!.shift()!)
      }
      expect(byThread(foldStream([...head, ...mixed, ...tail]))).toEqual(reference)
    }
  })
})

describe('Yao: the mock scenarios over SSE text', () => {
  it.each(['simple-text', 'streaming-text', 'one-block', 'sequential-blocks', 'concurrent-threads'])('%s folds with no problem and finishes', (name) => {
    const s = foldStream(scenarioText(name))
    const turn = s.turns['turn-1']!
    expect(turn.problems.filter((p) => p.code !== STREAM_TRUNCATED)).toEqual([])
    expect(turn.status).toBe('done')
    expect(turn.metadata).toMatchObject({ requestId: expect.any(String), chatId: 'chat_mock_1', durationMs: expect.any(Number) })
    expect(turn.usage).toMatchObject({ inputTokens: 12, outputTokens: 24, totalTokens: 36, raw: { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 } })
    const scenario = findScenario('yao', name)!
    expect(s.cursor.sequence).toBe(scenario.frames.filter((f) => f.data !== undefined).length)
  })
})

describe('Yao: delta actions at delta_path', () => {
  const base = { chunk_id: 'C1', message_id: 'M1', type: 'card', props: { title: 'T', items: [{ title: 'a' }], meta: { x: 1, y: 1 } } }

  it('append (default), replace, merge and set at dot and bracket paths', () => {
    const s = foldStream([
      base,
      { chunk_id: 'C2', message_id: 'M1', type: 'card', delta: true, delta_path: 'title', props: { title: 'itle' } },
      { chunk_id: 'C3', message_id: 'M1', type: 'card', delta: true, delta_path: 'items', props: { items: [{ title: 'b' }] } },
      { chunk_id: 'C4', message_id: 'M1', type: 'card', delta: true, delta_action: 'set', delta_path: 'items[0].title', props: { items: [{ title: 'A' }] } },
      { chunk_id: 'C5', message_id: 'M1', type: 'card', delta: true, delta_action: 'merge', delta_path: 'meta', props: { meta: { y: 2, z: 3 } } },
      { chunk_id: 'C6', message_id: 'M1', type: 'card', delta: true, delta_action: 'replace', delta_path: 'items.1', props: { items: [null, { title: 'B' }] } },
      { chunk_id: 'C7', message_id: 'M1', type: 'card', delta: true, delta_action: 'set', props: { extra: true } },
    ])
    expect(messagesOf(s)[0]!.props).toEqual({ title: 'Title', items: [{ title: 'A' }, { title: 'B' }], meta: { x: 1, y: 2, z: 3 }, extra: true })
  })

  it('replace with an empty path replaces all of props', () => {
    const s = foldStream([base, { chunk_id: 'C2', message_id: 'M1', type: 'card', delta: true, delta_action: 'replace', props: { only: 1 } }])
    expect(messagesOf(s)[0]!.props).toEqual({ only: 1 })
  })

  it('a non-delta chunk replaces props and type; type_change re-types a streaming message', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'loading', props: { message: 'Working…' } },
      { chunk_id: 'C2', message_id: 'M1', type: 'text', delta: false, props: { content: 'Done' } },
      { chunk_id: 'C3', message_id: 'M2', type: 'text', delta: true, props: { content: '<b' } },
      { chunk_id: 'C4', message_id: 'M2', type: 'html', delta: true, type_change: true, props: { content: '>x</b>' } },
    ])
    expect(messagesOf(s).map((m) => [m.type, m.props])).toEqual([['text', { content: 'Done' }], ['html', { content: '<b>x</b>' }]])
  })

  it('an unknown delta_action is reported and ignored', () => {
    const s = foldStream([base, { chunk_id: 'C2', message_id: 'M1', type: 'card', delta: true, delta_action: 'explode', props: { title: '!' } }])
    expect(messagesOf(s)[0]!.props.title).toBe('T')
    expect(problemsOf(s)).toEqual([expect.objectContaining({ type: 'protocol', code: 'delta_action' })])
  })

  it('a delta_path or key naming __proto__, constructor or prototype is refused', () => {
    const s = foldStream(sse([
      base,
      { chunk_id: 'C2', message_id: 'M1', type: 'card', delta: true, delta_action: 'set', delta_path: '__proto__.polluted', props: { __proto__: { polluted: 1 } } },
      { chunk_id: 'C3', message_id: 'M1', type: 'card', delta: true, delta_action: 'set', delta_path: 'constructor.prototype.polluted', props: {} },
      { chunk_id: 'C4', message_id: 'M1', type: 'card', delta: true, delta_action: 'merge', props: { prototype: { polluted: 1 } } },
    ]).replace('"props":{}', '"props":{"__proto__":{"polluted":"yes"}}'))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(messagesOf(s)[0]!.props).toEqual(base.props)
    expect(problemsOf(s).length).toBeGreaterThanOrEqual(3)
  })
})

describe('Yao: ids, duplicates and order', () => {
  it('a repeated chunk applies once', () => {
    const c1 = { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hi' }, delta: true }
    const s = foldStream([c1, c1, { ...c1, chunk_id: 'C2', props: { content: '!' } }, c1])
    expect(contents(s)).toEqual(['Hi!'])
  })

  it("ids are scoped per stream: a second request's M1 is a new message", () => {
    const events = [{ chunk_id: 'C1', message_id: 'M1', block_id: 'B1', type: 'text', props: { content: 'first' }, delta: true }]
    const first = foldStream(events, { turnId: 'a' })
    const both = foldStream([{ ...events[0], props: { content: 'second' } }], { turnId: 'b', state: first })
    expect(contents(both, 'a')).toEqual(['first'])
    expect(contents(both, 'b')).toEqual(['second'])
    expect(Object.keys(both.blocks)).toEqual(['a/B1', 'b/B1'])
  })

  it('chunks that arrive before their block or thread is announced still show', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', block_id: 'B1', thread_id: 'T1', type: 'text', props: { content: 'early' }, delta: true },
      { chunk_id: 'C2', type: 'event', props: { event: 'block_start', data: { block_id: 'B1', type: 'mcp', label: 'Late label' } } },
      { chunk_id: 'C3', type: 'event', props: { event: 'thread_start', data: { thread_id: 'T1', block_id: 'B1', label: 'Lane' } } },
    ])
    expect(contents(s)).toEqual(['early'])
    expect(s.blocks['turn-1/B1']).toMatchObject({ kind: 'mcp', label: 'Late label', messageIds: ['turn-1/M1'] })
    expect(s.threads['turn-1/T1']).toMatchObject({ label: 'Lane', messageIds: ['turn-1/M1'] })
  })

  it('a delta for a message never announced creates it', () => {
    const s = foldStream([{ chunk_id: 'C9', message_id: 'ghost', type: 'text', delta: true, props: { content: 'boo' } }])
    expect(contents(s)).toEqual(['boo'])
  })

  it('tolerates gaps in chunk ids (a slow client loses chunks on the server)', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'a' }, delta: true },
      { chunk_id: 'C7', message_id: 'M1', type: 'text', props: { content: 'b' }, delta: true },
    ])
    expect(contents(s)).toEqual(['ab'])
  })
})

describe('Yao: lifecycle and errors', () => {
  it('stream_end with status error sets a typed error on the turn', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'partial' }, delta: true },
      { chunk_id: 'C2', type: 'event', props: { event: 'stream_end', data: { status: 'error', error: { message: 'model overloaded', code: 'overloaded' } } } },
    ])
    const turn = s.turns['turn-1']!
    expect(turn.status).toBe('error')
    expect(turn.error).toMatchObject({ type: 'internal', message: 'model overloaded', code: 'overloaded', retryable: false })
    expect(contents(s)).toEqual(['partial'])
  })

  it('stream_end cancelled marks the turn aborted', () => {
    const s = foldStream([{ chunk_id: 'C1', type: 'event', props: { event: 'stream_end', data: { status: 'cancelled' } } }])
    expect(s.turns['turn-1']!.status).toBe('aborted')
  })

  it('message_end final content wins over deltas that were lost', () => {
    const s = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true },
      { chunk_id: 'C5', type: 'event', props: { event: 'message_end', data: { message_id: 'M1', status: 'completed', extra: { content: 'Hello there' } } } },
    ])
    expect(messagesOf(s)[0]).toMatchObject({ status: 'done', props: { content: 'Hello there' } })
  })

  it('keeps unknown message types as they came, for a fallback renderer', () => {
    const s = foldStream([{ chunk_id: 'C1', type: 'weather_card', props: { city: 'Paris', temp: 25 } }])
    expect(messagesOf(s)[0]).toMatchObject({ type: 'weather_card', props: { city: 'Paris', temp: 25 } })
  })

  it('a malformed JSON frame records a protocol error and the stream goes on', () => {
    const text = 'data: {"chunk_id":"C1","message_id":"M1","type":"text","props":{"content":"a"},"delta":true}\n\n'
      + 'data: {"chunk_id":"C2", "type": oops\n\n'
      + 'data: {"chunk_id":"C3","message_id":"M1","type":"text","props":{"content":"b"},"delta":true}\n\n'
    const s = foldStream(text)
    expect(contents(s)).toEqual(['ab'])
    expect(problemsOf(s)).toEqual([expect.objectContaining({ type: 'protocol', detail: expect.stringContaining('oops') })])
  })

  it('a chunk that is not an object or has no type is reported, not thrown', () => {
    const s = foldStream([{ chunk_id: 'C1', type: 'text', props: { content: 'ok' } }, 42, { chunk_id: 'C2', props: {} }], { protocol: 'yao' })
    expect(contents(s)).toEqual(['ok'])
    expect(problemsOf(s)).toHaveLength(2)
  })
})
