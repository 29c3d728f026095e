/**
 * A conversation's automatic title: the server's, when a turn's metadata
 * carries one, else the first user message cut to a readable length.
 */
import { isRecord, own } from '../util/record'
import type { AgentState } from '../model/model'
import { messageIn } from '../model/message-table'

/** The title of a conversation nothing has been said in yet. */
export const UNTITLED = 'New chat'

/**
 * Whether a title is the one an untitled conversation is stored with. A function,
 * not the constant, for the thread list: a bundler inlines a constant and leaves a
 * bare import of this module's chunk behind.
 *
 * @example
 * isUntitled(conversations.list()[0]!.title) // true for a conversation nothing has been said in
 */
export function isUntitled(title: string): boolean {
  return title === UNTITLED
}

/**
 * The title the server gave (`metadata.title` of the latest turn that has one).
 *
 * @example
 * serverTitle(store.getState()) // 'Trip to Lisbon'
 */
export function serverTitle(state: Pick<AgentState, 'turnIds' | 'turns'>): string | undefined {
  for (let i = state.turnIds.length - 1; i >= 0; i -= 1) {
    const turn = own(state.turns, state.turnIds[i] as string)
    const title = turn && isRecord(turn.metadata) ? turn.metadata.title : undefined
    if (typeof title === 'string' && title.trim() !== '') return title.trim()
  }
  return undefined
}

/**
 * The first user message's text on one line, cut at a word near `max` characters.
 *
 * @example
 * messageTitle(store.getState()) // 'What is the weather in Paris?'
 */
export function messageTitle(state: Pick<AgentState, 'turnIds' | 'turns' | 'messages'>, max = 60): string | undefined {
  for (const turnId of state.turnIds) {
    const turn = own(state.turns, turnId)
    if (!turn || turn.role !== 'user') continue
    for (const messageId of turn.messageIds) {
      const content = messageIn(state.messages, messageId)?.props.content
      if (typeof content !== 'string') continue
      const line = content.replace(/\s+/g, ' ').trim()
      if (line === '') continue
      return shorten(line, max)
    }
  }
  return undefined
}

function shorten(line: string, max: number): string {
  if (line.length <= max) return line
  const cut = line.slice(0, max)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
