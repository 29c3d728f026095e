/**
 * A LangGraph thread's history (`POST /threads/{id}/history`, newest first) as
 * turns and branches. Each checkpoint names its parent, so the history is a
 * tree; each of its leaves is one branch, whose last state holds that branch's
 * messages. A user message starts a user turn and what follows it is the
 * answer. Message ids are kept, so branches that share a beginning share those
 * turns, and an edit or a regenerate shows as a sibling the branch picker walks.
 * Each answer records the checkpoints a later edit or regenerate forks from, as
 * a live stream does.
 */
import type { AgentState, HistoryReader, HydratedTurn, Op } from '../../core/index'
import { idOf, isRecord, messageIn, nonEmpty, own, protocolProblem } from '../../protocol-kit/index'
import { contentText, lcMessage, sideReasoning, toolResultProps, wholeCalls } from './lc-messages'
import { interruptQuestion } from './interrupts'

type Raw = Record<string, unknown>
type Loaded = HydratedTurn['messages'][number]

interface Checkpoint {
  id: string
  parentId?: string
  state: Raw
  /** The ids of the messages in its values, in order. */
  ids: string[]
}

interface TurnDraft {
  id: string
  role: 'user' | 'assistant'
  messages: Loaded[]
  /** Where its messages sit in the branch's list: `[first, last]`. */
  span: [number, number]
  metadata: Record<string, unknown>
  runId?: string
}

/**
 * The states a history document holds, newest first: a list (`POST …/history`),
 * `{ history: [...] }`, or one state (`GET …/state`).
 *
 * @example
 * historyStates(await res.json()).length
 */
function historyStates(data: unknown): Raw[] | undefined {
  if (Array.isArray(data)) return data.filter(isRecord)
  if (isRecord(data) && Array.isArray(data.history)) return data.history.filter(isRecord)
  if (isRecord(data) && isRecord(data.values)) return [data]
  return undefined
}

function checkpointOf(state: Raw, index: number): Checkpoint {
  const own_ = isRecord(state.checkpoint) ? nonEmpty(state.checkpoint.checkpoint_id) : undefined
  const parentId = isRecord(state.parent_checkpoint) ? nonEmpty(state.parent_checkpoint.checkpoint_id) : undefined
  const values = isRecord(state.values) ? state.values : {}
  const list = Array.isArray(values.messages) ? values.messages : []
  const ids = list.map((m) => (isRecord(m) ? idOf(m.id) ?? '' : ''))
  return { id: own_ ?? `state-${index}`, ...(parentId ? { parentId } : {}), state, ids }
}

/** The branch a leaf ends, oldest checkpoint first. */
function chainOf(leaf: Checkpoint, byId: Map<string, Checkpoint>): Checkpoint[] {
  const chain: Checkpoint[] = []
  const seen = new Set<string>()
  for (let at: Checkpoint | undefined = leaf; at && !seen.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) {
    seen.add(at.id)
    chain.push(at)
  }
  return chain.reverse()
}

/** One branch's messages as turns. */
function turnsOf(messages: unknown[]): TurnDraft[] {
  const turns: TurnDraft[] = []
  let answer: TurnDraft | undefined
  const calls = new Map<string, Loaded>()
  messages.forEach((raw, index) => {
    const message = lcMessage(raw)
    const id = message ? idOf(message.id) : undefined
    if (!message || !id) return
    if (message.kind === 'human') {
      const { text } = contentText(message.content)
      turns.push({ id: `lg:${id}`, role: 'user', messages: [{ id, role: 'user', type: 'text', props: { content: text } }], span: [index, index], metadata: {} })
      answer = undefined
      return
    }
    if (message.kind !== 'ai' && message.kind !== 'tool') return
    if (!answer) {
      answer = { id: `lg:${id}`, role: 'assistant', messages: [], span: [index, index], metadata: {} }
      turns.push(answer)
    }
    answer.span[1] = index
    if (message.kind === 'ai') {
      const { text, reasoning } = contentText(message.content)
      const thinking = reasoning + sideReasoning(message)
      if (thinking) answer.messages.push({ id: `${id}/reasoning`, role: 'assistant', type: 'reasoning', props: { content: thinking } })
      if (text) answer.messages.push({ id, role: 'assistant', type: 'text', props: { content: text } })
      for (const call of wholeCalls(message)) {
        const loaded: Loaded = { id: `${id}/${call.id}`, role: 'assistant', type: 'tool', props: { toolCallId: call.id, name: call.name, input: call.args, state: 'input-available' } }
        calls.set(call.id, loaded)
        answer.messages.push(loaded)
      }
      return
    }
    const callId = nonEmpty(message.tool_call_id)
    const call = callId ? calls.get(callId) : undefined
    const result = { ...toolResultProps(message), resultMessageId: id }
    if (call) call.props = { ...call.props, ...result }
    else answer.messages.push({ id: `${id}/${callId ?? 'tool'}`, role: 'assistant', type: 'tool', props: { toolCallId: callId ?? id, name: nonEmpty(message.name) ?? 'tool', ...result } })
  })
  return turns
}

/** The checkpoints a later edit or regenerate of this answer forks from, read off its branch. */
function forkPoints(turn: TurnDraft, chain: Checkpoint[], ids: string[]): void {
  const [first, last] = turn.span
  const question = ids[first - 1]
  const asked = question === undefined ? undefined : chain.find((c) => c.ids.length === first && c.ids[first - 1] === question)
  if (asked) {
    turn.metadata.forkCheckpointId = asked.id
    if (asked.parentId) turn.metadata.inputCheckpointId = asked.parentId
  }
  const ended = [...chain].reverse().find((c) => c.ids.length === last + 1 && c.ids[last] === ids[last])
  if (ended) {
    turn.metadata.checkpointId = ended.id
    const meta = isRecord(ended.state.metadata) ? ended.state.metadata : undefined
    const runId = nonEmpty(meta?.run_id)
    if (runId) turn.runId = runId
  }
}

/** The interrupts a state waits on: its tasks' `interrupts`, else the thread's `interrupts` map. */
function pendingInterrupts(state: Raw): Raw[] {
  const out: Raw[] = []
  const tasks = Array.isArray(state.tasks) ? state.tasks : []
  for (const task of tasks) if (isRecord(task) && Array.isArray(task.interrupts)) out.push(...task.interrupts.filter(isRecord))
  if (out.length === 0 && isRecord(state.interrupts)) for (const list of Object.values(state.interrupts)) if (Array.isArray(list)) out.push(...list.filter(isRecord))
  return out
}

/**
 * Read a thread's history into ops for `state`: its branches as turns (turns
 * and messages the store already shows are kept as they are), the newest
 * branch selected, and the interrupts it waits on as pending gates.
 *
 * @example
 * const res = await fetch(`${apiUrl}/threads/${threadId}/history`, { method: 'POST', body: JSON.stringify({ limit: 100 }) })
 * store.getState().dispatch(readLangGraphHistory(await res.json(), { state: store.getState() }))
 */
export const readLangGraphHistory: HistoryReader = (data, { state }) => {
  const states = historyStates(data)
  if (!states) return [protocolProblem(state.turnIds.at(-1) ?? '', 'LangGraph history must be a list of thread states', data, 'history')]
  if (states.length === 0) return []
  const checkpoints = states.map(checkpointOf)
  const byId = new Map(checkpoints.map((c) => [c.id, c]))
  const parents = new Set(checkpoints.map((c) => c.parentId).filter((id): id is string => id !== undefined))
  const head = checkpoints[0] as Checkpoint
  // Older branches first, the newest (the thread's head) last, so it ends up selected.
  const leaves = checkpoints.filter((c) => c !== head && !parents.has(c.id)).reverse()
  leaves.push(head)
  const ops: Op[] = []
  const placed = new Map<string, string>()
  let roots = state.branches[''] ?? []
  let last: string | undefined
  for (const leaf of leaves) {
    const values = isRecord(leaf.state.values) ? leaf.state.values : {}
    const list = Array.isArray(values.messages) ? values.messages : []
    const chain = chainOf(leaf, byId)
    let parent: string | undefined
    for (const draft of turnsOf(list)) {
      if (draft.role === 'assistant') forkPoints(draft, chain, leaf.ids)
      const id = placed.get(draft.id) ?? shownAs(state, draft) ?? draft.id
      if (!placed.has(draft.id) && id === draft.id && !own(state.turns, id)) {
        ops.push(...placeTurn(draft, parent, roots.length > 0))
        if (parent === undefined) roots = [...roots, id]
      }
      placed.set(draft.id, id)
      parent = last = id
    }
    if (leaf === head && parent) ops.push(...gatesOf(leaf.state, parent))
  }
  if (last) ops.push({ op: 'branch.select', turnId: last })
  return ops
}

/** The live turn that already shows this turn's first message, if any. */
function shownAs(state: AgentState, draft: TurnDraft): string | undefined {
  const first = draft.messages[0]
  return first ? messageIn(state.messages, first.id)?.turnId : undefined
}

/** A turn under its parent; a second root (an edited first message) is opened as a root first. */
function placeTurn(draft: TurnDraft, parent: string | undefined, rootsExist: boolean): Op[] {
  const turn: HydratedTurn['turn'] = {
    id: draft.id, role: draft.role, status: 'done', protocol: 'langgraph', metadata: draft.metadata,
    ...(parent ? { parentId: parent } : {}), ...(draft.runId ? { runId: draft.runId } : {}),
  }
  const hydrate: Op = { op: 'hydrate', turns: [{ turn, messages: draft.messages }], at: 'end' }
  if (parent || !rootsExist) return [hydrate]
  return [{ op: 'turn.open', turnId: draft.id, role: draft.role, parentId: null }, hydrate, { op: 'turn.finish', turnId: draft.id, status: 'done' }]
}

function gatesOf(state: Raw, turnId: string): Op[] {
  const ops: Op[] = []
  for (const item of pendingInterrupts(state)) {
    const id = idOf(item.id)
    if (!id) continue
    ops.push({ op: 'gate.open', gate: { id, turnId, kind: 'interrupt', question: interruptQuestion(item.value), payload: item.value ?? null, extra: { interruptId: id } } })
  }
  return ops
}
