/**
 * Parts that arrive whole: human-in-the-loop gates, recommended actions, and
 * artifacts and records as data parts.
 */
import type { Op } from '../../core/index'
import { extrasOf, idOf, isRecord } from '../../protocol-kit/index'
import { HITL_GATE_FIELDS } from './event-fields'
import type { VocionEvent, VocionStream } from './stream-state'

/**
 * The whole-part handlers of one stream.
 *
 * @example
 * const parts = createParts(stream)
 * parts.hitlGate({ type: 'hitl_gate', gate: { name: 'send_email', question: 'Send it?' } })
 */
export interface Parts {
  /**
   * Each keeps `extra` (the event's fields weft does not read) on what it makes: the
   * gate's `extra` (with the gate object's own unread fields), the message's `props.extra`.
   */
  hitlGate(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  recommendedAction(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  dataPart(type: 'artifact' | 'record_created', event: VocionEvent, extra?: Record<string, unknown>): Op[]
}

/**
 * Make the whole-part handlers for one stream.
 *
 * @example
 * const parts = createParts(createVocionStream({ turnId: 't1', scope: 't1' }))
 */
export function createParts(stream: VocionStream): Parts {
  const { turnId } = stream

  function hitlGate(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const gate = isRecord(event.gate) ? event.gate : undefined
    const name = gate ? idOf(gate.name) : undefined
    if (!gate || !name) return [stream.problem('hitl_gate without a gate name', event, 'invalid')]
    const own = extrasOf(gate, HITL_GATE_FIELDS)
    const kept = extra || own ? { ...extra, ...own } : undefined
    return [{
      op: 'gate.open',
      gate: {
        id: stream.scoped(`gate/${name}#${stream.count()}`), turnId, kind: 'hitl',
        question: idOf(gate.question) ?? '', payload: gate.payload ?? {},
        ...(idOf(gate.resumeUrl) ? { url: idOf(gate.resumeUrl) } : {}),
        ...(kept ? { extra: kept } : {}),
      },
    }]
  }

  function recommendedAction(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const recommendation = event.recommendation
    if (!isRecord(recommendation)) return [stream.problem('recommended_action without a recommendation', event, 'invalid')]
    // Stored only: emitting a recommendation has no side effect until a person activates it.
    // Its props are the recommendation as sent; the event's own unread fields join its `extra`.
    const props = extra ? { ...recommendation, extra: isRecord(recommendation.extra) ? { ...recommendation.extra, ...extra } : extra } : recommendation
    return [{
      op: 'message.put', turnId, messageId: stream.fresh('action'), type: 'recommended-action', role: 'assistant', status: 'done',
      props,
    }]
  }

  function dataPart(type: 'artifact' | 'record_created', event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const data = type === 'artifact' ? event.artifact : event.record
    if (!isRecord(data)) return [stream.problem(`${type} without its payload`, event, 'invalid')]
    // An artifact keeps one message across its versions, so a later version replaces the earlier one.
    const artifactId = type === 'artifact' ? idOf(data.id) : undefined
    const messageId = artifactId ? stream.scoped(`artifact-${artifactId}`) : stream.fresh(type === 'artifact' ? 'artifact' : 'record')
    return [{
      op: 'message.put', turnId, messageId, role: 'assistant', status: 'done',
      type: type === 'artifact' ? 'data-artifact' : 'data-record',
      props: { data, ...(event.pending === true ? { pending: true } : {}), ...(extra ? { extra } : {}) },
    }]
  }

  return { hitlGate, recommendedAction, dataPart }
}
