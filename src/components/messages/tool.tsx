import type { ToolState } from '../../core/model'
import { asText, formatJson } from '../format'
import type { MessageRendererProps } from '../renderers'
import { NavigationActions } from '../../protocols/ag-ui/navigation-actions'

const STATE_LABELS: Readonly<Record<ToolState, string>> = {
  'input-streaming': 'Preparing',
  'input-available': 'Running',
  'approval-requested': 'Awaiting approval',
  'approval-responded': 'Answered',
  'output-available': 'Done',
  'output-error': 'Failed',
  'output-denied': 'Denied',
}

/**
 * A tool call: its name, a state badge (`data-state` is the tool state), its
 * input (the partial text while it streams), its output, its error and any
 * navigation actions it offers.
 *
 * @example
 * <RendererProvider renderers={{ tool: ToolCallMessage }} />
 */
export function ToolCallMessage({ message }: MessageRendererProps) {
  const { props } = message
  const state = toolState(props.state)
  const streaming = message.status === 'streaming'
  const inputText = state === 'input-streaming' && typeof props.inputText === 'string'
    ? props.inputText
    : formatJson(props.input ?? props.inputText)
  const errorText = asText(props.errorText)
  return (
    <div data-weft="tool" data-state={state ?? message.status}>
      <div data-weft="tool-header">
        <span data-weft="tool-name">{asText(props.name) || asText(props.toolName) || 'Tool'}</span>{' '}
        <span data-weft="tool-state" data-state={state ?? message.status}>{stateLabel(state, message.status)}</span>
        {props.preliminary === true && <span data-weft="tool-preliminary"> (preliminary)</span>}
      </div>
      {inputText !== '' && (
        <div data-weft="tool-input">
          <span data-weft="tool-part-label">Input</span>
          <pre aria-hidden={(streaming && state === 'input-streaming') || undefined}>{inputText}</pre>
        </div>
      )}
      {props.output !== undefined && (
        <div data-weft="tool-output">
          <span data-weft="tool-part-label">Output</span>
          <pre>{formatJson(props.output)}</pre>
        </div>
      )}
      {errorText !== '' && <p data-weft="tool-error">{errorText}</p>}
      <NavigationActions actions={props.actions} />
    </div>
  )
}

function toolState(value: unknown): ToolState | undefined {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(STATE_LABELS, value) ? (value as ToolState) : undefined
}

function stateLabel(state: ToolState | undefined, status: string): string {
  // A call whose message has ended without a result (Yao's tool_call) was made; nothing runs any more.
  if (state === 'input-available' && status !== 'streaming') return 'Called'
  if (state) return STATE_LABELS[state]
  return status === 'streaming' ? 'Running' : status === 'error' ? 'Failed' : 'Done'
}
