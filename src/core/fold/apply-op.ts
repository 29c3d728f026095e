/**
 * One op of the fold applied by its kind (every kind but a delta, which the batch
 * loop in `fold.ts` applies itself), with the ops whose work is their own:
 * patching the agent state and hydrating history.
 */
import { weftError } from '../model/errors'
import type { AgentState, QueuedMessage } from '../model/model'
import type { Op, OpOf } from '../model/ops'
import { isRecord, isSafeKey, mergedRecord, own } from '../util/record'
import { messageIn } from '../model/message-table'
import { prependChain, selectTurnBranch } from './branches'
import { failToolNode, upsertTraceNode } from './trace'
import { ensureTurn, finishTurn, recordProblem, safe, updateTurn } from './turns'
import { ensureBlock, ensureMessage, ensureThread, removeMessage, resetBlock } from './messages'

/**
 * Every op but a delta, which `applyOps` hands to `applyMessageDelta` itself.
 *
 * @example
 * applyOp(draft, { op: 'turn.open', turnId: 't1', role: 'assistant' })
 */
export function applyOp(state: AgentState, op: Exclude<Op, OpOf<'message.delta'>>): void {
  switch (op.op) {
    case 'turn.open': {
      const turn = ensureTurn(state, op.turnId, op.role, op.parentId)
      turn.role = op.role
      // Opening a finished turn again (a second run on one stream) makes it stream again.
      if (turn.status !== 'streaming') {
        turn.status = 'streaming'
        delete turn.error
      }
      updateTurn(turn, op)
      state.activeTurnId = op.turnId
      return
    }
    case 'turn.update':
      updateTurn(ensureTurn(state, op.turnId), op)
      return
    case 'turn.finish':
      finishTurn(state, op)
      return
    case 'branch.select':
      // An unknown turn must not be created by the problem report either.
      if (own(state.turns, op.turnId)) selectTurnBranch(state, op.turnId)
      else recordProblem(state, undefined, weftError('validation', `no turn "${op.turnId}" to select`, { code: op.op }))
      return
    case 'block.open': {
      const block = ensureBlock(state, op.turnId, op.blockId)
      block.kind = op.kind
      if (op.label !== undefined) block.label = op.label
      return
    }
    case 'block.close': {
      const block = own(state.blocks, op.blockId)
      if (block) block.status = op.status ?? 'done'
      return
    }
    case 'block.reset':
      resetBlock(state, op.blockId)
      return
    case 'thread.open': {
      const thread = ensureThread(state, op.turnId, op.threadId, op.blockId)
      if (op.label !== undefined) thread.label = op.label
      if (isRecord(op.extra)) thread.extra = mergedRecord(thread.extra, safe(state, op.turnId, op.extra))
      return
    }
    case 'thread.close': {
      const thread = own(state.threads, op.threadId)
      if (!thread) return
      thread.status = op.status ?? 'done'
      if (isRecord(op.extra)) thread.extra = mergedRecord(thread.extra, safe(state, thread.turnId, op.extra))
      return
    }
    case 'message.put': {
      // Copied first: props that cannot be copied must not leave an empty message behind.
      const props = safe(state, op.turnId, op.props)
      const message = ensureMessage(state, op)
      message.type = op.type
      message.props = props
      if (op.status) message.status = op.status
      return
    }
    case 'message.finish': {
      const message = messageIn(state.messages, op.messageId)
      if (message) message.status = op.status
      return
    }
    case 'message.remove':
      removeMessage(state, op.messageId)
      return
    case 'trace.node': {
      const turn = ensureTurn(state, op.turnId)
      upsertTraceNode(state, turn, { ...op, node: safe(state, op.turnId, op.node, true) })
      return
    }
    case 'trace.fail':
      failToolNode(state, ensureTurn(state, op.turnId), op)
      return
    case 'gate.open': {
      const gate = safe(state, op.gate.turnId, op.gate)
      const turn = ensureTurn(state, gate.turnId)
      const existing = own(state.gates, gate.id)
      state.gates[gate.id] = { ...existing, ...gate, status: gate.status ?? existing?.status ?? 'pending' }
      if (!turn.gateIds.includes(gate.id)) turn.gateIds.push(gate.id)
      return
    }
    case 'gate.resolve': {
      const gate = own(state.gates, op.gateId)
      if (!gate) throw new Error(`no gate "${op.gateId}"`)
      gate.status = op.status
      if (op.response !== undefined) gate.response = safe(state, gate.turnId, op.response)
      return
    }
    case 'source.add': {
      const turn = ensureTurn(state, op.turnId)
      const source = safe(state, op.turnId, op.source)
      const at = turn.sources.findIndex((s) => s.id === source.id)
      if (at >= 0) turn.sources[at] = { ...turn.sources[at], ...source }
      else turn.sources.push(source)
      return
    }
    case 'problem':
      recordProblem(state, op.turnId ?? state.activeTurnId, op.error)
      return
    case 'stream.status':
      state.status = op.status
      if (op.error) state.error = op.error
      else if (op.status === 'connecting' || op.status === 'streaming') delete state.error
      return
    case 'cursor':
      Object.assign(state.cursor, op.cursor)
      return
    case 'agentState.set':
      state.agentState = safe(state, state.activeTurnId, op.value)
      return
    case 'hydrate':
      hydrate(state, op)
      return
    case 'queue.put':
      putQueued(state, op.message)
      return
    case 'queue.remove': {
      const queue = (state.queue ?? []).filter((queued) => queued.id !== op.id)
      // An empty queue is no queue: a state that never queued and one that emptied its queue are equal.
      if (queue.length > 0) state.queue = queue
      else delete state.queue
      return
    }
    default: {
      // A new op added to the union without a case here fails to compile; one that
      // arrives at runtime anyway (a host's own decoder) becomes a problem.
      const unhandled: never = op
      throw new Error(`unknown op ${String((unhandled as { op?: unknown }).op)}`)
    }
  }
}

/** Only the fields a queued message has, as plain strings and counts: the queue is saved with the conversation. */
function putQueued(state: AgentState, message: QueuedMessage): void {
  if (typeof message.id !== 'string' || !isSafeKey(message.id) || typeof message.text !== 'string') {
    recordProblem(state, undefined, weftError('validation', 'a queued message needs a string id and text', { code: 'queue.put' }))
    return
  }
  const files = typeof message.files === 'number' && Number.isInteger(message.files) && message.files > 0 ? message.files : undefined
  const clean: QueuedMessage = { id: message.id, text: message.text, ...(files !== undefined ? { files } : {}) }
  const queue = (state.queue ??= [])
  const at = queue.findIndex((queued) => queued.id === clean.id)
  if (at >= 0) queue[at] = clean
  else queue.push(clean)
}

function hydrate(state: AgentState, op: OpOf<'hydrate'>): void {
  const fresh: string[] = []
  for (const { turn: incoming, messages } of op.turns) {
    const known = Boolean(own(state.turns, incoming.id))
    // History at the end joins the active path as it comes; at the start it is placed below, as one chain.
    const parent = typeof incoming.parentId === 'string' && own(state.turns, incoming.parentId) ? incoming.parentId : undefined
    const turn = ensureTurn(state, incoming.id, incoming.role, parent, op.at === 'end')
    if (!known) {
      fresh.push(turn.id)
      turn.status = incoming.status ?? 'done'
    }
    const { id: _id, messageIds: _m, blockIds: _b, traceRootIds: _t, gateIds: _g, parentId: _p, ...fields } = safe(state, incoming.id, incoming)
    // A field sent as undefined is a field not sent: it must not wipe what the turn has (its status, its problems).
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (turn as unknown as Record<string, unknown>)[key] = value
    }
    for (const m of messages) {
      const message = ensureMessage(state, { turnId: turn.id, messageId: m.id, role: m.role, type: m.type, blockId: m.blockId, threadId: m.threadId })
      message.type = m.type
      if (m.props) message.props = safe(state, turn.id, m.props)
      message.status = m.status ?? 'done'
    }
  }
  if (op.at === 'start') prependChain(state, fresh)
}
