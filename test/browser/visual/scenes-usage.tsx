/**
 * Screenshot scene of the usage footer: an answer with every figure (tokens in,
 * out and reasoning, time to first token, total time, speed and a cost from the
 * host's prices), then one whose protocol reported only a total, under its
 * message actions' row.
 */
import { Transcript } from '../../../src/components/transcript'
import { UsageSettingsProvider } from '../../../src/components/turn-usage'
import type { Op } from '../../../src/core/model/ops'
import type { Scene } from './scenes'

const exchange = (n: number, question: string, answer: string, extra: Op[]): Op[] => [
  { op: 'turn.open', turnId: `u${n}`, role: 'user' },
  { op: 'message.put', turnId: `u${n}`, messageId: `u${n}/m`, role: 'user', type: 'text', status: 'done', props: { content: question } },
  { op: 'turn.finish', turnId: `u${n}`, status: 'done' },
  { op: 'turn.open', turnId: `a${n}`, role: 'assistant' },
  { op: 'message.put', turnId: `a${n}`, messageId: `a${n}/text`, type: 'text', status: 'done', props: { content: answer } },
  ...extra.map((op) => ({ ...op, turnId: `a${n}` }) as Op),
  { op: 'turn.finish', turnId: `a${n}`, status: 'done' },
]

const ops: Op[] = [
  ...exchange(1, 'Summarise the renewal terms for Contoso.', 'Contoso renews on **1 March** for two years, with a **5 %** discount on the second year.', [
    { op: 'turn.update', turnId: '', usage: { inputTokens: 12_480, outputTokens: 356, reasoningTokens: 128, model: 'gpt-4o' } },
    { op: 'turn.update', turnId: '', timing: { runs: [{ startedAt: 1_000, firstTokenAt: 1_640, endedAt: 4_200 }] } },
  ]),
  ...exchange(2, 'And in one line?', 'Two years from 1 March, 5 % off the second.', [
    { op: 'turn.update', turnId: '', usage: { totalTokens: 12_904 } },
  ]),
]

export const scenes: Scene[] = [
  {
    name: 'usage',
    ops,
    view: () => (
      <UsageSettingsProvider prices={{ 'gpt-4o': { input: 2.5, output: 10 } }}>
        <Transcript.Root />
      </UsageSettingsProvider>
    ),
  },
]
