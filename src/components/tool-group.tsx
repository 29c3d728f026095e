/**
 * Consecutive tool calls folded into one group, "Used 3 tools", as chat apps
 * show an agent's work: the answer stays the focus, each call is one click away.
 */
import { createContext, forwardRef, useContext, type DetailsHTMLAttributes, type ReactNode, type Ref } from 'react'
import { messageIn } from '../core/model/message-table'
import type { AgentState } from '../core/model/model'
import { partProps } from '../core/model/parts'
import { useAgentSelector } from '../react/selectors'
import { useDisclosure } from './disclosure'
import { own } from './format'
import { useAgentList, type OutlineKey } from './hooks'
import { useLabels } from './labels'
import { useToolRendererMap } from './tool-renderers'

/** Inside a group: a step block drawn in it does not group its own calls again. */
const InToolGroup = createContext(false)

/**
 * Props of `ToolGroup`.
 *
 * @example
 * const props: ToolGroupProps = { messageIds: ['t1/c1', 't1/c2'], children: null }
 */
export interface ToolGroupProps extends Omit<DetailsHTMLAttributes<HTMLDetailsElement>, 'children'> {
  /** The tool calls the summary counts and names. */
  messageIds: readonly string[]
  /** What the group opens onto: the calls' own cards (default: each message drawn by `Transcript.Message`). */
  children: ReactNode
}

/** running: a call still streams (its input, its run, or a person's answer); error: one failed. */
type GroupState = 'running' | 'error' | 'done'

function groupState(state: AgentState, ids: readonly string[]): GroupState {
  let failed = false
  for (const id of ids) {
    const message = messageIn(state.messages, id)
    if (!message) continue
    if (message.status === 'streaming') return 'running'
    if (message.status === 'error' || partProps(message, 'tool').state === 'output-error') failed = true
  }
  return failed ? 'error' : 'done'
}

/**
 * A run of tool calls as one `<details>`: a summary that counts them ("Used 3
 * tools", the `toolGroup` label) and names them, opening onto each call's own
 * card. Open while a call runs, waits for a person or failed (`data-state`
 * `running`, `error` or `done`); a person's toggle wins. The summary is the
 * native disclosure button, so Enter and Space open it and a screen reader
 * hears it as expanded or collapsed. `Transcript.Content` and `Transcript.Block`
 * group each run of two calls or more (not the calls a host's tool renderer draws).
 *
 * @example
 * <ToolGroup messageIds={ids}>{ids.map((id) => <Transcript.Message key={id} id={id} />)}</ToolGroup>
 */
export const ToolGroup = forwardRef<HTMLDetailsElement, ToolGroupProps>(function ToolGroup({ messageIds, children, ...rest }, ref) {
  const labels = useLabels()
  const state = useAgentSelector((s) => groupState(s, messageIds))
  const names = useAgentSelector((s) => [...new Set(messageIds.map((id) => {
    const message = messageIn(s.messages, id)
    return (message && partProps(message, 'tool').name) || labels.tool
  }))].join(', '))
  const { open, onSummaryClick } = useDisclosure(state !== 'done')
  return (
    <details {...rest} ref={ref as Ref<HTMLDetailsElement>} data-weft="tool-group" data-state={state} open={open}>
      <summary data-weft="tool-group-header" onClick={onSummaryClick}>
        <span data-weft="tool-icon" aria-hidden="true" />
        <span data-weft="tool-group-label">{labels.toolGroup(messageIds.length, state === 'running')}</span>
        <span data-weft="tool-group-names">{names}</span>
      </summary>
      <InToolGroup.Provider value={true}>
        <div data-weft="tool-group-body">{children}</div>
      </InToolGroup.Provider>
    </details>
  )
})

/** One entry of an outline, or a run of entries that are all tool calls, with the calls' ids. */
export type OutlineItem = OutlineKey | { run: readonly OutlineKey[]; messageIds: readonly string[] }

/**
 * An outline with each run of tool calls (two calls or more) as one item. At a
 * turn's level a step block that holds only tool calls is part of a run, so the
 * calls of an agent's successive steps fold together.
 */
export function useToolRuns(outline: readonly OutlineKey[]): OutlineItem[] {
  const nested = useContext(InToolGroup)
  const custom = useToolRendererMap()
  // Per entry: the ids of the tool calls it is made of, joined ('' when it is not only tool calls).
  const calls = useAgentList((s) => (nested ? [] : outline.map((key) => toolCallsOf(s, key, custom).join('\n'))))
  if (nested) return [...outline]
  const items: OutlineItem[] = []
  let run: OutlineKey[] = []
  let ids: string[] = []
  const flush = () => {
    if (ids.length >= 2) items.push({ run, messageIds: ids })
    else items.push(...run)
    run = []
    ids = []
  }
  outline.forEach((key, i) => {
    const found = calls[i]
    if (!found) {
      flush()
      items.push(key)
      return
    }
    run.push(key)
    ids.push(...found.split('\n'))
  })
  flush()
  return items
}

/** The tool calls an outline entry is made of: a tool call, or a step block of tool calls only; else none. */
function toolCallsOf(state: AgentState, key: OutlineKey, custom: ReadonlyMap<string, unknown>): string[] {
  const id = key.slice(2)
  const isCall = (messageId: string) => {
    const message = messageIn(state.messages, messageId)
    // A host's own tool view is generative UI: it stays in sight.
    return message?.type === 'tool' && !custom.has(partProps(message, 'tool').name ?? '')
  }
  if (key[0] === 'm') return isCall(id) ? [id] : []
  if (key[0] !== 'b') return []
  const block = own(state.blocks, id)
  if (!block || block.kind !== 'step' || block.threadIds.length > 0 || block.messageIds.length === 0) return []
  return block.messageIds.every(isCall) ? [...block.messageIds] : []
}
