/**
 * The conversation: a log of turns, each turn its messages in order, with
 * blocks (sections) and threads (concurrent lanes) where the agent opened them.
 */
import { forwardRef, Fragment, lazy, memo, Suspense, useContext, useId, type HTMLAttributes, type ReactNode, type RefObject } from 'react'
import { useAgentSelector, useThread, useTurn, useTurnIds } from '../react/selectors'
import { asText, own } from './format'
import { useLabels } from './labels'
import { SubAgentLane } from './lane'
import { useFocusedLane, useLaneView } from './lane-view'
import { Gates } from './gate-card'
import { useBlockOutline, useTurnOutline, type OutlineKey } from './hooks'
import { MessageView } from './message'
import { MessageActions } from './message-actions'
import { drawPart } from './slot'
import { Sources } from './sources'
import { Suggestions } from './suggestions'
import { TraceHeadline } from './trace'
import { TurnIdContext, useTurnIdFrom } from './turn-context'
import { TranscriptScrollContext } from './scroll-context'
import { TurnInterrupted } from './turn-interrupted'
import { TurnUsage } from './turn-usage'
import { QueuedMessages } from './queued-messages'
import { ToolGroup, useToolRuns, type OutlineItem } from './tool-group'

/** The virtual list is a chunk of its own, fetched when a transcript first grows long. */
const VirtualTurns = lazy(() => import('./virtual-turns'))

/** Inside `Chat`, a transcript with more turns than this is virtualized. */
const VIRTUALIZE_FROM = 40

/**
 * Props of `Transcript.Root`.
 *
 * @example
 * <Transcript.Root aria-label="Support chat">{(id) => <Transcript.Turn turnId={id} />}</Transcript.Root>
 */
export interface TranscriptRootProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** Draws one turn (default: `<Transcript.Turn turnId={id} />`). */
  children?: (turnId: string) => ReactNode
  /**
   * Past this many turns only the turns near the viewport are in the DOM
   * (`false`: never). Default: 40 inside `Chat`, `false` elsewhere, since
   * virtualizing needs the element that scrolls (`scrollRef`, or `Chat`'s viewport).
   */
  virtualize?: number | false
  /** The element the transcript scrolls in (default: `Chat`'s viewport). */
  scrollRef?: RefObject<HTMLElement | null>
  /** Draw the messages sent while the agent ran under the last turn (`QueuedMessages`; default true). */
  queued?: boolean
}

/**
 * The transcript: a polite `role="log"` that lists the turns, then the messages
 * queued while the agent runs (`QueuedMessages`). Subscribes only to the turn
 * ids, so a streaming token never re-renders it.
 *
 * @example
 * <Transcript.Root>
 *   {(id) => (
 *     <Transcript.Turn turnId={id}>
 *       <TraceHeadline />
 *       <Transcript.Content />
 *       <Sources />
 *     </Transcript.Turn>
 *   )}
 * </Transcript.Root>
 */
const Root = forwardRef<HTMLDivElement, TranscriptRootProps>(function TranscriptRoot({ children, virtualize, scrollRef, queued = true, ...rest }, ref) {
  const labels = useLabels()
  const turnIds = useTurnIds()
  const provided = useContext(TranscriptScrollContext)
  const scroller = scrollRef ?? provided
  const from = virtualize ?? (scroller ? VIRTUALIZE_FROM : false)
  const draw = (ids: readonly string[]) => ids.map((id) => <Fragment key={id}>{children ? children(id) : <Turn turnId={id} />}</Fragment>)
  const virtual = scroller !== undefined && from !== false && turnIds.length > from
  return (
    // Only additions are announced: a streaming message is hidden until its finished text is added.
    <div role="log" aria-live="polite" aria-relevant="additions" aria-label={labels.conversation} {...rest} ref={ref} data-weft="transcript" data-state={virtual ? 'virtual' : undefined}>
      {virtual ? (
        // Until the list's chunk arrives, the latest turns stand in: the end is what a chat opens on.
        <Suspense fallback={draw(turnIds.slice(-(from as number)))}>
          <VirtualTurns turnIds={turnIds} scrollRef={scroller!} draw={draw} />
        </Suspense>
      ) : (
        draw(turnIds)
      )}
      {queued && <QueuedMessages />}
    </div>
  )
})

/**
 * Props of `Transcript.Turn`.
 *
 * @example
 * <Transcript.Turn turnId={id} />
 */
export interface TranscriptTurnProps extends HTMLAttributes<HTMLElement> {
  turnId: string
  /**
   * The parts to show; they read the turn from context. Default: the headline,
   * the content, gates, sources, suggestions, the turn's error and, under an
   * answer, its usage (`TurnUsage`) and actions.
   */
  children?: ReactNode
}

/**
 * One turn (`data-role` user or assistant, `data-state` its status). Parts
 * inside it need no `turnId`. Memoised on its props: it reads the store through
 * its own hooks, so a new turn in the list does not draw the turns above again.
 *
 * @example
 * <Transcript.Turn turnId={id}>
 *   <Transcript.Content />
 * </Transcript.Turn>
 */
const Turn = memo(forwardRef<HTMLElement, TranscriptTurnProps>(function TranscriptTurn({ turnId, children, ...rest }, ref) {
  const turn = useTurn(turnId)
  if (!turn) return null
  return (
    <TurnIdContext.Provider value={turnId}>
      <article {...rest} ref={ref} data-weft="turn" data-role={turn.role} data-state={turn.status}>
        {children ?? (
          <>
            {turn.role === 'assistant' && <TraceHeadline />}
            <Content />
            {/* The held calls' cards are in the content: their input shows there, once. */}
            <Gates showCall={false} />
            <Sources />
            <Suggestions />
            <TurnError />
            <TurnInterrupted />
            {turn.role === 'assistant' && <TurnUsage />}
            {turn.role === 'assistant' && <MessageActions />}
          </>
        )}
      </article>
    </TurnIdContext.Provider>
  )
}))

/**
 * Props of `Transcript.Content`.
 *
 * @example
 * <Transcript.Content turnId={id} />
 */
export interface TranscriptContentProps extends HTMLAttributes<HTMLDivElement> {
  /** Default: the enclosing turn. */
  turnId?: string
}

/**
 * A turn's messages in order; a block stands where its first message arrived,
 * and draws its own messages and lanes. A run of two tool calls or more (step
 * blocks of tool calls only included) is one `ToolGroup`, "Used 3 tools".
 * While one of the turn's lanes is focused it draws only that lane, under a
 * `SubAgentLane.FocusBar` (`data-state="focused"`); under the rest, `SubAgentLane.Restore`
 * when the person hid lanes.
 *
 * @example
 * <Transcript.Content turnId={id} />
 */
const Content = forwardRef<HTMLDivElement, TranscriptContentProps>(function TranscriptContent({ turnId: explicit, ...rest }, ref) {
  const turnId = useTurnIdFrom(explicit)
  const items = useToolRuns(useTurnOutline(turnId))
  const focused = useFocusedLane(turnId)
  if (!turnId) return null
  if (focused) {
    return (
      <div {...rest} ref={ref} data-weft="turn-content" data-state="focused">
        <SubAgentLane.FocusBar threadId={focused} />
        <Thread threadId={focused} />
      </div>
    )
  }
  return <div {...rest} ref={ref} data-weft="turn-content">{items.map(renderItem)}<SubAgentLane.Restore turnId={turnId} /></div>
})

/**
 * Props of `Transcript.Block`.
 *
 * @example
 * <Transcript.Block blockId={block.id} />
 */
export interface TranscriptBlockProps extends HTMLAttributes<HTMLDivElement> {
  blockId: string
}

/**
 * One section of a turn (an LLM call, a tool call, a step): its label and its
 * messages and lanes. `data-state` is `open`, `done` or `error`; `data-kind` the block's kind.
 *
 * @example
 * <Transcript.Block blockId="turn-1/B1" />
 */
const Block = forwardRef<HTMLDivElement, TranscriptBlockProps>(function TranscriptBlock({ blockId, ...rest }, ref) {
  const block = useAgentSelector((s) => own(s.blocks, blockId))
  const items = useToolRuns(useBlockOutline(blockId))
  if (!block) return null
  const kind = asText(block.kind)
  const label = asText(block.label) || kind
  // A labelled group, not a landmark: two turns with a "Step 1" each must not make two regions of one name.
  return (
    <div role="group" aria-label={label} {...rest} ref={ref} data-weft="block" data-kind={kind} data-state={asText(block.status)}>
      <div data-weft="block-label" aria-hidden="true">{label}</div>
      {items.map(renderItem)}
    </div>
  )
})

/**
 * Props of `Transcript.Thread`.
 *
 * @example
 * <Transcript.Thread threadId={thread.id} />
 */
export interface TranscriptThreadProps extends HTMLAttributes<HTMLDivElement> {
  threadId: string
}

/**
 * One concurrent lane inside a block: its messages, in order (`data-state`
 * `open`, `done` or `error`). A named lane (a sub-agent's) has a `SubAgentLane.Header`
 * that collapses, hides or focuses it, and `data-view`: `open`, `collapsed`,
 * `hidden` or `focused` (see `useLaneView`; a running or failed lane starts
 * open, a finished one collapsed). A collapsed or hidden lane keeps its
 * messages in the DOM, `hidden`.
 *
 * @example
 * <Transcript.Thread threadId="turn-1/T1" />
 */
const Thread = forwardRef<HTMLDivElement, TranscriptThreadProps>(function TranscriptThread({ threadId, ...rest }, ref) {
  const labels = useLabels()
  const thread = useThread(threadId)
  const view = useLaneView(threadId)
  const bodyId = useId()
  if (!thread) return null
  const label = asText(thread.label)
  const messages = thread.messageIds.map((id) => <MessageView key={id} id={id} />)
  if (!label) {
    return <div role="group" aria-label={labels.lane} {...rest} ref={ref} data-weft="thread" data-state={asText(thread.status)}>{messages}</div>
  }
  return (
    <div
      role="group" aria-label={label} {...rest} ref={ref}
      data-weft="thread" data-state={asText(thread.status)} data-view={view.state} hidden={view.state === 'hidden' || undefined}
    >
      <SubAgentLane.Header threadId={threadId} controls={bodyId} count={labels.laneMessages(thread.messageIds.length)} />
      <div id={bodyId} data-weft="thread-body" hidden={view.state === 'collapsed' || undefined}>{messages}</div>
    </div>
  )
})

/**
 * Props of `TurnError`.
 *
 * @example
 * <TurnError turnId={id} />
 */
export interface TurnErrorProps extends HTMLAttributes<HTMLParagraphElement> {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Render the host's own element (its only child, e.g. an alert box) with the error's message inside it. */
  asChild?: boolean
}

/**
 * The error that ended a turn, if any (`data-error-type` is its type).
 *
 * @example
 * <Transcript.Turn turnId={id}><Transcript.Content /><TurnError /></Transcript.Turn>
 * <TurnError asChild><div role="alert" className="callout" /></TurnError>
 */
export const TurnError = forwardRef<HTMLParagraphElement, TurnErrorProps>(function TurnError({ turnId: explicit, asChild, children, ...rest }, ref) {
  const turnId = useTurnIdFrom(explicit)
  const error = useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.error : undefined))
  if (!error) return null
  const props = { ...rest, 'data-weft': 'turn-error', 'data-error-type': asText(error.type) }
  return drawPart('p', asChild, children, props, ref, asText(error.message))
})

/** One entry of an outline, or a run of tool calls as one group. */
function renderItem(item: OutlineItem) {
  if (typeof item === 'string') return renderEntry(item)
  return <ToolGroup key={`g:${item.run[0]}`} messageIds={item.messageIds}>{item.run.map(renderEntry)}</ToolGroup>
}

/** One entry of an outline: `b:`, `t:` or `m:`, then the id. */
function renderEntry(key: OutlineKey) {
  const id = key.slice(2)
  if (key[0] === 'b') return <Block key={key} blockId={id} />
  if (key[0] === 't') return <Thread key={key} threadId={id} />
  return <MessageView key={key} id={id} />
}

/**
 * The transcript's parts: `Root` (the log), `Turn`, `Content` (a turn's
 * messages and blocks in order), `Block` (a section), `Thread` (a lane) and
 * `Message` (one message, drawn by its type's renderer).
 *
 * @example
 * <AgentProvider>
 *   <Transcript.Root />
 * </AgentProvider>
 */
export const Transcript = { Root, Turn, Content, Block, Thread, Message: MessageView } as const
