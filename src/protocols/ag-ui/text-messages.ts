/**
 * Text and reasoning messages (`TEXT_MESSAGE_*`, `REASONING_*`, the older
 * `THINKING_*`), their timeline rows, and encrypted reasoning values.
 */
import type { Message, Op } from '../../core/index'
import { createHeldAppends, isRecord, nonEmpty } from '../../protocol-kit/index'
import { textField } from './event-types'
import { roleOf, type AgUiEvent, type AgUiStream } from './stream-state'

type TextKind = 'text' | 'reasoning'

/**
 * The older reasoning events, whose events carry no ids.
 *
 * @example
 * const type: ThinkingEventType = 'THINKING_START'
 */
export type ThinkingEventType =
  | 'THINKING_START' | 'THINKING_END'
  | 'THINKING_TEXT_MESSAGE_START' | 'THINKING_TEXT_MESSAGE_CONTENT' | 'THINKING_TEXT_MESSAGE_END'

/**
 * The text and reasoning messages of one stream.
 *
 * @example
 * const texts = createTextMessages(stream)
 * texts.start('m1', 'text', 'assistant', '', event); texts.content('m1', 'text', '', 'Hi', event)
 */
export interface TextMessages {
  /** Each handler keeps `extra` (the event's fields weft does not read) on what it makes: the message, or the reasoning span's row. */
  start(id: string, type: TextKind, role: Message['role'], lane: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  content(id: string, type: TextKind, lane: string, delta: unknown, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  end(id: string, type: TextKind, lane: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  reasoningStart(id: string, lane: string, label?: string, extra?: Record<string, unknown>): Op[]
  reasoningEnd(id: string, extra?: Record<string, unknown>): Op[]
  encryptedValue(e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  /** `THINKING_*`: the older names, whose events carry no ids. */
  thinking(type: ThinkingEventType, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  /** A run ended: no span or message stays open. */
  reset(): void
  /**
   * The appends plain tokens gathered since the last call, in the order they
   * began. The decoder takes them before any event that is not a token, and at
   * each write point (a read's end, a release, the end), so every other op keeps
   * its place and a batch's tokens cost one op per message.
   */
  takeHeld(): Op[]
}

/**
 * Make the text and reasoning handlers for one stream.
 *
 * @example
 * const texts = createTextMessages(createAgUiStream({ turnId: 't1', scope: 't1' }))
 */
export function createTextMessages(stream: AgUiStream): TextMessages {
  const { turnId, texts, openMessages } = stream
  const reasoningSpans = new Map<string, string>()
  const thinking: { span?: string; message?: string } = {}
  /** Each message's gathered append, in the order they began. */
  const held = createHeldAppends()
  const takeHeld = held.take

  function start(id: string, type: TextKind, role: Message['role'], lane: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const ops = takeHeld()
    // A start on a message still open is out of order (@ag-ui/client's verifier ends the run): the text
    // received so far is kept, as its apply step keeps it, and the rest of the start still merges.
    const again = openMessages.has(id)
    if (again) ops.push(stream.problem(`${String(e.type)} for message "${id}", which is still open; its text so far is kept`, e, 'start_while_open'))
    texts.add(id)
    openMessages.add(id)
    // Otherwise a start begins the text afresh (a replayed run folds onto what it folded before).
    const props: Record<string, unknown> = again ? {} : { content: '' }
    if (typeof e.name === 'string') props.name = e.name
    if (role === 'system' && e.role === 'developer') props.sourceRole = 'developer'
    if (isRecord(e.metadata)) props.metadata = e.metadata
    if (extra) props.extra = extra
    if (!again || Object.keys(props).length > 0) ops.push({ op: 'message.delta', ...stream.place(id, type, role, lane), action: 'merge', path: '', value: props })
    if (type === 'reasoning' && !again && !reasoningSpans.has(lane)) {
      ops.push({ op: 'trace.node', turnId, node: { id: `reason:${id}`, kind: 'reason', label: 'Reasoning', status: 'start', parentId: stream.traceParent(lane) } })
    }
    return ops
  }

  function content(id: string, type: TextKind, lane: string, delta: unknown, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    if (typeof delta !== 'string') return [stream.problem(`${String(e.type)} needs a string "delta"`, e, 'delta')]
    const at = stream.place(id, type, 'assistant', lane)
    // A token with nothing else on it joins the message's gathered append (one op per batch),
    // as long as it places the message alike. Anything more first writes every gathered
    // append: an op may place a message in a block, and messages keep the order they came in.
    if (texts.has(id) && !extra && !isRecord(e.metadata)) return held.hold(at, delta)
    const ops = takeHeld()
    if (!texts.has(id)) {
      ops.push(stream.problem(`content for message "${id}" before its start; the message was created`, e, 'repaired'))
      ops.push(...start(id, type, type === 'text' ? roleOf(e.role) : 'assistant', lane, e))
    }
    // Placed again: a start just made may have opened the lane's thread.
    const placed = stream.place(id, type, 'assistant', lane)
    ops.push({ op: 'message.delta', ...placed, action: 'append', path: 'content', value: delta })
    // Written under their own props, so the appends around them still merge.
    if (isRecord(e.metadata)) ops.push({ op: 'message.delta', ...placed, action: 'merge', path: 'metadata', value: e.metadata })
    if (extra) ops.push({ op: 'message.delta', ...placed, action: 'merge', path: 'extra', value: extra })
    return ops
  }

  function end(id: string, type: TextKind, lane: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const ops = takeHeld()
    // The document's back end sends no CONTENT: END carries the whole text.
    const whole = textField(e, 'content', 'text', 'delta')
    const structured = whole === undefined && e.content !== undefined ? e.content : undefined
    if (!texts.has(id)) {
      if (whole === undefined && structured === undefined) return [stream.problem(`${String(e.type)} for message "${id}", which was not started`, e, 'end_without_start')]
      ops.push(...start(id, type, type === 'text' ? roleOf(e.role) : 'assistant', lane, e))
    }
    const at = stream.place(id, type, 'assistant', lane)
    if (whole !== undefined) {
      texts.add(id)
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'content', value: whole })
    } else if (structured !== undefined) {
      ops.push({ op: 'message.delta', ...at, action: 'set', path: 'result', value: structured })
    }
    if (isRecord(e.metadata)) ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'metadata', value: e.metadata })
    if (extra) ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'extra', value: extra })
    openMessages.delete(id)
    ops.push({ op: 'message.finish', messageId: id, status: 'done' })
    if (type === 'reasoning' && !reasoningSpans.has(lane)) ops.push({ op: 'trace.node', turnId, node: { id: `reason:${id}`, status: 'done' } })
    return ops
  }

  function reasoningStart(id: string, lane: string, label = 'Reasoning', extra?: Record<string, unknown>): Op[] {
    reasoningSpans.set(lane, id)
    return [{
      op: 'trace.node', turnId,
      node: { id: `reason:${id}`, kind: 'reason', label, status: 'start', parentId: stream.traceParent(lane), ...(extra ? { extra } : {}) },
    }]
  }

  function reasoningEnd(id: string, extra?: Record<string, unknown>): Op[] {
    for (const [lane, span] of reasoningSpans) if (span === id) reasoningSpans.delete(lane)
    return [{ op: 'trace.node', turnId, node: { id: `reason:${id}`, kind: 'reason', status: 'done', ...(extra ? { extra } : {}) } }]
  }

  function encryptedValue(e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const entityId = nonEmpty(e.entityId)
    const value = e.encryptedValue
    if (!entityId || typeof value !== 'string') return [stream.problem('REASONING_ENCRYPTED_VALUE needs "entityId" and "encryptedValue"', e, 'missing_id')]
    const isTool = e.subtype === 'tool-call'
    const lane = isTool ? stream.tools.get(entityId)?.lane ?? stream.laneOf(e) : stream.laneOf(e)
    const at = stream.place(entityId, isTool ? 'tool' : 'reasoning', 'assistant', lane)
    return [
      { op: 'message.delta', ...at, action: 'set', path: '', value: isTool ? { encryptedValue: value, toolCallId: entityId } : { encryptedValue: value } },
      ...(extra ? [{ op: 'message.delta', ...at, action: 'merge', path: 'extra', value: extra } as Op] : []),
    ]
  }

  function thinkingEvent(type: ThinkingEventType, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    switch (type) {
      case 'THINKING_START':
        thinking.span = stream.fresh('thinking')
        return reasoningStart(thinking.span, stream.laneOf(e), nonEmpty(e.title), extra)
      case 'THINKING_END': {
        const span = thinking.span
        thinking.span = undefined
        return span ? reasoningEnd(span, extra) : [stream.problem('THINKING_END without THINKING_START', e, 'end_without_start')]
      }
      case 'THINKING_TEXT_MESSAGE_START':
        thinking.message = stream.fresh('thinking')
        return start(thinking.message, 'reasoning', 'assistant', stream.laneOf(e), e, extra)
      case 'THINKING_TEXT_MESSAGE_CONTENT':
        thinking.message ??= stream.fresh('thinking')
        return content(thinking.message, 'reasoning', stream.laneOf(e), e.delta, e, extra)
      case 'THINKING_TEXT_MESSAGE_END': {
        const id = thinking.message
        thinking.message = undefined
        return id ? end(id, 'reasoning', stream.laneOf(e), e, extra) : [stream.problem('THINKING_TEXT_MESSAGE_END without a start', e, 'end_without_start')]
      }
    }
  }

  return {
    start, content, end, reasoningStart, reasoningEnd, encryptedValue,
    thinking: thinkingEvent,
    takeHeld,
    reset() {
      openMessages.clear()
      reasoningSpans.clear()
      thinking.span = undefined
      thinking.message = undefined
    },
  }
}
