import { forwardRef, type HTMLAttributes } from 'react'
import { useAgentSelector } from '../react/selectors'
import type { AgentState } from '../core/model/model'
import { messageRecord } from '../core/model/message-table'
import { traceRecord } from '../core/model/trace-table'
import { formatJson } from './format'
import { useLabels } from './labels'

/**
 * The parts of the model `StateInspector` can show.
 *
 * @example
 * <StateInspector sections={['messages', 'trace'] satisfies InspectorSection[]} />
 */
export type InspectorSection = 'turns' | 'blocks' | 'threads' | 'messages' | 'trace' | 'gates' | 'cursor' | 'agentState'

/**
 * Props of `StateInspector`.
 *
 * @example
 * <StateInspector open={false} />
 */
export interface StateInspectorProps extends HTMLAttributes<HTMLDivElement> {
  /** Which parts, in order (default: turns, blocks, threads, messages, trace, gates). */
  sections?: readonly InspectorSection[]
  /** Open the sections (default true). */
  open?: boolean
}

const DEFAULT_SECTIONS: readonly InspectorSection[] = ['turns', 'blocks', 'threads', 'messages', 'trace', 'gates']

/**
 * A plain view of the store: a one-line count, then each part as JSON text.
 * For stories, debugging and support screenshots.
 *
 * @example
 * <AgentProvider store={store}>
 *   <StateInspector sections={['messages', 'trace']} />
 * </AgentProvider>
 */
export const StateInspector = forwardRef<HTMLDivElement, StateInspectorProps>(function StateInspector({ sections = DEFAULT_SECTIONS, open = true, ...rest }, ref) {
  const labels = useLabels()
  const state = useAgentSelector((s) => s)
  return (
    <div role="group" aria-label={labels.stateInspector} {...rest} ref={ref} data-weft="inspector">
      <p data-weft="inspector-summary">{summary(state)}</p>
      {sections.map((name) => (
        <details key={name} data-weft="inspector-section" data-section={name} open={open}>
          <summary>{name} ({count(section(state, name))})</summary>
          {/* Focusable, so a keyboard can scroll it. */}
          <pre tabIndex={0}>{formatJson(section(state, name))}</pre>
        </details>
      ))}
    </div>
  )
})

// The model's own field names, as the JSON below shows them: not words to translate.
// Turns are counted on the branch shown (`turnIds`), the other default sections whole.
function summary(state: AgentState): string {
  const parts = [`status: ${state.status}`, `turns: ${state.turnIds.length}`, ...DEFAULT_SECTIONS.slice(1).map((name) => `${name}: ${count(section(state, name))}`)]
  if (state.error) parts.push(`error: ${state.error.type}: ${state.error.message}`)
  return parts.join(' · ')
}

/** A section as a reader expects it: messages by id, not in the store's buckets. */
function section(state: AgentState, name: InspectorSection): unknown {
  return name === 'messages' ? messageRecord(state.messages) : name === 'trace' ? traceRecord(state.trace) : state[name]
}

function count(value: unknown): number {
  return value && typeof value === 'object' ? Object.keys(value).length : 0
}
