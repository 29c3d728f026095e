/**
 * The footer under an answer that says what it cost: tokens in and out (and
 * reasoning and cached ones where the protocol says), time to first token,
 * total time, tokens per second, and the cost when the host priced the model.
 * It draws nothing when nothing is known, and a host can hide it or any figure.
 */
import { createContext, forwardRef, useContext, useMemo, type HTMLAttributes, type ReactNode } from 'react'
import { usageFigures, type Pricing, type UsageFigures } from '../core/model/usage-figures'
import { useAgentSelector } from '../react/selectors'
import { own } from './format'
import { useLabels, type WeftLabels } from './labels'
import { drawPart } from './slot'
import { useTurnIdFrom } from './turn-context'

/**
 * The figures `TurnUsage` can show, in the order it shows them.
 *
 * @example
 * const hide: UsageFigureName[] = ['cost', 'speed']
 */
export type UsageFigureName = 'input' | 'output' | 'tokens' | 'reasoning' | 'cached' | 'firstToken' | 'total' | 'speed' | 'cost'

/**
 * How turns' usage is shown: the prices a cost is worked out from (per model,
 * per million tokens) and their currency, and what is hidden (`true`: the
 * whole footer; a list: those figures).
 *
 * @example
 * const settings: UsageSettings = { prices: { 'gpt-4o': { input: 2.5, output: 10 } }, currency: 'USD', hide: ['reasoning'] }
 */
export type UsageSettings = Pricing & {
  /** ISO 4217 code of the prices (default `USD`). */
  currency?: string
  hide?: boolean | readonly UsageFigureName[]
}

const UsageSettingsContext = createContext<UsageSettings>({})

/**
 * Props of `UsageSettingsProvider`.
 *
 * @example
 * const props: UsageSettingsProviderProps = { hide: true }
 */
export type UsageSettingsProviderProps = UsageSettings & { children?: ReactNode }

/**
 * Sets how every `TurnUsage` below it shows usage: the price table, its
 * currency, the model of turns whose protocol names none, and what to hide.
 * Without one, no cost is shown (prices are never guessed) and every known
 * figure is.
 *
 * @example
 * <UsageSettingsProvider prices={{ 'gpt-4o': { input: 2.5, output: 10 } }} hide={['speed']}>
 *   <Chat />
 * </UsageSettingsProvider>
 */
export function UsageSettingsProvider({ children, prices, model, currency, hide }: UsageSettingsProviderProps) {
  const outer = useContext(UsageSettingsContext)
  const value = useMemo<UsageSettings>(() => ({
    ...outer,
    ...(prices !== undefined ? { prices } : {}), ...(model !== undefined ? { model } : {}),
    ...(currency !== undefined ? { currency } : {}), ...(hide !== undefined ? { hide } : {}),
  }), [outer, prices, model, currency, hide])
  return <UsageSettingsContext.Provider value={value}>{children}</UsageSettingsContext.Provider>
}

/**
 * Props of `TurnUsage`; the settings given here win over `UsageSettingsProvider`'s.
 *
 * @example
 * <TurnUsage turnId={id} hide={['cost']} />
 */
export interface TurnUsageProps extends Omit<HTMLAttributes<HTMLElement>, 'children'>, UsageSettings {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Render the host's own element (its only child) with the figures inside it. */
  asChild?: boolean
  children?: ReactNode
}

/**
 * A turn's usage and timing as a description list (`data-weft="turn-usage"`,
 * `data-state` the turn's status), one `data-weft="usage-figure"` per figure
 * (`data-figure` its name), each a name and a value a screen reader reads
 * together. Shown once the turn stopped streaming, and only with something to
 * show: a turn with no usage and no timing draws nothing.
 *
 * @example
 * <Transcript.Turn turnId={id}><Transcript.Content /><TurnUsage /></Transcript.Turn>
 * <TurnUsage asChild><footer className="usage" /></TurnUsage>
 */
export const TurnUsage = forwardRef<HTMLElement, TurnUsageProps>(function TurnUsage(
  { turnId: explicit, asChild, children, prices, model, currency, hide, ...rest }, ref,
) {
  const labels = useLabels()
  const settings = useContext(UsageSettingsContext)
  const turnId = useTurnIdFrom(explicit)
  const turn = useAgentSelector((s) => (turnId ? own(s.turns, turnId) : undefined))
  const hidden = hide ?? settings.hide
  const pricing: Pricing = { prices: prices ?? settings.prices, model: model ?? settings.model }
  const figures = turn && turn.role === 'assistant' && turn.status !== 'streaming' && hidden !== true ? usageFigures(turn, pricing) : undefined
  const shown = figures ? shownFigures(figures, labels, currency ?? settings.currency ?? 'USD', Array.isArray(hidden) ? hidden : []) : []
  if (!turn || shown.length === 0) return null
  const content = shown.map(([name, value]) => (
    <div key={name} data-weft="usage-figure" data-figure={name}>
      <dt>{labels.usageFigures[name]}</dt>
      <dd>{value}</dd>
    </div>
  ))
  return drawPart('dl', asChild, children, { ...rest, 'data-weft': 'turn-usage', 'data-state': turn.status }, ref, content)
})

/** Each known figure that is not hidden, with its value as text. */
function shownFigures(figures: UsageFigures, labels: WeftLabels, currency: string, hide: readonly UsageFigureName[]): Array<[UsageFigureName, string]> {
  const values: Array<[UsageFigureName, number | undefined, (value: number) => string]> = [
    ['input', figures.inputTokens, labels.tokenCount],
    ['output', figures.outputTokens, labels.tokenCount],
    // The total only where the protocol gave no split: otherwise it adds nothing.
    ['tokens', figures.inputTokens === undefined && figures.outputTokens === undefined ? figures.totalTokens : undefined, labels.tokenCount],
    ['reasoning', figures.reasoningTokens, labels.tokenCount],
    ['cached', figures.cachedInputTokens, labels.tokenCount],
    ['firstToken', figures.firstTokenMs, labels.duration],
    ['total', figures.totalMs, labels.duration],
    ['speed', figures.tokensPerSecond, labels.tokensPerSecond],
    ['cost', figures.cost, (amount) => labels.cost(amount, currency)],
  ]
  const shown: Array<[UsageFigureName, string]> = []
  for (const [name, value, format] of values) {
    if (value !== undefined && !hide.includes(name)) shown.push([name, format(value)])
  }
  return shown
}
