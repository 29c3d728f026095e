/**
 * A batch's plain text tokens, gathered per message so each reaches its message as
 * one append. A decoder holds a token that carries nothing but text; anything else
 * it writes first writes every held append (`take`), and so do a read's end, a
 * release and the stream's end. Held appends are written in the order their
 * messages began, so messages keep the order they were placed in.
 *
 * An append that gathered more than one token keeps them as its `parts`, as the
 * fold's own merged appends do: joined they extend text, but a value there that
 * is not text takes or refuses each token, one problem per token, as the tokens
 * one by one would. So the state does not depend on where reads ended. The list
 * is not enumerable: the op reads, compares and serializes as the one append it is.
 */
import type { MessagePlace, Op } from '../model/ops'

/**
 * The held appends of one stream.
 *
 * @example
 * const held = createHeldAppends()
 * held.hold({ turnId: 't', messageId: 'm', type: 'text' }, 'Hel') // []
 * held.hold({ turnId: 't', messageId: 'm', type: 'text' }, 'lo')  // []
 * held.take() // [{ op: 'message.delta', turnId: 't', messageId: 'm', type: 'text', action: 'append', path: 'content', value: 'Hello' }]
 */
export interface HeldAppends {
  /**
   * Hold `text` for the message's `content`. It joins the message's held append when
   * it places the message alike; otherwise every held append is written first (the
   * ops returned) and `text` begins a new one.
   */
  hold(at: MessagePlace, text: string): Op[]
  /** Every held append, in the order they began; nothing stays held. */
  take(): Op[]
  /** How many messages have an append held. */
  readonly size: number
}

/** A held append; `parts`, its tokens once it has two or more, is the fold's merged-append field. */
type HeldAppend = Extract<Op, { op: 'message.delta' }> & { value: string; parts?: string[] }

/**
 * Make the held appends of one stream.
 *
 * @example
 * const held = createHeldAppends()
 * const ops = [...held.take(), ...otherOps] // before anything that is not a plain token
 */
export function createHeldAppends(): HeldAppends {
  const held = new Map<string, HeldAppend>()
  function take(): Op[] {
    if (held.size === 0) return []
    const ops: Op[] = [...held.values()]
    held.clear()
    return ops
  }
  return {
    hold(at, text) {
      const gathered = held.get(at.messageId)
      if (gathered && samePlace(gathered, at)) {
        if (gathered.parts) gathered.parts.push(text)
        else Object.defineProperty(gathered, 'parts', { value: [gathered.value, text], writable: true, configurable: true })
        gathered.value += text
        return []
      }
      const ops = gathered ? take() : []
      held.set(at.messageId, { op: 'message.delta', ...at, action: 'append', path: 'content', value: text })
      return ops
    },
    take,
    get size() {
      return held.size
    },
  }
}

function samePlace(a: MessagePlace, b: MessagePlace): boolean {
  return a.turnId === b.turnId && a.blockId === b.blockId && a.threadId === b.threadId && a.type === b.type && a.role === b.role
}
