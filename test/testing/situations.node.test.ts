/**
 * `situations` maps each situation to the fixture that shows it: each fixture,
 * played through a real client, really shows its situation (a reasoning message,
 * a gate, a source, more than one thread, an error turn, a lost connection, ...).
 */
import { describe, expect, it } from 'vitest'
import type { AgentState, Message } from 'weft/core'
import { getFixture, situations, streamResponse, type AgentFixture, type BuiltInProtocol, type Situation } from 'weft/testing'
import { runClient } from './support'
import { messageIn, messageList } from '../../src/core/model/message-table'
import { traceRecord } from '../../src/core/model/trace-table'

/** The fixture played to its end through a client, in random byte splits, as a host's test sees it. */
async function play(fixture: AgentFixture): Promise<AgentState> {
  return runClient({ url: 'http://agent.test/run', protocol: fixture.protocol, fetch: async (_input, init) => streamResponse(fixture, { chunking: 'random', seed: 13, signal: init?.signal }) })
}

const assistantTurn = (state: AgentState) => state.turns[state.turnIds.find((id) => state.turns[id]!.role === 'assistant')!]!
const messagesOf = (state: AgentState): Message[] => assistantTurn(state).messageIds.map((id) => messageIn(state.messages, id)!).filter(Boolean)
const allMessages = (state: AgentState): Message[] => messageList(state.messages).filter((m) => m.role === 'assistant')
const texts = (state: AgentState) => allMessages(state).filter((m) => m.type === 'text').map((m) => String(m.props.content ?? ''))
const traceNodes = (state: AgentState) => Object.values(traceRecord(state.trace))

/** What each situation means, checked on the folded state. */
const shows: Record<Situation, (state: AgentState, fixture: AgentFixture) => void> = {
  plain(state) {
    expect(state.status).toBe('done')
    expect(assistantTurn(state).error).toBeUndefined()
    const types = messagesOf(state).map((m) => m.type)
    expect(types).toEqual(['text'])
    expect(texts(state)[0]!.length).toBeGreaterThan(0)
    expect(Object.keys(state.gates)).toEqual([])
    expect(assistantTurn(state).sources).toEqual([])
  },
  reasoning(state) {
    expect(state.status).toBe('done')
    const reasoning = allMessages(state).filter((m) => m.type === 'reasoning')
    expect(reasoning.length).toBeGreaterThan(0)
    expect(String(reasoning[0]!.props.content).length).toBeGreaterThan(10)
    // Reasoning, then an answer.
    expect(texts(state).join('').length).toBeGreaterThan(0)
  },
  'tools-with-approval'(state, fixture) {
    const gates = Object.values(state.gates)
    expect(gates).toHaveLength(1)
    const gate = gates[0]!
    expect(['tool-approval', 'interrupt', 'hitl']).toContain(gate.kind)
    expect(gate.question?.length ?? 0).toBeGreaterThan(0)
    if (fixture.protocol === 'ui-message') {
      // The AI SDK recording carries its own `tool-approval-response`: the gate is asked and answered in the stream.
      expect(gate).toMatchObject({ kind: 'tool-approval', status: 'approved', toolCallId: 'call_mail' })
      expect(allMessages(state).some((m) => m.type === 'tool' && m.id.endsWith('call_mail'))).toBe(true)
    } else {
      // The stream stops at an open gate: the person's answer is what the UI must ask for.
      expect(gate.status).toBe('pending')
      expect(state.status).toBe('done')
    }
  },
  sources(state) {
    const sources = assistantTurn(state).sources
    expect(sources.length).toBeGreaterThanOrEqual(2)
    for (const source of sources) expect(source.url ?? source.title).toBeTruthy()
  },
  'error-mid-stream'(state) {
    const turn = assistantTurn(state)
    expect(turn.status).toBe('error')
    expect(turn.error?.message.length ?? 0).toBeGreaterThan(0)
    expect(turn.error?.type).not.toBe('network')
    // Mid-stream: part of the answer arrived before the error, and it stays shown.
    expect(texts(state).join('').length).toBeGreaterThan(0)
  },
  'dropped-connection'(state, fixture) {
    expect(fixture.end).toBe('drop')
    const turn = assistantTurn(state)
    expect(turn.status).toBe('error')
    expect(turn.error?.type).toBe('network')
    expect(texts(state).join('').length).toBeGreaterThan(0)
  },
  concurrent(state, fixture) {
    const threads = Object.values(state.threads)
    const nodes = traceNodes(state)
    switch (fixture.protocol) {
      case 'yao':
      case 'ag-ui':
        // Threads (sub-agents) that each hold messages of their own.
        expect(threads.length).toBeGreaterThan(1)
        for (const thread of threads) expect(thread.messageIds.length).toBeGreaterThan(0)
        break
      case 'langgraph':
        // Parallel subgraphs: each a lane (a thread with its messages) under a delegate row of its own.
        expect(threads.length).toBeGreaterThan(1)
        for (const thread of threads) expect(thread.messageIds.length).toBeGreaterThan(0)
        expect(nodes.filter((n) => n.kind === 'delegate').length).toBeGreaterThan(1)
        break
      case 'ui-message': {
        // Parallel tool calls: two tools in one step, their inputs streamed interleaved.
        const byStep = new Map<string, number>()
        for (const node of nodes) if (node.kind === 'tool' && node.parentId) byStep.set(node.parentId, (byStep.get(node.parentId) ?? 0) + 1)
        expect(Math.max(...byStep.values())).toBeGreaterThan(1)
        const types = fixture.frames.map((f) => (f.data as { type?: string; toolCallId?: string } | undefined))
        const firstAvailable = types.findIndex((d) => d?.type === 'tool-input-available')
        const started = new Set(types.slice(0, firstAvailable).filter((d) => d?.type === 'tool-input-start').map((d) => d!.toolCallId))
        expect(started.size).toBeGreaterThan(1)
        break
      }
      case 'vocion': {
        // A delegation: the lead hands work to a specialist, whose steps nest under it.
        const delegate = nodes.find((n) => n.kind === 'delegate')
        expect(delegate).toBeDefined()
        const actors = new Set(nodes.map((n) => n.actor?.id).filter(Boolean))
        expect(actors.size).toBeGreaterThan(1)
        expect(nodes.some((n) => n.parentId === delegate!.id && n.actor?.kind === 'specialist')).toBe(true)
        break
      }
      default:
        throw new Error(`no concurrency check for ${fixture.protocol}`)
    }
  },
  'long-answer'(state, fixture) {
    expect(state.status).toBe('done')
    const answer = texts(state).join('')
    expect(new TextEncoder().encode(answer).length).toBeGreaterThan(3000)
    // In word-sized deltas: many frames, each a small piece.
    expect(fixture.frames.length).toBeGreaterThan(300)
  },
}

const cases = (Object.entries(situations) as Array<[Situation, Partial<Record<BuiltInProtocol, string>>]>).flatMap(([situation, byProtocol]) =>
  (Object.entries(byProtocol) as Array<[BuiltInProtocol, string]>).map(([protocol, name]) => [situation, protocol, name] as const))

describe('situations', () => {
  it('name every situation, each shown in at least two protocols, the plain answer in all five', () => {
    expect(Object.keys(situations).sort()).toEqual(Object.keys(shows).sort())
    for (const byProtocol of Object.values(situations)) expect(Object.keys(byProtocol).length).toBeGreaterThanOrEqual(2)
    expect(Object.keys(situations.plain).sort()).toEqual(['ag-ui', 'langgraph', 'ui-message', 'vocion', 'yao'])
  })

  it.each(cases)('%s: %s/%s shows it', async (situation, protocol, name) => {
    const fixture = getFixture(protocol, name)
    shows[situation](await play(fixture), fixture)
  })

  it('the checks tell situations apart: a plain answer shows none of the others', async () => {
    const plain = getFixture('vocion', situations.plain.vocion!)
    const state = await play(plain)
    for (const situation of ['reasoning', 'tools-with-approval', 'sources', 'error-mid-stream', 'dropped-connection', 'concurrent', 'long-answer'] as const) {
      expect(() => shows[situation](state, plain), situation).toThrow()
    }
  })
})
