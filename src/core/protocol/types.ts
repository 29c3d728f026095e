/**
 * What a protocol decoder is: a small object with its own per-stream state that
 * turns one decoded event into ops. All protocol knowledge lives in decoders.
 */
import type { AgentState, Message, ProtocolName, StreamCursor } from '../model/model'
import type { Op } from '../model/ops'
import type { ResumeStrategy } from '../resume/types'
import type { RequestBuilder } from './request'

/** The SSE fields that came with an event. */
export interface FrameMeta {
  id?: string
  event?: string
}

/** A transient data part, handed to the host and never stored. */
export interface DataPart {
  type: string
  id?: string
  data: unknown
}

/** What a decoder is told about the stream it reads. */
export interface DecodeContext {
  /** The assistant turn this stream answers. */
  turnId: string
  /**
   * Unique per stream. Protocols whose ids restart per request (Yao's `M1`)
   * prefix their ids with it, so a second answer never merges into the first.
   */
  scope: string
  /** Receives data the protocol marks as transient. */
  onData?: (part: DataPart) => void
  /**
   * The run this stream answers, when a preliminary request named it (AG-UI's
   * `202 {runId}`): a stream that replays earlier runs first is not over at
   * their end.
   */
  runId?: string
  /**
   * A tool call an earlier stream of the same turn made (the answer goes on
   * after a tool result or an approval): its message and name, so the rest of
   * the call lands on it.
   */
  priorToolCall?(toolCallId: string): { messageId: string; name: string } | undefined
  /**
   * The shared agent state as the store holds it before this stream's own ops:
   * where a decoder that applies state patches (AG-UI's `STATE_DELTA`) starts
   * when the stream sent no snapshot first. Read it when first needed.
   */
  agentState?(): Record<string, unknown>
}

/**
 * One protocol's reader for one stream.
 *
 * @example
 * const decoder = createYaoDecoder({ turnId: 't1', scope: 't1' })
 * const ops = decoder.decode({ chunk_id: 'C1', type: 'text', props: { content: 'Hi' } }, {})
 */
export interface Decoder {
  readonly protocol: ProtocolName
  /** Turn one event (already parsed from JSON) into ops. Never throws: bad input becomes a `problem` op. */
  decode(event: unknown, meta: FrameMeta): Op[]
  /**
   * A network read ended: write what the decoder gathered across events (a tool's
   * input parsed so far). Optional; `end` must write it too. What a flush writes
   * may only depend on the events decoded so far, so every split of the bytes
   * folds to the same state.
   */
  flush?(): Op[]
  /**
   * The stream is over without its end and will not go on (a lost connection
   * that is not resumed): write what the decoder holds back for an event that
   * will not come (text kept in case a tag follows), closing nothing. Optional.
   */
  release?(): Op[]
  /** The stream closed (`done`: `[DONE]` arrived; `eof`: the body ended); finish what the protocol left open. */
  end(reason: 'done' | 'eof'): Op[]
  /** True once the protocol's own terminal event arrived (so an `eof` before it may be a dropped connection). */
  readonly ended: boolean
  /**
   * The protocol has no terminal event: its server ends a stream by closing the
   * body. A body that closes cleanly is then the end, not a cut; a read that
   * fails is still a lost connection. Default false.
   */
  readonly endsAtClose?: boolean
  /**
   * Where the stream is, in the protocol's own terms (Yao's sequence). Read once
   * per batch instead of an op per event.
   */
  cursor?(): Partial<StreamCursor>
}

/** Makes a decoder for one stream. */
export type DecoderFactory = (context: DecodeContext) => Decoder

/** What detection looks at. */
export interface DetectInput {
  /** Response headers, when there was a response. */
  headers?: Headers
  /** The first event, parsed. */
  first?: unknown
  /** The SSE fields of the first frame. */
  meta?: FrameMeta
}

/**
 * What a protocol's history reader is told.
 *
 * @example
 * const history: HistoryReader = (data, { state }) => []
 */
export interface HistoryReadContext {
  /** What the store holds now: a reader skips what is already there. */
  state: AgentState
}

/**
 * Turns a conversation as the protocol's back end stores it (a JSON document
 * the host fetched) into ops. Never throws: what it cannot read becomes a
 * `problem` op.
 *
 * @example
 * store.getState().dispatch(protocol.history!(await res.json(), { state: store.getState() }))
 */
export type HistoryReader = (data: unknown, context: HistoryReadContext) => Op[]

/**
 * A protocol's own views, by message type. The core does not draw them;
 * `weft/components` draws a message of a turn that speaks this protocol with
 * the view registered here for its type (before the built-in renderer, after
 * the host's own). Keep them out of the protocol's core module, in an entry of
 * their own (as `weft/protocols/ag-ui/react` does), so the core stays free of React.
 *
 * A view is described by its shape, so the core never imports React: anything
 * React can render that takes `{ message }` (what `weft/components` calls
 * `MessageRendererProps`): a function component, a `memo` or `forwardRef`
 * component (callable in React's types) or a class component. Its props are
 * compared both ways, as React compares handlers, so a view typed for one kind
 * of part (`MessageRendererProps<'tool', PartProps['tool']>`) or one that also
 * takes DOM props (`MessagePartProps`) fits.
 *
 * @example
 * const views: ProtocolViews = { tool: MyToolView }
 * const withViews: ProtocolDefinition = { ...myProtocol, views }
 */
export type ProtocolViews = Readonly<Record<string,
  | { bivariantView(props: { message: Message }): unknown }['bivariantView']
  | (new (props: { message: Message }) => unknown)
>>

/**
 * One view of `ProtocolViews`: a component that draws one message (see there).
 *
 * @example
 * const ToolView: ProtocolView = ({ message }: { message: Message }) => String(message.props.name)
 */
export type ProtocolView = ProtocolViews[string]

/**
 * One protocol as a plug-in: what it is called, how it recognises its stream
 * and how it reads it; optionally how a request, a history document and a
 * reconnect look in its terms, and the views it draws its own parts with. The
 * built-in protocols are definitions like any a host writes.
 *
 * @example
 * const lines: ProtocolDefinition = {
 *   name: 'lines',
 *   sniff: ({ first }) => (typeof first === 'object' && first !== null && 'line' in first ? 1 : 0),
 *   create: ({ turnId }) => ({
 *     protocol: 'lines', ended: false,
 *     decode: (event) => [{ op: 'message.delta', turnId, messageId: `${turnId}/m`, type: 'text', action: 'append', path: 'content', value: String((event as { line: unknown }).line) }],
 *     end: () => [{ op: 'turn.finish', turnId, status: 'done' }],
 *   }),
 * }
 * <AgentProvider protocols={[...builtInProtocols, lines]}>…</AgentProvider> // `protocol: 'lines'` now names it
 */
export interface ProtocolDefinition {
  /** The protocol's name, as turns and handles record it. Unique within a list of protocols. */
  readonly name: ProtocolName
  /** Makes the decoder for one stream. */
  readonly create: DecoderFactory
  /** How sure this protocol is that it is reading its own stream: 0 (no) to 1 (certain). */
  sniff(input: DetectInput): number
  /** Builds this protocol's own request from the active path. Without one, the client sends `{ input: <text> }`. */
  readonly request?: RequestBuilder
  /** Reads a stored conversation into ops. */
  readonly history?: HistoryReader
  /** Makes the strategy that resumes this protocol's streams. */
  readonly resume?: () => ResumeStrategy
  /** The protocol's own views, by message type (see `ProtocolViews`). */
  readonly views?: ProtocolViews
  /**
   * Where the answer to one of its gates goes. `'request'` (the default): the
   * client sends it in the protocol's next request. `'host'`: the protocol has no
   * way to carry it, so it goes only through the client's `continueGate`.
   */
  readonly gateAnswers?: 'request' | 'host'
}

/**
 * A protocol as options name it: the name of one in the list given (`protocols`), or a definition.
 *
 * @example
 * foldStream(text, { protocol: 'yao' }); foldStream(text, { protocol: myProtocol })
 */
export type ProtocolInput = ProtocolName | ProtocolDefinition
