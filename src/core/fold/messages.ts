/**
 * Where messages sit in the fold: blocks, threads (lanes) and messages, each
 * created on first mention and linked into its turn, and taken out again.
 */
import type { AgentState, Block, Message, Thread } from '../model/model'
import type { MessagePlace } from '../model/ops'
import { own } from '../util/record'
import { deleteMessage, messageIn, putMessage } from '../model/message-table'
import { deleteTraceNode, traceNodeIn } from '../model/trace-table'
import { allNodeIds } from '../store/trace-tree'
import { ensureTurn } from './turns'

/**
 * The block with this id, created in its turn when it is new.
 *
 * @example
 * ensureBlock(draft, 't1', 'b1').kind // 'block' for a new block
 */
export function ensureBlock(state: AgentState, turnId: string, blockId: string): Block {
  let block = own(state.blocks, blockId)
  if (!block) {
    block = { id: blockId, turnId, kind: 'block', status: 'open', messageIds: [], threadIds: [] }
    state.blocks[blockId] = block
    ensureTurn(state, turnId).blockIds.push(blockId)
  }
  return block
}

/**
 * The thread (lane) with this id, created in its turn when it is new, and put in its block once one is named.
 *
 * @example
 * ensureThread(draft, 't1', 'lane-1', 'b1').messageIds
 */
export function ensureThread(state: AgentState, turnId: string, threadId: string, blockId?: string): Thread {
  let thread = own(state.threads, threadId)
  if (!thread) {
    thread = { id: threadId, turnId, status: 'open', messageIds: [] }
    state.threads[threadId] = thread
    ensureTurn(state, turnId)
  }
  if (blockId && !thread.blockId) {
    thread.blockId = blockId
    const block = ensureBlock(state, turnId, blockId)
    if (!block.threadIds.includes(threadId)) block.threadIds.push(threadId)
  }
  return thread
}

/**
 * The message at this place, created in its turn when it is new, and put in the block and thread the place names.
 *
 * @example
 * ensureMessage(draft, { turnId: 't1', messageId: 'm1' }).status // 'streaming' for a new message
 */
export function ensureMessage(state: AgentState, place: MessagePlace): Message {
  let message = messageIn(state.messages, place.messageId)
  if (!message) {
    message = {
      id: place.messageId, turnId: place.turnId, role: place.role ?? 'assistant', type: place.type ?? 'text',
      props: {}, status: 'streaming',
    }
    putMessage(state.messages, message)
    ensureTurn(state, place.turnId).messageIds.push(place.messageId)
  }
  // A chunk may name its block or thread before (or without) announcing them.
  if (place.blockId && !message.blockId) {
    message.blockId = place.blockId
    ensureBlock(state, message.turnId, place.blockId).messageIds.push(message.id)
  }
  if (place.threadId && !message.threadId) {
    message.threadId = place.threadId
    ensureThread(state, message.turnId, place.threadId, place.blockId).messageIds.push(message.id)
  }
  return message
}

/**
 * Take a message out of the table and out of its turn, block and thread.
 *
 * @example
 * removeMessage(draft, 'm1')
 */
export function removeMessage(state: AgentState, messageId: string): void {
  const message = messageIn(state.messages, messageId)
  if (!message) return
  const without = (ids: string[]) => {
    const at = ids.indexOf(messageId)
    if (at >= 0) ids.splice(at, 1)
  }
  const turn = own(state.turns, message.turnId)
  if (turn) without(turn.messageIds)
  if (message.blockId && own(state.blocks, message.blockId)) without(own(state.blocks, message.blockId)!.messageIds)
  if (message.threadId && own(state.threads, message.threadId)) without(own(state.threads, message.threadId)!.messageIds)
  deleteMessage(state.messages, messageId)
}

/**
 * Empty a block to stream it again: its messages and the trace rows under its own row go.
 *
 * @example
 * resetBlock(draft, 'b1')
 */
export function resetBlock(state: AgentState, blockId: string): void {
  const block = own(state.blocks, blockId)
  if (!block) return
  for (const id of [...block.messageIds]) removeMessage(state, id)
  block.status = 'open'
  // The block's own timeline row shares its id: the rows nested under it were added by the block too.
  const row = traceNodeIn(state.trace, blockId)
  if (row) {
    for (const id of allNodeIds(state, { traceRootIds: row.childIds })) deleteTraceNode(state.trace, id)
    row.childIds = []
  }
}
