/**
 * One rule for every user action in every phase of a run. Each cell of the
 * table (action × phase) is a test: the client is brought into the phase
 * against a scripted agent, the action is taken, every held stream is then let
 * go, and what the store and the agent saw is compared with the cell.
 *
 * What holds in every cell: every turn and message ends in a terminal state,
 * the stream is not left busy, a gate shows "approved" only if a request carried
 * that answer, and after `stop()` no request leaves.
 */
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const PHASES = ['idle', 'connecting', 'streaming', 'reconnecting', 'awaiting gate', 'awaiting client tool', 'continuing'] as const
const ACTIONS = ['send', 'steer', 'stop', 'answer', 'regenerate', 'edit', 'selectBranch', 'retry', 'dispose'] as const
type Phase = (typeof PHASES)[number]
type Action = (typeof ACTIONS)[number]

interface World {
  store: AgentStore
  client: AgentClient
  agent: ScriptedAgent
  /** The first question and its answer (which has a regenerated sibling, shown). */
  question: string
  answer: string
  /** The second answer, the one in the phase. */
  running?: string
  gateId?: string
  pending: Array<Promise<unknown>>
  finishTool?: () => void
}

const partial = (text: string) => [{ type: 'start', messageId: 'm2' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }]
const approval = [
  { type: 'start', messageId: 'm2' },
  { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/tmp/x' } },
  { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
  { type: 'finish' },
]

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  if (!check()) throw new Error(`never reached: ${what}`)
}

const lastAssistant = (s: AgentState) => [...s.turnIds].reverse().find((id) => s.turns[id]!.role === 'assistant')!
const textOf = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

async function enter(phase: Phase): Promise<World> {
  const store = createAgentStore()
  const agent = new ScriptedAgent()
  const world: World = { store, agent, client: undefined as unknown as AgentClient, question: '', answer: '', pending: [] }
  const options: AgentClientOptions = {
    url: 'http://agent.invalid/api/chat', protocol: 'ui-message', fetch: agent.fetch,
    tools: {
      locate: {
        execute: () => new Promise((resolve) => {
          world.finishTool = () => resolve({ city: 'Lyon' })
        }),
      },
    },
    ...(phase === 'reconnecting' ? { resume: { conversationKey: 'c1', storage: memoryStorage(), backoff: { sleep: async () => true } } } : {}),
  }
  world.client = new AgentClient(store, options)
  await world.client.send('Q1')
  await world.client.regenerate()
  world.question = store.getState().turnIds[0]!
  world.answer = store.getState().turnIds[1]!
  const track = (p: Promise<unknown>) => world.pending.push(p)
  switch (phase) {
    case 'idle':
      break
    case 'connecting':
      agent.next({ hold: true })
      track(world.client.send('Q2'))
      await until(() => store.getState().status === 'connecting', 'connecting')
      break
    case 'streaming':
      agent.next({ frames: partial('partial'), then: 'open' })
      track(world.client.send('Q2'))
      await until(() => textOf(store.getState(), lastAssistant(store.getState())) === 'partial', 'streaming text')
      break
    case 'reconnecting':
      agent.next({ frames: partial('partial'), then: 'drop' }, { hold: true })
      track(world.client.send('Q2'))
      await until(() => store.getState().status === 'reconnecting' && agent.requests.at(-1)?.method === 'GET', 'a resume request held')
      break
    case 'awaiting gate':
    case 'continuing':
      agent.next({ frames: approval, then: 'end', done: true })
      await world.client.send('Q2')
      world.gateId = Object.keys(store.getState().gates)[0]
      if (phase === 'continuing') {
        agent.next({ frames: partial('going on'), then: 'open' })
        track(world.client.answer(world.gateId!, { approved: true }))
        await until(() => textOf(store.getState(), lastAssistant(store.getState())) === 'going on', 'the continuation streaming')
      }
      break
    case 'awaiting client tool':
      agent.next({ frames: [{ type: 'start', messageId: 'm2' }, { type: 'tool-input-available', toolCallId: 'call-2', toolName: 'locate', input: {} }, { type: 'finish' }], then: 'end', done: true })
      track(world.client.send('Q2'))
      await until(() => world.finishTool !== undefined, 'the client tool running')
      break
  }
  world.running = phase === 'idle' ? undefined : lastAssistant(store.getState())
  return world
}

function act(world: World, action: Action): Promise<unknown> | unknown {
  const { client } = world
  switch (action) {
    case 'send': return client.send('Q3')
    case 'steer': return client.send('Q3', { whileRunning: 'steer' })
    case 'stop': return client.stop()
    case 'answer': return client.answer(world.gateId ?? 'no-such-gate', { approved: true })
    case 'regenerate': return client.regenerate()
    case 'edit': return client.edit(world.question, 'Q1 again')
    case 'selectBranch': return client.selectBranch(world.answer, 0)
    case 'retry': return client.retry()
    case 'dispose': return client.dispose()
  }
}

/** What a cell is compared on. */
interface Outcome {
  /** What the action resolved with: `ok`, the refusal's code or message, or nothing. */
  result: string
  /** POSTs the agent received after the action. */
  posts: number
  /** The answer that was in the phase, as it ended. */
  running?: string
  /** The questions and answers on the shown path, as text. */
  path: string[]
  gates: string[]
  status: string
  /** The messages still queued at the end, when any. */
  queued?: string[]
}

async function play(phase: Phase, action: Action): Promise<Outcome> {
  const world = await enter(phase)
  const { store, agent } = world
  const postsBefore = agent.posts.length
  const returned = act(world, action)
  const stopped = action === 'stop'
  const postsAtStop = agent.posts.length
  // Everything held is let go: bodies end with [DONE], a running client tool returns.
  await new Promise((resolve) => setTimeout(resolve, 20))
  agent.closeAll(true)
  world.finishTool?.()
  const result = await returned
  await Promise.all(world.pending)
  if (action !== 'dispose') await until(() => !world.client.busy, 'the client idle')
  await Promise.all(world.pending)
  const s = store.getState()

  // A resumable run let go of is only detached: its turn stays open for the next attach.
  const detached = action === 'dispose' && phase === 'reconnecting'
  // What every cell holds.
  if (!detached) for (const id of s.turnIds) expect(['done', 'aborted', 'error'], `turn ${id}`).toContain(s.turns[id]!.status)
  if (!detached) for (const id of s.turnIds) for (const m of s.turns[id]!.messageIds) expect(messageIn(s.messages, m)!.status, `message ${m}`).not.toBe('streaming')
  if (!detached) expect(['idle', 'done', 'aborted', 'error']).toContain(s.status)
  if (stopped) expect(agent.posts.length, 'no request after stop').toBe(postsAtStop)
  const approvedSent = agent.posts.some((p) => JSON.stringify(p.body).includes('"approved":true'))
  for (const gate of Object.values(s.gates)) if (gate.status === 'approved') expect(approvedSent, 'an approval no request carried').toBe(true)

  const r = result as { ok?: boolean; error?: { code?: string; message: string } } | undefined
  return {
    result: r && typeof r === 'object' && 'ok' in r ? (r.ok ? 'ok' : `refused: ${(r.error?.code ?? r.error?.message ?? '').replace(/turn-[0-9a-f]+-[0-9a-f]+/g, '<turn>')}`) : '-',
    posts: agent.posts.length - postsBefore,
    ...(world.running ? { running: s.turns[world.running]!.status } : {}),
    path: s.turnIds.map((id) => (s.turns[id]!.role === 'user' ? `Q:${s.turns[id]!.messageIds.map((m) => messageIn(s.messages, m)!.props.content).join('')}` : `A:${textOf(s, id)}`)),
    gates: Object.values(s.gates).map((g) => g.status),
    status: s.status,
    ...(s.queue ? { queued: s.queue.map((q) => q.text) } : {}),
  }
}

type Cell = Outcome

/*
 * The table. Answers are numbered in the order the agent gave them: "answer 1"
 * to Q1, "answer 2" its regenerated sibling (shown), then Q2's answer in the
 * phase ("partial", "going on", or empty while a gate or tool waits), and
 * "answer 3" to whatever the action asked ("answer 4" when a queued message
 * went after the run in the phase ended with "answer 3"). `running` is how Q2's answer ended.
 * The rules, by action (docs/loop.md has them in prose):
 * - send (`whileRunning: 'queue'`, the default): while nothing runs, one request
 *   leaves; while a run is active (a request open or reconnecting, a client tool
 *   running, a continuation, a gate waiting) the message is queued and nothing
 *   leaves until the turn ends normally and nothing waits, then it goes as its
 *   own question. A gate left pending keeps it queued (`queued`).
 * - steer (`send(input, { whileRunning: 'steer' })`), regenerate, edit: a run in
 *   flight is stopped (its turn `aborted`, what arrived kept), a running client
 *   tool is cancelled, and one request leaves. A gate left pending stays pending
 *   on its branch.
 * - stop: ends the run `aborted`, cancels client tools, and nothing leaves after
 *   it; an answer already carried by a request stays approved.
 * - answer: refused, changing nothing, unless the gate is pending; a pending
 *   gate's answer sends one continuation.
 * - selectBranch: stops what runs and shows the sibling; nothing is sent.
 * - retry: goes on only from a parked resumable run; otherwise nothing.
 * - dispose: a plain run is stopped; a resumable one is detached, its turn left
 *   open for the next attach.
 */
const TABLE: Record<Phase, Record<Action, Cell>> = {
  'idle': {
    send: {result: '-', posts: 1, path: ['Q:Q1', 'A:answer 2', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    steer: {result: '-', posts: 1, path: ['Q:Q1', 'A:answer 2', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    stop: {result: '-', posts: 0, path: ['Q:Q1', 'A:answer 2'], gates: [], status: 'done'},
    answer: {result: 'refused: there is no gate "no-such-gate"', posts: 0, path: ['Q:Q1', 'A:answer 2'], gates: [], status: 'done'},
    regenerate: {result: 'ok', posts: 1, path: ['Q:Q1', 'A:answer 3'], gates: [], status: 'done'},
    edit: {result: 'ok', posts: 1, path: ['Q:Q1 again', 'A:answer 3'], gates: [], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, path: ['Q:Q1', 'A:answer 1'], gates: [], status: 'done'},
    retry: {result: '-', posts: 0, path: ['Q:Q1', 'A:answer 2'], gates: [], status: 'done'},
    dispose: {result: '-', posts: 0, path: ['Q:Q1', 'A:answer 2'], gates: [], status: 'done'},
  },
  'connecting': {
    send: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3', 'Q:Q3', 'A:answer 4'], gates: [], status: 'done'},
    steer: {result: '-', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    stop: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: [], status: 'aborted'},
    answer: {result: 'refused: there is no gate "no-such-gate"', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1 again', 'A:answer 3'], gates: [], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 1'], gates: [], status: 'aborted'},
    retry: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: [], status: 'aborted'},
  },
  'streaming': {
    send: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    steer: {result: '-', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    stop: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'aborted'},
    answer: {result: 'refused: there is no gate "no-such-gate"', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1 again', 'A:answer 3'], gates: [], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 1'], gates: [], status: 'aborted'},
    retry: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'aborted'},
  },
  'reconnecting': {
    send: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partialanswer 3', 'Q:Q3', 'A:answer 4'], gates: [], status: 'done'},
    steer: {result: '-', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    stop: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'aborted'},
    answer: {result: 'refused: there is no gate "no-such-gate"', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partialanswer 3'], gates: [], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1 again', 'A:answer 3'], gates: [], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 1'], gates: [], status: 'aborted'},
    retry: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partialanswer 3'], gates: [], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'streaming', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:partial'], gates: [], status: 'reconnecting'},
  },
  'awaiting gate': {
    send: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:', 'Q:Q3', 'A:answer 3'], gates: ['pending'], status: 'done'},
    steer: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:', 'Q:Q3', 'A:answer 3'], gates: ['pending'], status: 'done'},
    stop: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: ['pending'], status: 'done'},
    answer: {result: 'ok', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: ['approved'], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: ['pending'], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'done', path: ['Q:Q1 again', 'A:answer 3'], gates: ['pending'], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 1'], gates: ['pending'], status: 'done'},
    retry: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: ['pending'], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: ['pending'], status: 'done'},
  },
  'awaiting client tool': {
    send: {result: '-', posts: 2, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3', 'Q:Q3', 'A:answer 4'], gates: [], status: 'done'},
    steer: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:', 'Q:Q3', 'A:answer 3'], gates: [], status: 'done'},
    stop: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: [], status: 'done'},
    answer: {result: 'refused: there is no gate "no-such-gate"', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'done', path: ['Q:Q1 again', 'A:answer 3'], gates: [], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 1'], gates: [], status: 'done'},
    retry: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: [], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:'], gates: [], status: 'done'},
  },
  'continuing': {
    send: {result: '-', posts: 1, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on', 'Q:Q3', 'A:answer 3'], gates: ['approved'], status: 'done'},
    steer: {result: '-', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on', 'Q:Q3', 'A:answer 3'], gates: ['approved'], status: 'done'},
    stop: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on'], gates: ['approved'], status: 'aborted'},
    answer: {result: 'refused: the gate "<turn>/approval:ap-1" was already answered (approved)', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on'], gates: ['approved'], status: 'done'},
    regenerate: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:answer 3'], gates: ['approved'], status: 'done'},
    edit: {result: 'ok', posts: 1, running: 'aborted', path: ['Q:Q1 again', 'A:answer 3'], gates: ['approved'], status: 'done'},
    selectBranch: {result: 'ok', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 1'], gates: ['approved'], status: 'aborted'},
    retry: {result: '-', posts: 0, running: 'done', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on'], gates: ['approved'], status: 'done'},
    dispose: {result: '-', posts: 0, running: 'aborted', path: ['Q:Q1', 'A:answer 2', 'Q:Q2', 'A:going on'], gates: ['approved'], status: 'aborted'},
  },
}

describe('every action in every phase', () => {
  for (const phase of PHASES) {
    for (const action of ACTIONS) {
      it(`${action} while ${phase}`, async () => {
        const got = await play(phase, action)
        if (process.env.PRINT_TABLE) console.log(`${phase}|${action}|${JSON.stringify(got)}`)
        expect(got).toEqual(TABLE[phase][action])
      })
    }
  }
})
