import type { Op } from '../../src/core/model/ops'

/** Ops for one finished exchange: question `u<n>` and its answer `a<n>`, each with one text. */
export const exchange = (n: number, question: string, answer: string): Op[] => [
  { op: 'turn.open', turnId: `u${n}`, role: 'user' },
  { op: 'message.put', turnId: `u${n}`, messageId: `u${n}/text`, role: 'user', type: 'text', props: { content: question }, status: 'done' },
  { op: 'turn.finish', turnId: `u${n}`, status: 'done' },
  { op: 'turn.open', turnId: `a${n}`, role: 'assistant' },
  { op: 'message.delta', turnId: `a${n}`, messageId: `a${n}/text`, type: 'text', action: 'append', path: 'content', value: answer },
  { op: 'turn.finish', turnId: `a${n}`, status: 'done' },
]
