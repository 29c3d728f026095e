/**
 * Vocion history: a transcript of turns, a user turn with its text and an
 * assistant turn with the AgentEvents it streamed. The events are replayed
 * through the Vocion decoder, so a loaded turn has the same messages, timeline
 * rows, sources and gates as the live one had.
 */
import { type HistoryBatch, historyOps, type HistoryReader, type ProtocolDefinition } from '../../core/index'
import { extrasOf, isRecord, isSafeKey, replayOps, streamToOps } from '../../protocol-kit/index'
import { createVocionDecoder, sniffVocion } from './decoder'

/** A turn's stored events are decoded as the live stream was, by the decoder itself (no list to find it in). */
const VOCION_DECODER: ProtocolDefinition = { name: 'vocion', create: createVocionDecoder, sniff: sniffVocion }

/** The fields read from a transcript turn (the events of an assistant turn are read by the decoder). */
const USER_TURN_FIELDS: ReadonlySet<string> = new Set(['id', 'role', 'content'])
const ASSISTANT_TURN_FIELDS: ReadonlySet<string> = new Set(['id', 'role', 'events'])

/**
 * One turn of a Vocion transcript.
 *
 * @example
 * const turns: VocionTranscriptTurn[] = [
 *   { id: 'q1', role: 'user', content: 'Where is the Contoso renewal?' },
 *   { id: 'a1', role: 'assistant', events: [{ type: 'response_delta', delta: 'On 30 September.' }, { type: 'done', response: 'On 30 September.' }] },
 * ]
 */
export type VocionTranscriptTurn =
  | { id: string; role: 'user'; content: string }
  | { id: string; role: 'assistant'; events: unknown[] }

/**
 * Turn a stored Vocion transcript into a history batch. A turn that cannot be
 * read is reported and skipped; a bad event inside a turn is the decoder's
 * problem on that turn, as it is live. What a stored turn carries beyond its
 * fields is kept: a user turn's in its text message's `props.extra`, an assistant
 * turn's in the turn's `metadata.extra` (its events keep theirs as they do live).
 *
 * @example
 * store.getState().dispatch(historyOps(vocionHistory(await loadTranscript(id)), store.getState()))
 */
export function vocionHistory(transcript: unknown): HistoryBatch {
  const batch: HistoryBatch = { turns: [], replay: {}, problems: [] }
  if (!Array.isArray(transcript)) {
    batch.problems.push({ message: 'a Vocion transcript must be a list of turns' })
    return batch
  }
  for (const [index, raw] of transcript.entries()) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '' || !isSafeKey(raw.id)) {
      batch.problems.push({ message: `turn ${index} has no usable id` })
      continue
    }
    const id = raw.id
    if (raw.role === 'user' && typeof raw.content === 'string') {
      const extra = extrasOf(raw, USER_TURN_FIELDS)
      batch.turns.push({
        turn: { id, role: 'user', status: 'done', protocol: 'vocion' },
        messages: [{ id: `${id}/text`, role: 'user', type: 'text', props: { content: raw.content, ...(extra ? { extra } : {}) }, status: 'done' }],
      })
    } else if (raw.role === 'assistant' && Array.isArray(raw.events)) {
      const extra = extrasOf(raw, ASSISTANT_TURN_FIELDS)
      batch.turns.push({ turn: { id, role: 'assistant', status: 'done', protocol: 'vocion', ...(extra ? { metadata: { extra } } : {}) }, messages: [] })
      ;(batch.replay as Record<string, unknown>)[id] = replayOps(streamToOps(raw.events, { protocol: VOCION_DECODER, turnId: id }), id)
    } else {
      batch.problems.push({ message: `turn ${index} ("${id}") is neither a user turn with content nor an assistant turn with events` })
    }
  }
  return batch
}

/**
 * The protocol's history reader (its definition's `history` slot): a stored Vocion transcript into
 * ops for the store's state, de-duplicated against what it already shows.
 *
 * @example
 * store.getState().dispatch(readVocionHistory(data, { state: store.getState() }))
 */
export const readVocionHistory: HistoryReader = (data, { state }) => historyOps(vocionHistory(data), state)
