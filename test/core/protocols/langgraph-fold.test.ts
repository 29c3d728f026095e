/**
 * LangGraph's run streams as recorded from the real server (test/fixtures/langgraph), folded:
 * messages, tool calls and results, reasoning, interrupts as gates, subgraph lanes and node rows
 * on the timeline, the state, the checkpoints a fork needs, errors; and every split of the bytes
 * folding to the same state on the live client.
 */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../../src/core/client/agent-client'
import type { AgentState, Message, TraceNode } from '../../../src/core/model/model'
import { messageIn } from '../../../src/core/model/message-table'
import { foldStream } from '../../../src/core/protocol/fold-stream'
import { syncScheduler } from '../../../src/core/store/batcher'
import { createAgentStore } from '../../../src/core/store/store'
import { langGraphProtocol } from '../../../src/protocols/langgraph/index'
import { comparable, cutAt, piecesFetch } from '../../helpers/live-fold'
import { splits } from '../../helpers/streams'
import { traceRecord } from '../../../src/core/model/trace-table'
import { allNodeIds } from '../../../src/core/store/trace-tree'

const protocols = [langGraphProtocol]
const fixture = (path: string) => readFileSync(new URL(`../../fixtures/langgraph/${path}`, import.meta.url), 'utf8')
const recording = (scenario: string) => JSON.parse(fixture(`${scenario}/recording.json`)) as { steps: Array<{ request: { body: Record<string, unknown> } }>; snapshots: Record<string, any> }

function fold(path: string, turnId = 'turn-1'): AgentState {
  return foldStream(fixture(path), { protocol: 'langgraph', protocols, turnId })
}

function messagesOf(state: AgentState, turnId = 'turn-1'): Message[] {
  return (state.turns[turnId]?.messageIds ?? []).map((id) => messageIn(state.messages, id) as Message)
}

function rows(state: AgentState): Array<Pick<TraceNode, 'kind' | 'label' | 'status'> & { parent?: string }> {
  // In timeline order, turn by turn (the table keeps no order of its own).
  const ids = state.turnIds.flatMap((id) => allNodeIds(state, state.turns[id]!))
  return ids.map((id) => traceRecord(state.trace)[id]!).map((node) => ({
    kind: node.kind, label: node.label, status: node.status, ...(node.parentId ? { parent: traceRecord(state.trace)[node.parentId]?.label } : {}),
  }))
}

describe('LangGraph run streams from the real server', () => {
  it('a tool-calling run: the sentence, the call with its arguments and result, the answer, one row per node', () => {
    const state = fold('agent/01-run.sse')
    const turn = state.turns['turn-1']!
    expect(turn).toMatchObject({ status: 'done', problems: [] })
    expect(turn.runId).toMatch(/^[0-9a-f-]{36}$/)
    const [sentence, call, answer] = messagesOf(state)
    expect(sentence).toMatchObject({ type: 'text', props: { content: 'Let me look up the weather.' }, status: 'done' })
    expect(call).toMatchObject({
      type: 'tool', status: 'done',
      props: { toolCallId: 'call_weather_1', name: 'get_weather', inputText: '{"city": "Paris"}', input: { city: 'Paris' }, state: 'output-available' },
    })
    expect(JSON.parse(call!.props.output as string)).toEqual({ city: 'Paris', sky: 'sunny', celsius: 21 })
    expect(answer).toMatchObject({ type: 'text', props: { content: 'It is sunny in Paris, 21 degrees.' } })
    expect(messagesOf(state)).toHaveLength(3)
    expect(rows(state)).toEqual([
      { kind: 'step', label: 'agent', status: 'done' },
      { kind: 'tool', label: 'get_weather', status: 'done', parent: 'agent' },
      { kind: 'step', label: 'tools', status: 'done' },
      { kind: 'step', label: 'agent', status: 'done' },
    ])
  })

  it('shows what the thread holds at the end, message for message (what useStream shows from values)', () => {
    const state = fold('agent/01-run.sse')
    const final = recording('agent').snapshots.finalState.values.messages as Array<Record<string, any>>
    const shown = messagesOf(state).map((m) => (m.type === 'tool' ? `call ${m.props.name} ${JSON.stringify(m.props.input)} -> ${m.props.output}` : m.props.content))
    const expected = final.filter((m) => m.type !== 'human').flatMap((m) =>
      m.type === 'ai'
        ? [m.content, ...m.tool_calls.map((c: any) => `call ${c.name} ${JSON.stringify(c.args)} -> ${final.find((t) => t.tool_call_id === c.id)?.content}`)].filter(Boolean)
        : [],
    )
    expect(shown).toEqual(expected)
  })

  it('an interrupt is a pending gate on the call it holds back, and the turn ends waiting', () => {
    const state = fold('approval/01-interrupt.sse')
    const gates = Object.values(state.gates)
    expect(gates).toEqual([{
      id: expect.any(String), turnId: 'turn-1', kind: 'interrupt', status: 'pending', question: 'Send this email?',
      payload: { question: 'Send this email?', tool: 'send_email', args: { to: 'ada@example.com', subject: 'Hello' } },
      toolCallId: 'call_email_1', extra: { interruptId: gates[0]!.id },
    }])
    expect(state.turns['turn-1']).toMatchObject({ status: 'done', finishReason: 'interrupt' })
    expect(messagesOf(state)[1]!.props).toMatchObject({ toolCallId: 'call_email_1', state: 'approval-requested', input: { to: 'ada@example.com', subject: 'Hello' } })
  })

  it('answering the gate sends Command({ resume }), and the resumed run lands the result on the call the first stream made', async () => {
    const bodies: unknown[] = []
    const answers = [fixture('approval/01-interrupt.sse'), fixture('approval/02-resume.sse')]
    const fetchFixtures: typeof fetch = async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)))
      return new Response(answers.shift(), { headers: { 'content-type': 'text/event-stream' } })
    }
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/runs/stream', protocol: 'langgraph', protocols, fetch: fetchFixtures, scheduler: syncScheduler, idleTimeoutMs: 0 })
    await client.send('Email Ada')
    const gate = Object.values(store.getState().gates)[0]!
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(bodies[1]).toEqual({ command: { resume: { approved: true } }, stream_mode: ['values', 'messages-tuple', 'updates', 'custom'], stream_subgraphs: true })
    const turnId = store.getState().turnIds.at(-1)!
    const messages = messagesOf(store.getState(), turnId)
    const tools = messages.filter((m) => m.type === 'tool')
    expect(tools).toHaveLength(1)
    expect(tools[0]!.props).toMatchObject({ toolCallId: 'call_email_1', input: { to: 'ada@example.com', subject: 'Hello' }, state: 'output-available', output: 'sent' })
    expect(messages.map((m) => m.props.content).filter(Boolean)).toEqual(['I will send the email.', 'Done: the email is sent.'])
    expect(store.getState().gates[gate.id]).toMatchObject({ status: 'approved' })
    expect(store.getState().turns[turnId]).toMatchObject({ status: 'done' })
  })

  it('subgraphs run in parallel lanes: a thread and a delegate row each, their nodes inside, the state as agent state', () => {
    const state = fold('research/01-run.sse')
    const threads = Object.values(state.threads)
    expect(threads.map((t) => [t.label, t.status])).toEqual([['research', 'done'], ['research', 'done']])
    const laneTexts = messagesOf(state).filter((m) => m.threadId).map((m) => [threads.findIndex((t) => t.id === m.threadId), m.props.content])
    expect(laneTexts).toEqual([[0, 'Notes on alpha: it checks out.'], [1, 'Notes on beta: it checks out.']])
    expect(messagesOf(state).filter((m) => !m.threadId).map((m) => m.props.content)).toEqual(['Summary: Notes on alpha: it checks out. Notes on beta: it checks out.'])
    expect(rows(state)).toEqual([
      { kind: 'step', label: 'plan', status: 'done' },
      { kind: 'delegate', label: 'research', status: 'done' },
      { kind: 'step', label: 'search', status: 'done', parent: 'research' },
      { kind: 'step', label: 'write', status: 'done', parent: 'research' },
      { kind: 'delegate', label: 'research', status: 'done' },
      { kind: 'step', label: 'search', status: 'done', parent: 'research' },
      { kind: 'step', label: 'write', status: 'done', parent: 'research' },
      { kind: 'step', label: 'summarize', status: 'done' },
    ])
    expect(state.agentState).toEqual({ topics: ['alpha', 'beta'], notes: ['Notes on alpha: it checks out.', 'Notes on beta: it checks out.'] })
  })

  it('records where the question was asked and where the answer ended, from the checkpoint frames', () => {
    const text = fixture('research/01-run.sse')
    const root = text.split('\n\n').filter((f) => f.startsWith('event: checkpoints\n')).map((f) => JSON.parse(/data: (.*)/.exec(f)![1]!))
    const state = fold('research/01-run.sse')
    expect(state.turns['turn-1']!.metadata).toMatchObject({
      forkCheckpointId: root[0].id, inputCheckpointId: root[0].parent_id, checkpointId: root.at(-1).id,
    })
  })

  it('without stream_subgraphs, each subgraph task is one row of its node', () => {
    const state = fold('research-flat/01-run.sse')
    expect(rows(state).map((r) => r.label)).toEqual(['plan', 'research', 'research', 'summarize'])
    expect(Object.keys(state.threads)).toEqual([])
  })

  it('reasoning blocks are a reasoning part before the text', () => {
    const state = fold('reasoning/01-run.sse')
    expect(messagesOf(state).map((m) => [m.type, m.props.content])).toEqual([
      ['reasoning', 'The user greets me, so I greet them back.'],
      ['text', 'Hello there!'],
    ])
  })

  it('an error frame ends the turn in a typed error and keeps the text', () => {
    const state = fold('error/01-run.sse')
    const turn = state.turns['turn-1']!
    expect(turn.status).toBe('error')
    expect(turn.error).toMatchObject({ type: 'internal', message: expect.any(String), code: expect.any(String) })
    expect(messagesOf(state)[0]!.props.content).toBe('w1 w2 w3')
  })

  it('the older messages mode folds the same messages; tasks, checkpoints, debug and events modes fold without a problem', () => {
    const texts = (state: AgentState) => messagesOf(state).map((m) => m.props.content ?? m.props.name)
    const base = texts(fold('agent/01-run.sse'))
    const partial = fold('agent-messages-partial/01-run.sse')
    expect(texts(partial)).toEqual(base)
    expect(partial.turns['turn-1']!.problems).toEqual([])
    // Modes weft reads no messages from fold to rows only, and say nothing is wrong.
    for (const path of ['agent-trace/01-run.sse', 'agent-events/01-run.sse']) {
      const state = fold(path)
      expect(state.turns['turn-1']!.problems, path).toEqual([])
      expect(state.turns['turn-1']!.status, path).toBe('done')
    }
  })

  it('with tasks frames, each row is one task, by its id', () => {
    const state = fold('agent-trace/01-run.sse')
    expect(rows(state).filter((r) => r.kind === 'step').map((r) => r.label)).toEqual(['agent', 'tools', 'agent'])
  })
})

/** The state with its random turn ids named by their place, so two clients' states compare. */
function normalized(state: AgentState): string {
  // The message and timeline tables file entries by a hash of their id: with other ids they land elsewhere.
  const messages = Object.values(state.turns).flatMap((turn) => turn.messageIds.map((id) => messageIn(state.messages, id)))
  const trace = state.turnIds.flatMap((id) => allNodeIds(state, state.turns[id]!).map((row) => traceRecord(state.trace)[row]))
  let text = JSON.stringify({ ...comparable(state), messages, trace })
  state.turnIds.forEach((id, at) => {
    text = text.split(id).join(`<turn ${at}>`)
  })
  return text
}

describe('LangGraph on the live client: every split of the bytes folds to the same state', () => {
  async function live(pieces: Uint8Array[]): Promise<AgentState> {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/runs/stream', protocol: 'langgraph', protocols, fetch: piecesFetch(pieces), scheduler: syncScheduler, idleTimeoutMs: 0 })
    await client.send('What is the weather in Paris?')
    return store.getState()
  }

  for (const path of ['agent/01-run.sse', 'research/01-run.sse', 'approval/01-interrupt.sse']) {
    it(path, async () => {
      const text = fixture(path)
      const bytes = new TextEncoder().encode(text)
      const whole = await live([bytes])
      const turnId = whole.turnIds.at(-1)!
      expect(whole.turns[turnId]!.status).toBe('done')
      await fc.assert(fc.asyncProperty(splits(bytes.length), async (cuts) => {
        expect(normalized(await live(cutAt(bytes, cuts)))).toEqual(normalized(whole))
      }), { numRuns: 15 })
      // The recorded fold under the same turn agrees with the live one on the answer.
      const recorded = foldStream(text, { protocol: 'langgraph', protocols, turnId })
      expect(messagesOf(recorded, turnId).map((m) => m.props)).toEqual(messagesOf(whole, turnId).map((m) => m.props))
    })
  }
})
