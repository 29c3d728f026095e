/**
 * The work timeline of a turn: what the agent did, nested by parent, each row
 * with its status as `data-state` (`start`, `progress`, `done`, `error`).
 */
import { useTurn } from '../react/selectors'
import { formatJson, plural } from './format'
import { useHeadline, useTraceNode, useTraceRootIds, useTraceSummary } from '../react/selectors'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `Trace.Root`.
 *
 * @example
 * <Trace.Root turnId={turnId} aria-label="What the agent did" />
 */
export interface TraceRootProps {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Names the list for assistive technology (default "Work timeline"). */
  'aria-label'?: string
}

/**
 * A turn's timeline as a nested list. Renders nothing when the turn has no rows.
 *
 * @example
 * <Trace.Root turnId={turnId} />
 */
function Root({ turnId: explicit, 'aria-label': label = 'Work timeline' }: TraceRootProps) {
  const turnId = useTurnIdFrom(explicit)
  const rootIds = useTraceRootIds(turnId)
  if (rootIds.length === 0) return null
  return (
    <ol data-weft="trace" aria-label={label}>
      {rootIds.map((id) => <Node key={id} id={id} />)}
    </ol>
  )
}

/**
 * Props of `Trace.Node`.
 *
 * @example
 * <Trace.Node id={nodeId} />
 */
export interface TraceNodeProps {
  id: string
  /** Rows already drawn above this one; a cycle in bad parent ids stops here. */
  ancestors?: readonly string[]
}

/**
 * One timeline row: its label, who did it, its text, tool arguments and result,
 * and the rows nested under it. Re-renders only when this row changes.
 *
 * @example
 * <ol><Trace.Node id="turn-1/trace/search-2" /></ol>
 */
function Node({ id, ancestors = [] }: TraceNodeProps) {
  const node = useTraceNode(id)
  if (!node) return null
  const detail = typeof node.detail === 'string' ? node.detail : undefined
  const below = [...ancestors, id]
  const children = node.childIds.filter((child) => !below.includes(child))
  const hasData = node.args !== undefined || node.result !== undefined
  return (
    <li data-weft="trace-node" data-state={node.status} data-kind={node.kind}>
      <span data-weft="trace-label">{node.label || node.tool || node.kind}</span>
      {node.actor?.name && <span data-weft="trace-actor"> · {node.actor.name}</span>}
      {detail && <span data-weft="trace-detail"> · {detail}</span>}
      {node.text && <p data-weft="trace-text">{node.text}</p>}
      {hasData && (
        <details data-weft="trace-data">
          <summary>{node.tool ?? 'Details'}</summary>
          {node.args !== undefined && <pre data-weft="trace-args">{formatJson(node.args)}</pre>}
          {node.result !== undefined && <pre data-weft="trace-result">{formatJson(node.result)}</pre>}
        </details>
      )}
      {children.length > 0 && (
        <ol>
          {children.map((child) => <Node key={child} id={child} ancestors={below} />)}
        </ol>
      )}
    </li>
  )
}

/**
 * Props of `TraceHeadline`.
 *
 * @example
 * <TraceHeadline turnId={turnId} />
 */
export interface TraceHeadlineProps {
  /** Default: the enclosing turn. */
  turnId?: string
}

/**
 * One line about a turn's work. While the turn runs: the first unfinished row
 * that is not reasoning ("Searching call notes"), or "Working…". Once it has
 * landed: "N steps · M sources" (nothing when it took no steps).
 *
 * @example
 * <TraceHeadline turnId={turnId} />
 */
export function TraceHeadline({ turnId: explicit }: TraceHeadlineProps) {
  const turnId = useTurnIdFrom(explicit)
  const turn = useTurn(turnId)
  const headline = useHeadline(turnId)
  const { stepCount, sourceCount } = useTraceSummary(turnId)
  if (!turn) return null
  if (turn.status === 'streaming') {
    return (
      <p data-weft="trace-headline" data-state="running">
        {headline ? headline.label || headline.tool || headline.kind : 'Working…'}
      </p>
    )
  }
  if (stepCount === 0 && sourceCount === 0) return null
  return (
    <p data-weft="trace-headline" data-state={turn.status}>
      {plural(stepCount, 'step')} · {plural(sourceCount, 'source')}
    </p>
  )
}

/**
 * The timeline's parts: `Root` (a turn's rows) and `Node` (one row and the rows under it).
 *
 * @example
 * <Trace.Root turnId={turnId} />
 */
export const Trace = { Root, Node } as const
