/**
 * The work timeline of a turn: what the agent did, nested by parent, each row
 * with its status as `data-state` (`start`, `progress`, `done`, `error`).
 * Every value from the server is turned into text before it is drawn, and each
 * row sits in its own error boundary.
 */
import { forwardRef, useId, type DetailsHTMLAttributes, type HTMLAttributes, type OlHTMLAttributes, type ReactNode } from 'react'
import { messageIn } from '../core/model/message-table'
import { selectTraceList } from '../core/store/selectors'
import { useAgentSelector, useTurn } from '../react/selectors'
import { asText, formatJson, own } from './format'
import { useLabels } from './labels'
import { SubAgentLane } from './lane'
import { laneOfRow, rowOfLane, useFocusedLane, useHiddenLanes, useLaneView } from './lane-view'
import { PartBoundary } from './part-boundary'
import { drawPart } from './slot'
import { usageFigures } from '../core/model/usage-figures'
import { useHeadline, useTraceNode, useTraceRootIds, useTraceSummary } from '../react/selectors'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `Trace.Root`.
 *
 * @example
 * <Trace.Root turnId={turnId} aria-label="What the agent did" />
 */
export interface TraceRootProps extends OlHTMLAttributes<HTMLOListElement> {
  /** Default: the enclosing turn. */
  turnId?: string
}

/** The row that shows a turn's hidden lanes again, while some are hidden. */
function HiddenLanes({ turnId }: { turnId: string | undefined }) {
  const { hidden } = useHiddenLanes(turnId)
  if (hidden.length === 0) return null
  return <li data-weft="trace-lanes-hidden"><SubAgentLane.Restore turnId={turnId} /></li>
}

/**
 * A turn's timeline as a nested list. Renders nothing when the turn has no rows.
 * While one of the turn's lanes is focused (`useLaneView`) it lists only that
 * lane's row and the rows under it (`data-state="focused"`).
 * Once the turn has ended, a last row (`data-weft="trace-timing"`) gives its
 * time to first token, total time and speed, when the client timed it.
 *
 * @example
 * <Trace.Root turnId={turnId} />
 */
const Root = forwardRef<HTMLOListElement, TraceRootProps>(function TraceRoot({ turnId: explicit, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const rootIds = useTraceRootIds(turnId)
  const focused = useFocusedLane(turnId)
  const focusedRow = useAgentSelector((s) => (focused && turnId ? rowOfLane(s, turnId, focused) : undefined))
  if (rootIds.length === 0) return null
  if (focusedRow) {
    return (
      <ol aria-label={labels.workTimeline} {...rest} ref={ref} data-weft="trace" data-state="focused">
        <Node id={focusedRow} />
      </ol>
    )
  }
  return (
    <ol aria-label={labels.workTimeline} {...rest} ref={ref} data-weft="trace">
      {rootIds.map((id) => <Node key={id} id={id} />)}
      <HiddenLanes turnId={turnId} />
      <TimingRow turnId={turnId} />
    </ol>
  )
})

/** The turn's timing as the timeline's last row; nothing while it streams or when it was not timed. */
function TimingRow({ turnId }: { turnId: string | undefined }) {
  const labels = useLabels()
  const turn = useAgentSelector((s) => (turnId ? own(s.turns, turnId) : undefined))
  if (!turn || turn.status === 'streaming' || !turn.timing) return null
  const figures = usageFigures({ timing: turn.timing, usage: turn.usage })
  const parts: string[] = []
  if (figures.firstTokenMs !== undefined) parts.push(`${labels.usageFigures.firstToken} ${labels.duration(figures.firstTokenMs)}`)
  if (figures.totalMs !== undefined) parts.push(`${labels.usageFigures.total} ${labels.duration(figures.totalMs)}`)
  if (figures.tokensPerSecond !== undefined) parts.push(labels.tokensPerSecond(figures.tokensPerSecond))
  if (parts.length === 0) return null
  // Muted as a row's details are: it is about the answer, not a step of the work.
  return <li data-weft="trace-timing"><span data-weft="trace-detail">{parts.join(' · ')}</span></li>
}

/**
 * Props of `Trace.Node`.
 *
 * @example
 * <Trace.Node id={nodeId} />
 */
export interface TraceNodeProps extends HTMLAttributes<HTMLLIElement> {
  id: string
  /** Rows already drawn above this one; a cycle in bad parent ids stops here. */
  ancestors?: readonly string[]
  /** Render the host's own element (its only child) as the row; the row's content goes inside it. */
  asChild?: boolean
}

/**
 * One timeline row: its label, who did it, its text, tool arguments and result,
 * and the rows nested under it. Re-renders only when this row changes.
 *
 * @example
 * <ol><Trace.Node id="turn-1/trace/search-2" /></ol>
 * <ol><Trace.Node id={nodeId} asChild><motion.li layout /></Trace.Node></ol>
 */
const Node = forwardRef<HTMLLIElement, TraceNodeProps>(function TraceNode({ id, ancestors = [], asChild, children: host, ...rest }, ref) {
  const labels = useLabels()
  const node = useTraceNode(id)
  const lane = useAgentSelector((s) => laneOfRow(s, id))
  const view = useLaneView(lane ?? '')
  const listId = useId()
  if (!node) return null
  const below = [...ancestors, id]
  // The fold keeps childIds (a patch cannot set them) and a stored record's are checked on load.
  const children = node.childIds.filter((child) => !below.includes(child))
  const laneView = lane ? view.state : undefined
  const props = {
    ...rest, 'data-weft': 'trace-node', 'data-state': asText(node.status), 'data-kind': asText(node.kind),
    ...(laneView ? { 'data-view': laneView, hidden: laneView === 'hidden' || undefined } : {}),
  }
  const content = (
    <>
      <PartBoundary resetKey={node}>
        <NodeContent
          node={node}
          controls={lane && <SubAgentLane.Header threadId={lane} named={false} controls={children.length > 0 ? listId : undefined} count={children.length > 0 ? labels.steps(children.length) : undefined} />}
        />
      </PartBoundary>
      {children.length > 0 && (
        <ol id={listId} hidden={laneView === 'collapsed' || undefined}>
          {children.map((child) => <Node key={child} id={child} ancestors={below} />)}
        </ol>
      )}
    </>
  )
  return drawPart('li', asChild, host, props, ref, content)
})

/** What a row is called: its label, else its tool, else its kind. */
function nodeName(node: { label?: unknown; tool?: unknown; kind?: unknown }): string {
  return asText(node.label) || asText(node.tool) || asText(node.kind)
}

/** `controls`: a lane's row's header, after the row's name. */
function NodeContent({ node, controls }: { node: NonNullable<ReturnType<typeof useTraceNode>>; controls?: ReactNode }) {
  const labels = useLabels()
  const label = nodeName(node)
  const actor = asText(node.actor?.name)
  const detail = asText(node.detail)
  const text = asText(node.text)
  const hasData = node.args !== undefined || node.result !== undefined
  return (
    <>
      <span data-weft="trace-label">{label}</span>
      {actor && <span data-weft="trace-actor"> · {actor}</span>}
      {controls}
      {detail && <span data-weft="trace-detail"> · {detail}</span>}
      {text && <p data-weft="trace-text">{text}</p>}
      {hasData && (
        <details data-weft="trace-data">
          <summary>{asText(node.tool) || labels.traceDetails}</summary>
          {node.args !== undefined && <pre data-weft="trace-args" tabIndex={0}>{formatJson(node.args)}</pre>}
          {node.result !== undefined && <pre data-weft="trace-result" tabIndex={0}>{formatJson(node.result)}</pre>}
        </details>
      )}
    </>
  )
}

/**
 * Props of `TraceHeadline`.
 *
 * @example
 * <TraceHeadline turnId={turnId} />
 */
export interface TraceHeadlineProps extends HTMLAttributes<HTMLParagraphElement> {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Render the host's own element (its only child) with the headline inside it. */
  asChild?: boolean
}

/**
 * Whether a turn is a plain answer: its rows are only top-level steps (LLM calls)
 * and their reasoning, and it called no tool. Such steps did no work to report.
 */
function usePlainAnswer(turnId: string | undefined): boolean {
  return useAgentSelector((s) => {
    const turn = turnId ? own(s.turns, turnId) : undefined
    if (!turn || turn.traceRootIds.length === 0) return false
    const rows = selectTraceList(s, turn.id)
    if (!rows.every((n) => n.kind === 'reason' || (n.kind === 'step' && n.parentId === undefined))) return false
    return !turn.messageIds.some((id) => messageIn(s.messages, id)?.type === 'tool')
  })
}

/**
 * One line about a turn's work. While the turn runs: the first unfinished row
 * that is not reasoning ("Searching call notes"), or "Working…". Once it has
 * landed: "N steps · M sources" (nothing when it took no steps). A plain answer
 * (only LLM steps, no tool call, no other row) has no steps to tell: no "Step 1"
 * while it streams, no "1 step" after, only its sources when it has some.
 *
 * @example
 * <TraceHeadline turnId={turnId} />
 * <TraceHeadline asChild><h3 className="headline" /></TraceHeadline>
 */
export const TraceHeadline = forwardRef<HTMLParagraphElement, TraceHeadlineProps>(function TraceHeadline({ turnId: explicit, asChild, children: host, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const turn = useTurn(turnId)
  const headline = useHeadline(turnId)
  const summary = useTraceSummary(turnId)
  const plain = usePlainAnswer(turnId)
  if (!turn) return null
  const stepCount = plain ? 0 : summary.stepCount
  const { sourceCount } = summary
  if (turn.status === 'streaming') {
    const running = headline && !plain && nodeName(headline)
    // "Working…" only until the answer shows: then its caret and the Stop button say it, once.
    if (!running && turn.messageIds.length > 0) return null
    return draw('running', running || labels.working)
  }
  // Only the counts there are: "3 sources", not "0 steps · 3 sources".
  const counts = [stepCount > 0 && labels.steps(stepCount), sourceCount > 0 && labels.sourceCount(sourceCount)].filter(Boolean)
  if (counts.length === 0) return null
  return draw(turn.status, counts.join(' · '))

  function draw(state: string, text: string) {
    return drawPart('p', asChild, host, { ...rest, 'data-weft': 'trace-headline', 'data-state': state }, ref, text)
  }
})

/**
 * Props of `Trace.Disclosure`.
 *
 * @example
 * <Trace.Disclosure turnId={turnId} open />
 */
export interface TraceDisclosureProps extends DetailsHTMLAttributes<HTMLDetailsElement> {
  /** Default: the enclosing turn. */
  turnId?: string
}

/**
 * The headline as a summary that opens onto the timeline. Renders nothing when
 * the turn has no rows, so there is never an empty summary.
 *
 * @example
 * <Transcript.Turn turnId={id}><Trace.Disclosure /><Transcript.Content /></Transcript.Turn>
 */
const Disclosure = forwardRef<HTMLDetailsElement, TraceDisclosureProps>(function TraceDisclosure({ turnId: explicit, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const rootIds = useTraceRootIds(turnId)
  if (rootIds.length === 0) return null
  return (
    <details {...rest} ref={ref} data-weft="trace-disclosure">
      <summary>
        <TraceHeadline turnId={turnId} />
        <span data-weft="visually-hidden"> {labels.workTimeline}</span>
      </summary>
      <Root turnId={turnId} />
    </details>
  )
})

/**
 * The timeline's parts: `Root` (a turn's rows), `Node` (one row and the rows
 * under it) and `Disclosure` (the headline opening onto the rows).
 *
 * @example
 * <Trace.Root turnId={turnId} />
 */
export const Trace = { Root, Node, Disclosure } as const
