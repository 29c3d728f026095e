import { readUIMessageStream, validateUIMessages, type UIMessage, type UIMessageChunk } from 'ai'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { uiMessageChunks } from '../../../mock/scenarios/ui-message'
import { vocionScenarios } from '../../../mock/scenarios/vocion'
import { fold } from '../../../src/core/fold/fold'
import { foldStream } from '../../../src/umbrella/defaults'
import { historyOps } from '../../../src/core/history/merge'
import { HistoryPager } from '../../../src/core/history/pager'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { uiMessages } from '../../helpers/ui-message-arbitraries'
import { traceRecord } from '../../../src/core/model/trace-table'

/** What the AI SDK request builder sends for the active path. */
const toUIMessages = (state: AgentState) => builderMessages(state, state.turnIds)
import { createAgentStore } from '../../../src/core/store/store'
import { historyReaderOf } from '../../../src/core/protocol/history'
import { findProtocol } from '../../../src/core/protocol/resolve'
import { builtInProtocols } from '../../../src/protocols/index'
import { readHistory } from '../../../src/umbrella/defaults'
import { toyProtocol } from '../../helpers/toy-protocol'
import { isSafeKey } from '../../../src/core/util/record'
import { uiMessageHistory, type UIMessageLike } from '../../../src/protocols/ui-message/history'
import { toUIMessages as builderMessages } from '../../../src/protocols/ui-message/ui-messages'
import { vocionHistory } from '../../../src/protocols/vocion/history'
import { yaoHistory } from '../../../src/protocols/yao/history'
import { messageIn, messageList, messageRecord } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'

const load = (batch: ReturnType<typeof uiMessageHistory>, state: AgentState = emptyState()) => fold(state, historyOps(batch, state))

/** The AI SDK's own fold of a recorded stream: a real UIMessage. */
async function sdkMessage(chunks: readonly unknown[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk)
      controller.close()
    },
  })
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot
  if (!message) throw new Error('the AI SDK produced no message')
  return message
}

const textOf = (state: AgentState, turnId: string) =>
  (state.turns[turnId]?.messageIds ?? []).map((id) => messageIn(state.messages, id)).filter((m) => m?.type === 'text').map((m) => String(m?.props.content)).join('')

describe('AI SDK history: UIMessage[]', () => {
  it('messages the AI SDK itself built load whole: every part, in order, with its fields, steps and sources', async () => {
    const messages: UIMessage[] = [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: 'Weather and a report, please' }] }]
    for (const chunks of Object.values(uiMessageChunks)) messages.push(await sdkMessage(chunks))
    // Ids must differ per message; the recorded streams reuse theirs.
    const distinct = JSON.parse(JSON.stringify(messages.map((m, i) => ({ ...m, id: `${m.id}-${i}` })))) as UIMessageLike[]
    const state = load(uiMessageHistory(distinct))
    expect(state.turnIds).toEqual(distinct.map((m) => m.id))
    for (const message of distinct) {
      const turn = state.turns[message.id]
      const kept = (turn?.messageIds ?? []).map((id) => messageIn(state.messages, id))
      const parts = message.parts.filter((p) => p.type !== 'step-start' && !p.type.startsWith('source-'))
      expect(kept).toHaveLength(parts.length)
      for (const [i, part] of parts.entries()) {
        const m = kept[i]
        const { type, text, state: partState, toolName, ...fields } = part
        if (type === 'text' || type === 'reasoning') expect(m).toMatchObject({ type, props: { content: text, ...fields }, status: partState === 'streaming' ? 'streaming' : 'done' })
        else if (type === 'dynamic-tool') expect(m).toMatchObject({ type: 'tool', props: { name: toolName, dynamic: true, state: partState, ...fields } })
        else if (type.startsWith('tool-')) expect(m).toMatchObject({ type: 'tool', props: { name: type.slice(5), state: partState, ...fields } })
        else expect(m).toMatchObject({ type, props: part.state === undefined ? fields : { state: partState, ...fields } })
      }
      expect(turn?.sources.map((s) => s.id)).toEqual(message.parts.filter((p) => p.type.startsWith('source-')).map((p) => p.sourceId))
      const steps = message.parts.filter((p) => p.type === 'step-start').length
      expect(turn?.blockIds.map((b) => state.blocks[b]?.kind)).toEqual(Array(steps).fill('step'))
    }
    expect(messageList(state.messages).filter((m) => m.type === 'tool').length).toBeGreaterThan(0)
  })

  it('any UIMessage[] the AI SDK accepts round-trips through history, the store and the request builder unchanged', async () => {
    await fc.assert(fc.asyncProperty(uiMessages, async (messages) => {
      // Valid for the SDK itself (it throws otherwise), in the form its schema keeps.
      const valid = JSON.parse(JSON.stringify(await validateUIMessages({ messages }))) as UIMessageLike[]
      expect(valid).toHaveLength(messages.length)
      expect(toUIMessages(load(uiMessageHistory(valid)))).toEqual(valid)
    }), { numRuns: 300 })
  })

  it('sources and special data parts stay where they stood; every tool state keeps its fields', () => {
    const messages: UIMessageLike[] = [{
      id: 'a1', role: 'assistant', metadata: [1, 'two'],
      parts: [
        { type: 'source-url', sourceId: 's0', url: 'https://a.example/0' },
        { type: 'step-start' },
        { type: 'data-thinking-step', id: 't1', data: { id: 't1', title: 'Reading', status: 'completed', items: [] } },
        { type: 'text', text: 'See [1].' },
        { type: 'source-url', sourceId: 's1', url: 'https://a.example/1', title: 'One', providerMetadata: { p: { rank: 1 } } },
        { type: 'tool-search', toolCallId: 'c1', state: 'approval-responded', input: { q: 'x' }, approval: { id: 'ap1', approved: false, reason: 'no', signature: 'sig' } },
        { type: 'dynamic-tool', dynamic: false, toolName: 'lookup', toolCallId: 'c2', state: 'output-available', input: {}, output: 1, preliminary: false },
        { type: 'step-start' },
        { type: 'step-start' },
        { type: 'source-document', sourceId: 's2', mediaType: 'application/pdf', title: 'Report', filename: 'r.pdf' },
        { type: 'data-further-questions', data: ['And then?'] },
        { type: 'data-terminal-info', data: { text: 'Done', type: 'success' } },
      ],
    }]
    const state = load(uiMessageHistory(messages))
    expect(state.turns.a1!.sources.map((s) => s.id)).toEqual(['s0', 's1', 's2'])
    expect(toUIMessages(state)).toEqual(messages)
  })

  it('bad messages are problems; the rest load', () => {
    const state = load(uiMessageHistory([
      { id: 'ok', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { id: '__proto__', role: 'user', parts: [] },
      { role: 'assistant', parts: [] },
      { id: 'x', role: 'robot', parts: [] },
      'garbage',
    ]))
    expect(state.turnIds).toEqual(['ok'])
    expect(state.turns.ok?.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('message 1'), expect.stringContaining('message 2'), expect.stringContaining('message 3'), expect.stringContaining('message 4'),
    ])
    expect(Object.getPrototypeOf(state.turns)).toBe(Object.prototype)
  })
})

describe('history pages that overlap', () => {
  const conversation = Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, role: i % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text: `message ${i}` }] }))

  it('an older page that overlaps what is loaded adds only what is new, oldest first', () => {
    let state = load(uiMessageHistory(conversation.slice(50)))
    state = load(uiMessageHistory(conversation.slice(30, 60)), state)
    state = load(uiMessageHistory(conversation.slice(30, 60)), state)
    expect(state.turnIds).toEqual(conversation.slice(30).map((m) => m.id))
    expect(Object.keys(messageRecord(state.messages))).toHaveLength(70)
  })

  it('de-duplicates for any split into overlapping pages, newest page first', () => {
    // Each older page reaches back some way and overlaps what is loaded by up to ten messages.
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.nat(10)), { minLength: 1, maxLength: 8 }), (pages) => {
      let state = load(uiMessageHistory(conversation.slice(60)))
      let oldest = 60
      for (const [back, overlap] of pages) {
        const start = Math.max(0, oldest - back)
        state = load(uiMessageHistory(conversation.slice(start, Math.min(100, oldest + overlap))), state)
        oldest = start
      }
      expect(state.turnIds).toEqual(conversation.slice(oldest).map((m) => m.id))
      const ids = state.turnIds
      expect(new Set(ids).size).toBe(ids.length)
      const order = ids.map((id) => Number(id.slice(1)))
      expect([...order].sort((a, b) => a - b)).toEqual(order)
    }))
  })

  it('the pager loads the newest page, then older ones, keeping what the store has', async () => {
    const store = createAgentStore()
    const pageSize = 40
    const seen: Array<number | undefined> = []
    const pager = new HistoryPager<number>(store, async (before) => {
      seen.push(before)
      const end = before ?? conversation.length
      // Pages overlap by five messages, as a server paging by time might.
      const start = Math.max(0, end - pageSize)
      return { batch: uiMessageHistory(conversation.slice(start, Math.min(conversation.length, end + 5))), next: start, hasMore: start > 0 }
    })
    await pager.loadFirst()
    await pager.loadFirst()
    expect(store.getState().turnIds).toHaveLength(40)
    while (pager.status.hasMore) await pager.loadOlder()
    expect(seen).toEqual([undefined, 60, 20])
    expect(store.getState().turnIds).toEqual(conversation.map((m) => m.id))
    expect(pager.status).toMatchObject({ pages: 3, hasMore: false, loading: false })
  })

  it('a failed page is kept as an error and loading again retries it', async () => {
    const store = createAgentStore()
    let fail = true
    const pager = new HistoryPager<number>(store, async () => {
      if (fail) throw new Error('offline')
      return { batch: uiMessageHistory(conversation.slice(0, 2)), hasMore: false }
    })
    await pager.loadOlder()
    expect(pager.status.error?.message).toContain('offline')
    fail = false
    await pager.loadOlder()
    expect(pager.status.error).toBeUndefined()
    expect(store.getState().turnIds).toEqual(['m0', 'm1'])
  })
})

describe('Vocion history: a transcript of events per turn', () => {
  it('a loaded turn has what the live stream folded: messages, timeline rows, sources', () => {
    const answer = vocionScenarios.find((s) => s.name === 'answer')
    const events = (answer?.frames ?? []).filter((f) => f.data !== undefined).map((f) => (typeof f.data === 'string' ? JSON.parse(f.data) : f.data) as unknown)
    const live = foldStream(events, { protocol: 'vocion', turnId: 'a1' })
    const state = load(vocionHistory([
      { id: 'q1', role: 'user', content: 'Where is the Contoso renewal?' },
      { id: 'a1', role: 'assistant', events },
    ]))
    expect(state.turnIds).toEqual(['q1', 'a1'])
    const turn = state.turns.a1
    expect(turn?.status).toBe('done')
    expect(textOf(state, 'a1')).toBe(textOf(live, 'a1'))
    expect(textOf(state, 'a1')).toContain('Contoso renews')
    expect(Object.keys(traceRecord(state.trace)).sort()).toEqual(Object.keys(traceRecord(live.trace)).sort())
    expect(turn?.sources).toEqual(live.turns.a1?.sources)
    expect(messageList(state.messages).every((m) => m.status !== 'streaming')).toBe(true)
    // Loading the same transcript again adds nothing: events never apply twice.
    const again = load(vocionHistory([{ id: 'a1', role: 'assistant', events }]), state)
    expect(textOf(again, 'a1')).toBe(textOf(state, 'a1'))
  })

  it('a turn that cannot be read is a problem; a recording cut short still ends its turn, as cut off', () => {
    const state = load(vocionHistory([
      { id: 'a1', role: 'assistant', events: [{ type: 'response_delta', delta: 'Half an ans' }] },
      { id: 'q2', role: 'user' },
      { role: 'user', content: 'no id' },
    ]))
    expect(state.turnIds).toEqual(['a1'])
    expect(state.turns.a1?.status).toBe('aborted')
    expect(state.turns.a1?.problems.map((p) => p.code)).toContain(STREAM_TRUNCATED)
    expect(state.turns.a1?.problems).toHaveLength(3)
  })
})

describe('Yao history: stored chat messages', () => {
  const stored = [
    { message_id: 'U1', role: 'user', type: 'user_input', props: { content: 'Weather in Paris?' }, sequence: 1 },
    { message_id: 'M1', role: 'assistant', request_id: 'R1', type: 'thinking', props: { content: 'Look it up.' }, sequence: 2 },
    { message_id: 'M2', role: 'assistant', request_id: 'R1', type: 'tool_call', props: { id: 'call-1', name: 'weather', arguments: '{"city":"Paris"}' }, block_id: 'B1', sequence: 3 },
    { message_id: 'M3', role: 'assistant', request_id: 'R1', type: 'text', props: { content: 'Sunny, 21°C.' }, sequence: 4 },
    { message_id: 'U2', role: 'user', type: 'user_input', props: { content: 'And tomorrow?' }, sequence: 5 },
    { message_id: 'M1', role: 'assistant', request_id: 'R2', type: 'text', props: { content: 'Rain.' }, sequence: 6 },
    { message_id: 'M9', role: 'assistant', request_id: 'R2', type: 'weather_card', props: { city: 'Paris', temp: 14 }, sequence: 7 },
  ]

  it('user messages and requests become turns; types map as they do live', () => {
    const state = load(yaoHistory([...stored].reverse()))
    expect(state.turnIds).toEqual(['yao-user:U1', 'yao:R1', 'yao-user:U2', 'yao:R2'])
    const types = (turnId: string) => state.turns[turnId]?.messageIds.map((id) => messageIn(state.messages, id)?.type)
    expect(types('yao:R1')).toEqual(['reasoning', 'tool', 'text'])
    expect(types('yao:R2')).toEqual(['text', 'weather_card'])
    expect(textOf(state, 'yao:R1')).toBe('Sunny, 21°C.')
    expect(textOf(state, 'yao:R2')).toBe('Rain.')
    expect(textOf(state, 'yao-user:U2')).toBe('And tomorrow?')
    const tool = messageRecord(state.messages)[state.turns['yao:R1']?.messageIds[1] as string]
    expect(tool?.props).toMatchObject({ name: 'weather', toolCallId: 'call-1' })
  })

  it('an overlapping page adds nothing twice; unreadable messages are problems', () => {
    let state = load(yaoHistory(stored.slice(4)))
    state = load(yaoHistory(stored), state)
    expect(state.turnIds).toEqual(['yao-user:U1', 'yao:R1', 'yao-user:U2', 'yao:R2'])
    expect(textOf(state, 'yao:R2')).toBe('Rain.')
    const bad = load(yaoHistory([{ message_id: '__proto__', type: 'text', props: {} }, { type: 'text' }, stored[0]]))
    expect(bad.turnIds).toEqual(['yao-user:U1'])
    expect(bad.turns['yao-user:U1']?.problems).toHaveLength(2)
  })
})

describe('history through the plug-in slot', () => {
  const samples: Record<string, { data: unknown; text: string }> = {
    'ui-message': { data: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'From the SDK' }] }], text: 'From the SDK' },
    yao: { data: [{ role: 'user', message_id: 'U1', type: 'user_input', props: { content: 'Hi' } }, { role: 'assistant', message_id: 'M1', request_id: 'R1', type: 'text', props: { content: 'From Yao' } }], text: 'From Yao' },
    vocion: { data: [{ id: 'q', role: 'user', content: 'Hi' }, { id: 'a', role: 'assistant', events: [{ type: 'response_delta', delta: 'From Vocion' }, { type: 'done', response: 'From Vocion' }] }], text: 'From Vocion' },
    'ag-ui': { data: { hasMore: false, messages: [{ id: 'q', role: 'user', content: 'Hi' }, { id: 'a', role: 'assistant', content: 'From AG-UI' }] }, text: 'From AG-UI' },
  }

  for (const [name, { data, text }] of Object.entries(samples)) {
    it(`${name}: its definition reads what its back end stores, and reading it again adds nothing`, () => {
      expect(findProtocol(name, builtInProtocols)?.history).toBeTypeOf('function')
      const once = fold(emptyState(), readHistory(name, data, emptyState()))
      expect(once.turnIds).toHaveLength(2)
      expect(messageList(once.messages).some((m) => m.props.content === text)).toBe(true)
      expect(fold(once, readHistory(name, data, once))).toEqual(once)
    })
  }

  it('a protocol without a reader, or an unknown one, is a validation error', () => {
    const silent = { name: 'silent', sniff: () => 0, create: toyProtocol.create }
    expect(() => readHistory(silent, [], emptyState())).toThrow(/has no history reader/)
    expect(() => readHistory('nobody', [], emptyState())).toThrow(/no protocol named "nobody"/)
  })

  it('a pager with a reader reads each page\'s data; without one the page is an error, not a crash', async () => {
    const store = createAgentStore()
    const pager = new HistoryPager<number>(store, async () => ({ data: ['Toy page'], hasMore: false }), historyReaderOf(toyProtocol))
    await pager.loadFirst()
    expect(messageIn(store.getState().messages, 'h0/text')?.props.content).toBe('Toy page')
    const bare = new HistoryPager<number>(createAgentStore(), async () => ({ data: ['x'], hasMore: false }))
    await bare.loadFirst()
    expect(bare.status.error?.type).toBe('validation')
  })
})
