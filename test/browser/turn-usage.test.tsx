/**
 * The usage footer under an answer, in Chromium: its figures from the turn's
 * usage and timing, a cost only from the host's prices, nothing for a turn with
 * nothing to show (so screenshots of such turns do not change), hidden whole or
 * per figure, read as name and value, translated through the labels, drawn as
 * the host's own element with `asChild`, and laid out small under the answer.
 */
import '../../src/components/styles.css'
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Op } from '../../src/core/model/ops'
import { LabelsProvider } from '../../src/components/labels'
import { Transcript } from '../../src/components/transcript'
import { TurnUsage, UsageSettingsProvider } from '../../src/components/turn-usage'
import { Chat } from '../../src/components/chat'
import { renderWith, storeWith, textTurn } from './support'

const usage: Op = {
  op: 'turn.update', turnId: 't1',
  usage: { inputTokens: 1234, outputTokens: 567, reasoningTokens: 120, model: 'gpt-4o', raw: { prompt_tokens: 1234 } },
}
const timing: Op = { op: 'turn.update', turnId: 't1', timing: { runs: [{ startedAt: 10_000, firstTokenAt: 10_820, endedAt: 14_600 }] } }
const prices = { 'gpt-4o': { input: 2.5, output: 10 } }
const answered = (...extra: Op[]): Op[] => [...textTurn('Paris is sunny.', 'streaming'), ...extra, { op: 'turn.finish', turnId: 't1', status: 'done' }]

/** Each figure's name and value as a screen reader reads the pair. */
const figuresOf = (root: ParentNode) => [...root.querySelectorAll('[data-weft="usage-figure"]')].map((figure) => [figure.getAttribute('data-figure'), figure.querySelector('dt')!.textContent, figure.querySelector('dd')!.textContent])

describe('TurnUsage', () => {
  it('shows tokens, time to first token, total time, speed and, with a price, the cost, under the answer', () => {
    const { container } = renderWith(storeWith(answered(usage, timing)), <UsageSettingsProvider prices={prices}><Transcript.Root /></UsageSettingsProvider>)
    const footer = container.querySelector('[data-weft="turn"] > [data-weft="turn-usage"]')!
    expect(footer.tagName).toBe('DL')
    expect(footer.getAttribute('data-state')).toBe('done')
    expect(figuresOf(footer)).toEqual([
      ['input', 'Input', '1,234'],
      ['output', 'Output', '567'],
      ['reasoning', 'Reasoning', '120'],
      ['firstToken', 'First token', '820 ms'],
      ['total', 'Time', '4.6 s'],
      ['speed', 'Speed', '150 tokens/s'],
      // 1,234 × $2.50 + 567 × $10 per million tokens.
      ['cost', 'Cost', '$0.0088'],
    ])
    // Under the answer, before its actions; small and muted, its values in the text colour.
    const turn = footer.parentElement!
    expect(turn.querySelector('[data-weft="turn-content"]')!.compareDocumentPosition(footer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(footer.compareDocumentPosition(turn.querySelector('[data-weft="message-actions"]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    const style = getComputedStyle(footer)
    expect(style.display).toBe('flex')
    expect(parseFloat(style.fontSize)).toBeLessThan(parseFloat(getComputedStyle(turn.querySelector('[data-weft="turn-content"]')!).fontSize))
    expect(getComputedStyle(footer.querySelector('dd')!).margin).toBe('0px')
    expect(getComputedStyle(footer.querySelector('dd')!).color).not.toBe(getComputedStyle(footer.querySelector('dt')!).color)
  })

  it('shows no cost without a price for the model, and the total tokens only when the protocol gave no split', () => {
    const { container } = renderWith(storeWith(answered({ op: 'turn.update', turnId: 't1', usage: { totalTokens: 42, model: 'other' } })), <UsageSettingsProvider prices={prices}><Transcript.Root /></UsageSettingsProvider>)
    expect(figuresOf(container)).toEqual([['tokens', 'Tokens', '42']])
  })

  it('draws nothing for a turn with no usage and no timing, for a person\'s turn, and while the answer streams', () => {
    const { container } = renderWith(storeWith([
      ...textTurn('No figures.'),
      { op: 'turn.open', turnId: 'u2', role: 'user' },
      { op: 'turn.update', turnId: 'u2', usage: { inputTokens: 5 } },
      { op: 'turn.finish', turnId: 'u2', status: 'done' },
      { op: 'turn.open', turnId: 't3', role: 'assistant' },
      { op: 'turn.update', turnId: 't3', usage: { inputTokens: 5 }, timing: { runs: [{ startedAt: 1, firstTokenAt: 2 }] } },
    ]), <Transcript.Root />)
    expect(container.querySelectorAll('[data-weft="turn"]')).toHaveLength(3)
    expect(container.querySelector('[data-weft="turn-usage"]')).toBeNull()
  })

  it('is hidden whole or per figure by the host, the prop winning over the provider', () => {
    const store = storeWith(answered(usage, timing))
    const hidden = renderWith(store, <UsageSettingsProvider hide><Chat /></UsageSettingsProvider>)
    expect(hidden.container.querySelector('[data-weft="turn-usage"]')).toBeNull()
    hidden.unmount()
    const some = renderWith(store, <UsageSettingsProvider hide={['reasoning', 'speed', 'firstToken']} prices={prices}><Transcript.Root /></UsageSettingsProvider>)
    expect(figuresOf(some.container).map(([name]) => name)).toEqual(['input', 'output', 'total', 'cost'])
    some.unmount()
    const own = renderWith(store, <UsageSettingsProvider hide><TurnUsage turnId="t1" hide={['input', 'output', 'reasoning']} /></UsageSettingsProvider>)
    expect(figuresOf(own.container).map(([name]) => name)).toEqual(['firstToken', 'total', 'speed'])
  })

  it('speaks the host\'s language through the labels, the cost in the table\'s currency', () => {
    const labels = {
      usageFigures: { input: 'Entrée', output: 'Sortie', tokens: 'Jetons', reasoning: 'Raisonnement', cached: 'En cache', firstToken: 'Premier jeton', total: 'Durée', speed: 'Débit', cost: 'Coût' },
      tokenCount: (n: number) => new Intl.NumberFormat('fr-FR').format(n),
      tokensPerSecond: (rate: number) => `${Math.round(rate)} jetons/s`,
      duration: (ms: number) => `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(ms / 1000)} s`,
      cost: (amount: number, currency: string) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency, maximumSignificantDigits: 2 }).format(amount),
    }
    const { container } = renderWith(storeWith(answered(usage, timing)), (
      <LabelsProvider labels={labels}>
        <UsageSettingsProvider prices={prices} currency="EUR" hide={['reasoning']}><Transcript.Root /></UsageSettingsProvider>
      </LabelsProvider>
    ))
    expect(figuresOf(container).map(([, name, value]) => `${name} ${value}`.replace(/\s/g, ' '))).toEqual([
      'Entrée 1 234', 'Sortie 567', 'Premier jeton 0,8 s', 'Durée 4,6 s', 'Débit 150 jetons/s', 'Coût 0,0088 €',
    ])
  })

  it('with asChild, the host\'s element carries the figures and the part\'s attributes', () => {
    const { container } = renderWith(storeWith(answered(usage)), (
      <TurnUsage turnId="t1" asChild className="mine"><footer aria-label="Usage" /></TurnUsage>
    ))
    const footer = container.querySelector('footer')!
    expect(footer.getAttribute('data-weft')).toBe('turn-usage')
    expect(footer.className).toBe('mine')
    expect(within(footer).getByText('1,234')).toBeTruthy()
    expect(screen.getByLabelText('Usage')).toBe(footer)
  })
})

describe('the timeline\'s timing row', () => {
  it('ends a timed turn\'s timeline with its time to first token, total time and speed, and is absent while it streams or untimed', async () => {
    const { Trace } = await import('../../src/components/trace')
    const step: Op = { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'search', label: 'Searched', status: 'done' } }
    const timed = renderWith(storeWith(answered(step, usage, timing)), <Trace.Root turnId="t1" />)
    const rows = [...timed.container.querySelectorAll('[data-weft="trace"] > li')]
    expect(rows.map((row) => row.getAttribute('data-weft'))).toEqual(['trace-node', 'trace-timing'])
    expect(rows[1]!.textContent).toBe('First token 820 ms · Time 4.6 s · 150 tokens/s')
    // Muted, unlike the rows of the work.
    expect(getComputedStyle(rows[1]!.firstElementChild!).color).not.toBe(getComputedStyle(rows[0]!).color)
    timed.unmount()
    const untimed = renderWith(storeWith(answered(step, usage)), <Trace.Root turnId="t1" />)
    expect(untimed.container.querySelector('[data-weft="trace-timing"]')).toBeNull()
    untimed.unmount()
    const streaming = renderWith(storeWith([...textTurn('…', 'streaming'), step, timing]), <Trace.Root turnId="t1" />)
    expect(streaming.container.querySelector('[data-weft="trace-node"]')).not.toBeNull()
    expect(streaming.container.querySelector('[data-weft="trace-timing"]')).toBeNull()
  })
})
