/**
 * A fifth protocol defined outside the kit, with the public plug-in interface
 * only: "toy" lines. `{"toy":"say","text":"Hi"}` appends to the answer,
 * `{"toy":"card","title":"..."}` adds a card only this protocol draws,
 * `{"toy":"done"}` ends the turn. It exercises every slot a definition has.
 */
import type { Op } from '../../src/core/model/ops'
import type { Decoder, ProtocolDefinition } from '../../src/core/protocol/types'
import { lastEventIdResume } from '../../src/core/resume/strategies/last-event-id'
import type { MessageRendererProps } from '../../src/components/renderers'
import { weftError } from '../../src/core/model/errors'

function createToyDecoder({ turnId, scope }: { turnId: string; scope: string }): Decoder {
  let ended = false
  let cards = 0
  const textId = `${scope}/text`
  return {
    protocol: 'toy',
    get ended() {
      return ended
    },
    decode(event): Op[] {
      const record = typeof event === 'object' && event !== null ? (event as Record<string, unknown>) : {}
      switch (record.toy) {
        case 'say':
          return [{
            op: 'message.delta', turnId, messageId: textId, type: 'text', role: 'assistant',
            action: 'append', path: 'content', value: typeof record.text === 'string' ? record.text : '',
          }]
        case 'card':
          cards += 1
          return [{
            op: 'message.put', turnId, messageId: `${scope}/card-${cards}`, type: 'toy-card', role: 'assistant',
            props: { title: String(record.title ?? '') }, status: 'done',
          }]
        case 'done':
          ended = true
          return [{ op: 'message.finish', messageId: textId, status: 'done' }, { op: 'turn.finish', turnId, status: 'done' }]
        default:
          return [{ op: 'problem', turnId, error: weftError('protocol', 'not a toy line') }]
      }
    },
    end(): Op[] {
      return ended ? [] : [{ op: 'turn.finish', turnId, status: 'done' }]
    },
  }
}

/** A card drawn by the toy protocol's own view. */
export function ToyCard({ message }: MessageRendererProps) {
  return <aside data-testid="toy-card">{String(message.props.title)}</aside>
}

/** The toy protocol's definition. */
export const toyProtocol: ProtocolDefinition = {
  name: 'toy',
  sniff: ({ first }) => (typeof first === 'object' && first !== null && 'toy' in first ? 1 : 0),
  create: createToyDecoder,
  request: ({ input, path }) => ({ say: typeof input === 'string' ? input : input?.text ?? '', path: path.length }),
  // A list of earlier answers, each a string or `{ id, text }`; answers the store already shows are skipped.
  history: (data, { state }) => {
    if (!Array.isArray(data)) return [{ op: 'problem', error: weftError('protocol', 'toy history is a list') }]
    const lines = data.map((line: unknown, i) => (typeof line === 'object' && line !== null
      ? { id: String((line as { id?: unknown }).id), text: String((line as { text?: unknown }).text) }
      : { id: `h${i}`, text: String(line) }))
    const fresh = lines.filter((line) => !Object.hasOwn(state.turns, line.id))
    if (fresh.length === 0) return []
    return [{ op: 'hydrate', at: 'start', turns: fresh.map((line) => ({
      turn: { id: line.id, role: 'assistant' as const, protocol: 'toy' },
      messages: [{ id: `${line.id}/text`, type: 'text', props: { content: line.text } }],
    })) }]
  },
  resume: () => ({ ...lastEventIdResume(), name: 'toy-resume' }),
  views: { 'toy-card': ToyCard },
}

/** The toy stream for one answer, as SSE text. */
export function toySse(words: readonly string[], card?: string): string {
  const lines: unknown[] = words.map((text) => ({ toy: 'say', text }))
  if (card !== undefined) lines.push({ toy: 'card', title: card })
  lines.push({ toy: 'done' })
  return lines.map((line) => `data: ${JSON.stringify(line)}\n\n`).join('')
}
