/**
 * Where a Yao message goes in weft's model: the id it goes by, the message it
 * nests under (Yao's `parent_message_id`), and its block and thread.
 */
import { idOf } from '../../protocol-kit/index'
import type { YaoChunk } from './chunk-fields'

/** Yao's message types that have a name of their own in weft's model (a Map: `type: "toString"` finds nothing). */
const TYPE_NAMES: ReadonlyMap<string, string> = new Map([['thinking', 'reasoning'], ['tool_call', 'tool']])

/**
 * Where one message goes: the fields of its `message.put` and `message.delta` ops.
 *
 * @example
 * const where: MessagePlace = { turnId: 't1', messageId: 't1/M1', type: 'text', role: 'assistant', blockId: undefined, threadId: undefined }
 */
export interface MessagePlace {
  turnId: string
  messageId: string
  type: string
  role: 'assistant'
  blockId: string | undefined
  threadId: string | undefined
}

/**
 * The messages of one Yao request: their wire types, their ids, parents and blocks.
 *
 * @example
 * const places = createMessagePlaces('t1', (id) => `t1/${id}`)
 * places.messageTypes.set('M1', 'text')
 */
export interface MessagePlaces {
  /** Each message's wire type (Yao's `type`), by its id here. */
  readonly messageTypes: Map<string, string>
  /** The id a server's `message_id` stands for here: itself, unless an anonymous chunk took that name first. */
  serverMessageId(id: string): string
  /** A new name for a chunk without a `message_id`, one that no message of this request has. */
  anonymousMessageId(chunk: YaoChunk): string
  /** The message a message nests under, while that parent is a message this request has. */
  parentOf(wireId: string, props: Record<string, unknown>, chunk: YaoChunk): string | undefined
  /** Where a message goes (see `createMessagePlaces`). */
  place(wireId: string, wireType: string, chunk: YaoChunk, props: Record<string, unknown>, parent?: string): MessagePlace
  /** A new request: its ids are new ones (the count of anonymous names goes on). */
  clear(): void
}

/**
 * Make the message table of one Yao stream; `scoped` turns a wire id into a store id.
 *
 * @example
 * const places = createMessagePlaces('t1', (id) => `t1/${id}`)
 * places.place(places.serverMessageId('M1'), 'text', { message_id: 'M1' }, {})
 */
export function createMessagePlaces(turnId: string, scoped: (id: string) => string): MessagePlaces {
  const messageTypes = new Map<string, string>()
  /** A message's parent (Yao's `parent_message_id`: a sub-agent's calls under its agent message), and each message's block. */
  const parents = new Map<string, string>()
  const messageBlocks = new Map<string, string | undefined>()
  let anonymous = 0
  /**
   * A chunk without a `message_id` is a message of its own, named `<chunk_id>#<n>`:
   * the names it took, and the server's ids that one of them had taken first, each
   * renamed, so that neither message lands on the other.
   */
  const anonymousIds = new Set<string>()
  const renamed = new Map<string, string>()

  function serverMessageId(id: string): string {
    if (!anonymousIds.has(id)) return id
    let own = renamed.get(id)
    if (own === undefined) {
      let n = 1
      do own = `${id}~${n++}`
      while (messageTypes.has(own) || anonymousIds.has(own))
      renamed.set(id, own)
    }
    return own
  }

  function anonymousMessageId(chunk: YaoChunk): string {
    const base = idOf(chunk.chunk_id) ?? 'chunk'
    let id: string
    do id = `${base}#${++anonymous}`
    while (messageTypes.has(id) || anonymousIds.has(id))
    anonymousIds.add(id)
    return id
  }

  /**
   * The message a message nests under: Yao's client reads `parent_message_id` from the
   * message's props (a chunk-level one is read too), remembers it, and nests the
   * message only while that parent is a message it has.
   */
  function parentOf(wireId: string, props: Record<string, unknown>, chunk: YaoChunk): string | undefined {
    const named = idOf(props.parent_message_id) ?? idOf((chunk as Record<string, unknown>).parent_message_id)
    if (named !== undefined) {
      const parent = serverMessageId(named)
      if (parent !== wireId) parents.set(wireId, parent)
    }
    const parent = parents.get(wireId)
    return parent !== undefined && messageTypes.has(parent) ? parent : undefined
  }

  /**
   * Where a message goes. A child of another message goes in its parent's lane of
   * children (the thread `<parent's id>/children`, in the parent's block), as Yao's
   * client puts it in the parent's `props.children`.
   */
  function place(wireId: string, wireType: string, chunk: YaoChunk, props: Record<string, unknown>, parent?: string): MessagePlace {
    const named = idOf(chunk.block_id) ?? (wireType === 'event' ? undefined : idOf(props.block_id))
    if (!messageBlocks.has(wireId) || (named && !messageBlocks.get(wireId))) messageBlocks.set(wireId, named)
    const blockId = parent !== undefined ? messageBlocks.get(parent) ?? named : named
    const threadId = parent !== undefined ? undefined : idOf(chunk.thread_id)
    return {
      turnId,
      messageId: scoped(wireId),
      type: TYPE_NAMES.get(wireType) ?? wireType,
      role: 'assistant' as const,
      blockId: blockId && scoped(blockId),
      threadId: parent !== undefined ? `${scoped(parent)}/children` : threadId && scoped(threadId),
    }
  }

  return {
    messageTypes, serverMessageId, anonymousMessageId, parentOf, place,
    clear() {
      messageTypes.clear()
      parents.clear()
      messageBlocks.clear()
      anonymousIds.clear()
      renamed.clear()
    },
  }
}
