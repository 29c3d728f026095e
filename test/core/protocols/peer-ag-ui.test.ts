/**
 * weft's AG-UI fold next to the reference client's (`@ag-ui/client`): the same
 * recorded streams, run through `AbstractAgent.runAgent` (which verifies and
 * applies them) and through `foldStream`, must give the same messages and
 * state. Each difference is deliberate, asserted here and listed in docs/ag-ui.md.
 */
import { AbstractAgent, type BaseEvent, type Message as PeerMessage, type RunAgentInput } from '@ag-ui/client'
import { from } from 'rxjs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { findScenario } from '../../../mock/scenarios/index'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState } from '../../../src/core/model/model'
import { messageIn, messageList } from '../../../src/core/model/message-table'

type Ev = Record<string, unknown>

/** An agent whose run replays recorded events. */
class RecordedAgent extends AbstractAgent {
  constructor(private readonly events: readonly Ev[]) {
    super({ threadId: 'th1' })
  }

  // The client pins its own rxjs copy: the Observable is the same at run time, not to the type checker.
  run(_input: RunAgentInput): ReturnType<AbstractAgent['run']> {
    return from(this.events as unknown as BaseEvent[]) as unknown as ReturnType<AbstractAgent['run']>
  }
}

interface View {
  texts: Array<{ id: string; role: string; content: string }>
  reasoning: Array<{ id: string; content: string }>
  tools: Array<{ id: string; name: string; args: unknown; result?: unknown; parentMessageId?: string }>
  state: unknown
}

async function peer(events: readonly Ev[]): Promise<{ view: View; messages: PeerMessage[] }> {
  const agent = new RecordedAgent(events)
  await agent.runAgent()
  return { view: peerView(agent.messages, agent.state), messages: agent.messages }
}

function peerView(messages: PeerMessage[], state: unknown): View {
  const view: View = { texts: [], reasoning: [], tools: [], state }
  const results = new Map<string, unknown>()
  for (const m of messages) {
    if (m.role === 'tool') results.set(m.toolCallId, m.content)
    else if (m.role === 'reasoning') view.reasoning.push({ id: m.id, content: m.content })
    else if (m.role === 'activity') continue
    else {
      if (typeof m.content === 'string' && m.content !== '') view.texts.push({ id: m.id, role: m.role === 'developer' ? 'system' : m.role, content: m.content })
      for (const call of m.role === 'assistant' ? m.toolCalls ?? [] : []) {
        view.tools.push({
          id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments || '{}'),
          // A call without a parent message gets a holder message with the call's own id.
          ...(m.id !== call.id ? { parentMessageId: m.id } : {}),
        })
      }
    }
  }
  for (const tool of view.tools) if (results.has(tool.id)) tool.result = results.get(tool.id)
  view.tools.sort((a, b) => a.id.localeCompare(b.id))
  return view
}

function weftView(s: AgentState): View {
  const view: View = { texts: [], reasoning: [], tools: [], state: s.agentState }
  for (const turnId of s.turnIds) {
    for (const id of s.turns[turnId]!.messageIds) {
      const m = messageIn(s.messages, id)!
      const p = m.props
      if (m.type === 'text' && typeof p.content === 'string' && p.content !== '') view.texts.push({ id, role: m.role, content: p.content })
      else if (m.type === 'reasoning') view.reasoning.push({ id, content: p.content as string })
      else if (m.type === 'tool') {
        view.tools.push({
          id: p.toolCallId as string, name: p.name as string, args: p.input,
          ...(p.resultContent !== undefined ? { result: p.resultContent } : {}),
          ...(typeof p.parentMessageId === 'string' ? { parentMessageId: p.parentMessageId } : {}),
        })
      }
    }
  }
  view.tools.sort((a, b) => a.id.localeCompare(b.id))
  return view
}

const weft = (events: readonly Ev[]) => foldStream(events, { protocol: 'ag-ui' })
const scenarioEvents = (name: string) => findScenario('ag-ui', name)!.frames.map((f) => f.data as Ev)

// The reference client warns on the console about every field it strips; the assertions say what matters.
beforeAll(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterAll(() => vi.restoreAllMocks())

describe('weft and @ag-ui/client fold the same streams alike', () => {
  it('the document-style run: same tool calls, results and state; weft alone reads the text in TEXT_MESSAGE_END and keeps ui_schema', async () => {
    const events = scenarioEvents('run')
    const { view: theirs, messages } = await peer(events)
    const s = weft(events)
    const ours = weftView(s)
    expect(ours.tools).toEqual(theirs.tools)
    expect(ours.state).toEqual(theirs.state)
    expect(ours.reasoning).toEqual(theirs.reasoning)
    // Difference 1: the reference client drops END's text (it only appends CONTENT), so its bubbles stay empty.
    expect(theirs.texts).toEqual([])
    expect(ours.texts.map((t) => t.id)).toEqual(['msg_plan', 'msg_answer'])
    expect(messages.find((m) => m.id === 'msg_answer')).toMatchObject({ role: 'assistant', content: '' })
    // Difference 2: the reference client strips ui_schema, result and tool_call_args from TOOL_CALL_RESULT.
    expect(JSON.stringify(messages)).not.toContain('ui_schema')
    expect(messageIn(s.messages, 'call_todo')!.props.uiSchema).toMatchObject({ type: 'card' })
    // Difference 3: a result is its own `tool` message there; here it completes the call's message.
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.id)).toEqual(['msg_result_todo', 'msg_result_calendar'])
    expect(messageIn(s.messages, 'msg_result_todo')).toBeUndefined()
    expect(messageIn(s.messages, 'call_todo')!.props.resultMessageId).toBe('msg_result_todo')
  })

  it('token-streamed text and parallel tool calls: identical', async () => {
    const events: Ev[] = [
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Let me ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'check both.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'weather', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'calendar', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c3', toolCallName: 'clock' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{"day":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"city":"Par' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '"mon"}' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'is","units":["c"]}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c2' },
      { type: 'TOOL_CALL_END', toolCallId: 'c3' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 't2', toolCallId: 'c2', content: '[]' },
      { type: 'TOOL_CALL_RESULT', messageId: 't1', toolCallId: 'c1', content: '{"c":21}' },
      { type: 'REASONING_START', messageId: 'rs' },
      { type: 'REASONING_MESSAGE_START', messageId: 'rm', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm', delta: 'Both answered.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'rm' },
      { type: 'REASONING_END', messageId: 'rs' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'a2', delta: 'Sunny, ' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'and Monday is free.' },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
    ]
    const { view: theirs } = await peer(events)
    const ours = weftView(weft(events))
    expect(ours).toEqual(theirs)
    expect(ours.tools.map((t) => t.id)).toEqual(['c1', 'c2', 'c3'])
    expect(ours.texts.map((t) => t.content)).toEqual(['Let me check both.', 'Sunny, and Monday is free.'])
  })

  it('a state snapshot and deltas: identical, a failing patch included', async () => {
    const events: Ev[] = [
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'STATE_SNAPSHOT', snapshot: { todos: [{ id: 1, done: false }], filter: 'all' } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/todos/0/done', value: true }, { op: 'add', path: '/todos/-', value: { id: 2, done: false } }] },
      { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/filter' }, { op: 'replace', path: '/missing/x', value: 1 }] },
      { type: 'STATE_DELTA', delta: [{ op: 'move', from: '/todos/1', path: '/todos/0' }, { op: 'copy', from: '/todos/0', path: '/first' }] },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
    ]
    const { view: theirs } = await peer(events)
    const s = weft(events)
    expect(s.agentState).toEqual(theirs.state)
    expect(s.agentState).toEqual({ todos: [{ id: 2, done: false }, { id: 1, done: true }], filter: 'all', first: { id: 2, done: false } })
    // Difference 4: both keep the state when a patch fails; weft also records why.
    expect(s.turns['turn-1']!.problems.map((p) => p.code)).toEqual(['agentState.patch'])
  })

  it('a messages snapshot: same messages, no duplicates; weft keeps what the snapshot leaves out', async () => {
    const events: Ev[] = [
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm0', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm0', delta: 'Earlier note' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm0' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Draft' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
      {
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          { id: 'u1', role: 'user', content: 'Plan my day' },
          { id: 'a1', role: 'assistant', content: 'Final', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calendar', arguments: '{"day":"today"}' } }] },
          { id: 't1', role: 'tool', toolCallId: 'c1', content: '2 events' },
          { id: 'sys', role: 'system', content: 'Be brief.' },
          { id: 'r1m', role: 'reasoning', content: 'Look at today.' },
        ],
      },
      { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'You have 2 events.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a2' },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
    ]
    const { view: theirs } = await peer(events)
    const ours = weftView(weft(events))
    // Difference 5: the reference client replaces its list with the snapshot, losing m0; weft merges by id.
    expect(theirs.texts.map((t) => t.id)).not.toContain('m0')
    expect(ours.texts.find((t) => t.id === 'm0')).toEqual({ id: 'm0', role: 'assistant', content: 'Earlier note' })
    const sortById = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id))
    expect(sortById(ours.texts.filter((t) => t.id !== 'm0'))).toEqual(sortById(theirs.texts))
    expect(ours.tools).toEqual(theirs.tools)
    expect(ours.reasoning).toEqual(theirs.reasoning)
    const ids = [...ours.texts, ...ours.tools, ...ours.reasoning].map((x) => x.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('sub-agents, chunks and reasoning chunks: identical messages', async () => {
    const events = scenarioEvents('subagents')
    const { view: theirs } = await peer(events)
    const s = weft(events)
    expect(weftView(s)).toEqual(theirs)
    // Difference 6: CUSTOM reaches the reference client's subscribers only; weft keeps a data-<name> message.
    expect(messageList(s.messages).filter((m) => m.type === 'data-suggestions')).toHaveLength(1)
  })

  it('bad input: the reference client stops the run, weft repairs and goes on', async () => {
    const events: Ev[] = [
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'orphan' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'after' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
    ]
    await expect(peer(events)).rejects.toThrow(/TEXT_MESSAGE_CONTENT/)
    const s = weft(events)
    expect(weftView(s).texts.map((t) => t.content)).toEqual(['orphan', 'after'])
    expect(s.turns['turn-1']!.problems.map((p) => p.code)).toEqual(['repaired'])
  })
})
