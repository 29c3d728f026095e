import { forwardRef, useCallback, useState, type ComponentType, type ReactNode, type Ref } from 'react'
import type { Gate, Message, ToolState } from '../../core/model/model'
import { partProps } from '../../core/model/parts'
import type { RespondResult } from '../../core/client/respond'
import { weftError } from '../../core/model/errors'
import { useActingClient } from '../../react/client-slots'
import { useAgentSelector } from '../../react/selectors'
import { useAgentStore } from '../../react/store-context'
import { useDisclosure } from '../disclosure'
import { recordOf, formatJson, own } from '../format'
import { useLabels } from '../labels'
import type { MessagePartProps } from '../renderers'
import { useToolRenderer } from '../tool-renderers'

/** Past this many characters (or lines) an output is cut, with "Show more". */
const OUTPUT_CHARS = 1200
const OUTPUT_LINES = 24

/**
 * What a per-tool renderer receives: the call's input and output (typed by the
 * host), its state, any error text, the message itself, and `respond`, which
 * gives the result of a tool the UI answers (declared `{ ui: true }` in the
 * client's `tools`) and lets the answer go on.
 *
 * @example
 * function WeatherCard({ input, output, state }: ToolRendererProps<{ city: string }, { tempC: number }>) {
 *   return <p>{input?.city}: {state === 'output-available' ? `${output?.tempC} °C` : '…'}</p>
 * }
 * function ColorPicker({ input, output, respond }: ToolRendererProps<{ options: string[] }, { color: string }>) {
 *   if (output) return <p>{output.color}</p>
 *   return <>{input?.options.map((color) => <button key={color} onClick={() => void respond({ color })}>{color}</button>)}</>
 * }
 */
export interface ToolRendererProps<Input = unknown, Output = unknown> {
  input: Input | undefined
  output: Output | undefined
  /** The tool state, following the gate that holds the call when there is one. */
  state: ToolState | 'called' | undefined
  errorText?: string
  message: Message
  /**
   * Give this call's result (see `AgentClient.respond`). Refused, with nothing
   * sent, when the call already has one, its answer was stopped, its tool is not
   * declared `{ ui: true }`, or no client acts for the store.
   */
  respond: (output: Output) => Promise<RespondResult>
}

/**
 * A host's component for one tool (generative UI).
 *
 * @example
 * const renderers: Record<string, ToolRenderer<any, any>> = { get_weather: WeatherCard }
 */
export type ToolRenderer<Input = unknown, Output = unknown> = ComponentType<ToolRendererProps<Input, Output>>

/**
 * The state a tool call shows: its own, unless a gate holds it and has been
 * answered, in which case the badge follows the answer.
 *
 * @example
 * useToolState(message) // 'output-denied' once its gate was rejected
 */
export function useToolState(message: Message): ToolState | 'called' {
  const { toolCallId, state } = partProps(message, 'tool')
  const gate = useAgentSelector((s) => {
    if (!toolCallId) return undefined
    const ids = own(s.turns, message.turnId)?.gateIds ?? []
    for (const id of ids) {
      const found: Gate | undefined = own(s.gates, id)
      if (found && found.toolCallId === toolCallId) return found.status
    }
    return undefined
  })
  if (state === 'approval-requested' && gate === 'rejected') return 'output-denied'
  if (state === 'approval-requested' && (gate === 'approved' || gate === 'answered')) return 'approval-responded'
  // A call whose message has ended without a result (Yao's tool_call) was made; nothing runs any more.
  if (state === 'input-available' && message.status !== 'streaming') return 'called'
  if (state) return state
  return message.status === 'streaming' ? 'input-available' : message.status === 'error' ? 'output-error' : 'output-available'
}

/**
 * A one-line summary of a tool's input: its first values, as `key: value`.
 *
 * @example
 * summarizeInput({ city: 'Paris', units: 'metric' }) // 'city: Paris, units: metric'
 */
export function summarizeInput(input: unknown, max = 60): string {
  const record = recordOf(input)
  let text: string
  if (record) {
    text = Object.entries(record)
      .slice(0, 3)
      .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
      .join(', ')
  } else {
    text = typeof input === 'string' ? input : input === undefined ? '' : formatJson(input)
  }
  text = text.replace(/\s+/g, ' ').trim()
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** How long the call ran: the server's `durationMs`, else what this view saw from start to result. */
function useDuration(given: number | undefined, running: boolean): number | undefined {
  const [seen, setSeen] = useState<{ from?: number; took?: number }>(() => (running ? { from: Date.now() } : {}))
  // Set while rendering, as state that follows a prop is: each step happens once, so the render settles.
  if (running && seen.from === undefined) setSeen({ from: Date.now() })
  else if (!running && seen.from !== undefined && seen.took === undefined) setSeen({ from: seen.from, took: Date.now() - seen.from })
  return given ?? seen.took
}

/**
 * A tool call as a card. Finished calls fold to one line (icon, name, state
 * badge, a short summary of the input, duration) and open to their input and
 * output; a running call, one waiting for approval and a failed one stay open,
 * the input streaming live. Long outputs are cut with "Show more". A host's
 * per-tool renderer (`RendererProvider toolRenderers`) replaces the body.
 * `className`, `style`, the other DOM props and the ref go to the card's root
 * (`<details>`, or the `<div>` around a host's renderer); `data-state` is the tool state.
 *
 * @example
 * <RendererProvider toolRenderers={{ get_weather: WeatherCard }}>
 *   <Transcript.Root />
 * </RendererProvider>
 */
export const ToolCallMessage = forwardRef<HTMLElement, MessagePartProps>(function ToolCallMessage({ message, ...rest }, ref) {
  const labels = useLabels()
  const props = partProps(message, 'tool')
  const name = props.name || labels.tool
  const state = useToolState(message)
  const Custom = useToolRenderer(name)
  const client = useActingClient(useAgentStore())
  const respond = useCallback((output: unknown): Promise<RespondResult> => {
    const toolCallId = props.toolCallId
    if (client?.respond && typeof toolCallId === 'string') return client.respond(toolCallId, output)
    return Promise.resolve({ ok: false, error: weftError('validation', 'no client acts for this store, or the call has no id', { code: 'no_client', retryable: false }) })
  }, [client, props.toolCallId])
  const running = state === 'input-streaming' || state === 'input-available'
  const duration = useDuration(props.durationMs, running)
  // Running, waiting for a person, or failed: the card stays open.
  const { open, onSummaryClick } = useDisclosure(running || state === 'approval-requested' || state === 'output-error')
  const { errorText } = props
  if (Custom) {
    return (
      <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="tool" data-state={state} data-custom="">
        <Custom input={props.input} output={props.output} state={state} errorText={errorText} message={message} respond={respond} />
      </div>
    )
  }
  const inputText = state === 'input-streaming' && props.inputText !== undefined ? props.inputText : formatJson(props.input ?? props.inputText)
  const summary = summarizeInput(props.input ?? props.inputText)
  return (
    <details {...rest} ref={ref as Ref<HTMLDetailsElement>} data-weft="tool" data-state={state} open={open}>
      <summary data-weft="tool-header" onClick={onSummaryClick}>
        <span data-weft="tool-icon" aria-hidden="true" />
        <span data-weft="tool-name">{name}</span>
        <span data-weft="tool-state" data-state={state}>{labels.toolStates[state]}</span>
        {props.preliminary === true && <span data-weft="tool-preliminary">{labels.preliminary}</span>}
        {summary && <span data-weft="tool-summary">{summary}</span>}
        {duration !== undefined && <span data-weft="tool-duration">{labels.duration(duration)}</span>}
      </summary>
      <div data-weft="tool-body">
        {inputText !== '' && (
          <div data-weft="tool-input">
            <span data-weft="tool-part-label">{labels.toolInput}</span>
            {message.status === 'streaming' && state === 'input-streaming'
              ? <pre aria-hidden="true">{inputText}</pre>
              : <pre tabIndex={0}>{inputText}</pre>}
          </div>
        )}
        {props.output !== undefined && (
          <div data-weft="tool-output">
            <span data-weft="tool-part-label">{labels.toolOutput}</span>
            <LongText text={formatJson(props.output)} />
          </div>
        )}
        {errorText && <p data-weft="tool-error">{errorText}</p>}
      </div>
    </details>
  )
})

/** Text cut after a few lines or characters, with a toggle for the rest. */
function LongText({ text }: { text: string }): ReactNode {
  const labels = useLabels()
  const [whole, setWhole] = useState(false)
  const lines = text.split('\n')
  const long = text.length > OUTPUT_CHARS || lines.length > OUTPUT_LINES
  const shown = !long || whole ? text : lines.slice(0, OUTPUT_LINES).join('\n').slice(0, OUTPUT_CHARS) + '…'
  return (
    <>
      <pre tabIndex={0} data-state={long ? (whole ? 'expanded' : 'cut') : undefined}>{shown}</pre>
      {long && (
        <button type="button" data-weft="show-more" aria-expanded={whole} onClick={() => setWhole(!whole)}>
          {whole ? labels.showLess : labels.showMore}
        </button>
      )}
    </>
  )
}
