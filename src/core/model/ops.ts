/**
 * The op vocabulary: the only way anything changes the store. Decoders turn
 * wire frames into ops; the fold applies them. Ops are plain data, so they can
 * be logged, recorded into fixtures, replayed and folded on a server.
 */
import type { WeftError } from './errors'
import type {
  Gate, GateStatus, Message, MessageStatus, QueuedMessage, Source, SpanStatus, StreamCursor, StreamStatus,
  TraceNode, Turn, TurnStatus,
} from './model'

/** How a delta lands on the value at its path. */
export type DeltaAction = 'append' | 'replace' | 'merge' | 'set'

/** Fields a turn can be opened or updated with. */
export type TurnFields = Partial<Pick<Turn, 'runId' | 'threadId' | 'usage' | 'timing' | 'finishReason' | 'suggestions' | 'protocol'>> & {
  /** Merged into the turn's metadata, key by key; `extra` merges into `metadata.extra` (objects key by key). */
  metadata?: Record<string, unknown>
}

/** Where a message sits; used when an op creates it. */
export interface MessagePlace {
  turnId: string
  messageId: string
  blockId?: string
  threadId?: string
  role?: Message['role']
  type?: string
}

/** A turn as history hands it over. */
export interface HydratedTurn {
  turn: Partial<Turn> & { id: string; role: Turn['role'] }
  messages: Array<Partial<Message> & { id: string; type: string }>
}

/**
 * One change to the store.
 *
 * @example
 * const ops: Op[] = [
 *   { op: 'turn.open', turnId: 't1', role: 'assistant' },
 *   { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: 'Hi' },
 *   { op: 'turn.finish', turnId: 't1', status: 'done' },
 * ]
 */
export type Op =
  /**
   * Open a turn (or make a finished one stream again). A new turn goes under
   * `parentId` (`null`: a root), by default after the last turn of the active path.
   */
  | ({ op: 'turn.open'; turnId: string; role: Turn['role']; parentId?: string | null } & TurnFields)
  | ({ op: 'turn.update'; turnId: string } & TurnFields)
  | { op: 'turn.finish'; turnId: string; status: Exclude<TurnStatus, 'streaming'>; error?: WeftError; finishReason?: string }
  /** Make the branch through this turn the active path. */
  | { op: 'branch.select'; turnId: string }
  | { op: 'block.open'; turnId: string; blockId: string; kind: string; label?: string }
  | { op: 'block.close'; blockId: string; status?: SpanStatus }
  /** Drop what a block added (the UI stream's `reset-step`). */
  | { op: 'block.reset'; blockId: string }
  /** `extra` merges into the thread's `extra` (a later value wins), on open and on close alike. */
  | { op: 'thread.open'; turnId: string; threadId: string; blockId?: string; label?: string; extra?: Record<string, unknown> }
  | { op: 'thread.close'; threadId: string; status?: SpanStatus; extra?: Record<string, unknown> }
  /** Replace a message's type and props (creating it if needed). */
  | ({ op: 'message.put'; props: Record<string, unknown>; status?: MessageStatus } & MessagePlace & { type: string })
  /** Apply one delta at a path inside a message's props (creating it if needed). */
  | ({ op: 'message.delta'; action: DeltaAction; path: string; value: unknown; retype?: boolean } & MessagePlace)
  | { op: 'message.finish'; messageId: string; status: MessageStatus }
  | { op: 'message.remove'; messageId: string }
  /** Upsert a timeline row: `delta` appends to its text, `extra` merges, other fields are latest-wins. */
  | { op: 'trace.node'; turnId: string; node: Partial<Omit<TraceNode, 'turnId' | 'childIds'>> & { id: string }; delta?: string }
  /** Close a tool's row as failed: the node named, or the latest open node of that tool. */
  | { op: 'trace.fail'; turnId: string; nodeId?: string; tool?: string; message: string }
  | { op: 'gate.open'; gate: Omit<Gate, 'status'> & { status?: GateStatus } }
  | { op: 'gate.resolve'; gateId: string; status: GateStatus; response?: unknown }
  | { op: 'source.add'; turnId: string; source: Source }
  /** A problem that did not end the turn. */
  | { op: 'problem'; turnId?: string; error: WeftError }
  | { op: 'stream.status'; status: StreamStatus; error?: WeftError }
  | { op: 'cursor'; cursor: Partial<StreamCursor> }
  /**
   * The shared agent state, whole. A protocol that sends patches (AG-UI's
   * `STATE_DELTA`) applies them in its decoder, from `DecodeContext.agentState`,
   * with `patchJsonData` from `weft/protocol-kit`: the fold has no JSON Patch
   * code, so a host that never patches ships none, and every op stays plain data.
   */
  | { op: 'agentState.set'; value: Record<string, unknown> }
  /** Queue a message at the end of `queue`, or change the text of the queued message with its id. */
  | { op: 'queue.put'; message: QueuedMessage }
  /** Take a message off `queue` (it was sent, or cancelled). */
  | { op: 'queue.remove'; id: string }
  /** Merge turns from history: known ids update in place, new ones go at `at`. */
  | { op: 'hydrate'; turns: HydratedTurn[]; at: 'start' | 'end' }

/** The name of an op. */
export type OpName = Op['op']

/** The op of one name. */
export type OpOf<N extends OpName> = Extract<Op, { op: N }>
