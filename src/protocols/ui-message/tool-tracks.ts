/**
 * The tool calls of one UI message stream as weft keeps them while they stream:
 * one track per `toolCallId`, and the ops that write a call's tool message and
 * its timeline row.
 */
import type { DeltaAction, Op } from '../../core/index'
import { defined, idOf, recordOf, StreamedInput, stringOf } from '../../protocol-kit/index'
import { chunkExtras } from './chunk-fields'
import type { StreamContext } from './stream-context'

/**
 * What is kept of one tool call while it streams.
 *
 * @example
 * const track = createToolTracks(stream).newTrack('c1', 'search', {})
 */
export interface ToolTrack {
  toolCallId: string
  messageId: string
  name: string
  title: string | undefined
  blockId: string | undefined
  /** `text` inputs (the AI SDK's `inputEncoding`) are plain strings, not JSON. */
  encoding: 'json' | 'text'
  /** The streamed JSON input, until it ends. */
  input: StreamedInput | undefined
  /** Input text that came since the message's `inputText` was last written. */
  unsent: string
  streamed: boolean
  preliminary: boolean
  gateId: string | undefined
  gatePending: boolean
}

/**
 * One UI message chunk, already known to be an object.
 *
 * @example
 * const chunk: Chunk = { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search' }
 */
export type Chunk = Record<string, unknown>

/**
 * The tracks of one stream's tool calls, and the ops that write them.
 *
 * @example
 * const tracks = createToolTracks(stream)
 * const track = tracks.newTrack('c1', 'search', { type: 'tool-input-start' })
 * tracks.props(track, { state: 'input-streaming' })
 */
export interface ToolTracks {
  /** Every call of the stream, by `toolCallId`. */
  readonly tracks: Map<string, ToolTrack>
  /** Start keeping a call (again: a call that starts over gets a new track). */
  newTrack(toolCallId: string, name: string, chunk: Chunk): ToolTrack
  /** A delta on the tool message's props (creating the message if needed). */
  delta(track: ToolTrack, action: DeltaAction, path: string, value: unknown): Op
  /** A shallow set of the tool message's props; `undefined` fields are left alone. */
  props(track: ToolTrack, value: Record<string, unknown>): Op
  /**
   * What a chunk carries that the AI SDK keeps on its tool part (the provider's metadata
   * of the call or of the result, `toolMetadata`), plus every field weft does not read,
   * merged into `props.extra`.
   */
  kept(track: ToolTrack, chunk: Chunk, metadataField: 'callProviderMetadata' | 'resultProviderMetadata' | undefined, ops: Op[]): void
  /** The call's timeline row. */
  row(track: ToolTrack, fields: Record<string, unknown>): Op
  /** The call a chunk is about; one the stream never announced is started, so nothing the chunk carries is lost. */
  known(chunk: Chunk, what: string): { track: ToolTrack; ops: Op[] } | { ops: Op[] }
}

/**
 * Make the tool call tracks of one stream.
 *
 * @example
 * const tracks = createToolTracks(createStreamContext({ turnId: 't1', scope: 't1' }))
 */
export function createToolTracks(stream: StreamContext): ToolTracks {
  const { turnId } = stream
  const tracks = new Map<string, ToolTrack>()

  function newTrack(toolCallId: string, name: string, chunk: Chunk): ToolTrack {
    const track: ToolTrack = {
      toolCallId, messageId: stream.scoped('tool', toolCallId), name, title: stringOf(chunk.title),
      blockId: stream.step?.blockId, encoding: chunk.inputEncoding === 'text' ? 'text' : 'json', input: undefined, unsent: '',
      streamed: false, preliminary: false, gateId: undefined, gatePending: false,
    }
    tracks.set(toolCallId, track)
    return track
  }

  /** A delta on the tool message's props (creating the message if needed). */
  const delta = (track: ToolTrack, action: DeltaAction, path: string, value: unknown): Op => ({
    op: 'message.delta', turnId, messageId: track.messageId, type: 'tool', role: 'assistant', blockId: track.blockId,
    action, path, value,
  })

  /** A shallow set of the tool message's props; `undefined` fields are left alone. */
  const props = (track: ToolTrack, value: Record<string, unknown>): Op => delta(track, 'set', '', defined(value))

  /**
   * What a chunk carries that the AI SDK keeps on its tool part (the provider's metadata
   * of the call or of the result, `toolMetadata`), plus every field weft does not read,
   * merged into `props.extra`.
   */
  function kept(track: ToolTrack, chunk: Chunk, metadataField: 'callProviderMetadata' | 'resultProviderMetadata' | undefined, ops: Op[]): void {
    // Most chunks (every input delta) carry neither: no allocation for them.
    if (chunk.toolMetadata !== undefined || (metadataField && chunk.providerMetadata != null)) {
      const fields: Record<string, unknown> = { toolMetadata: recordOf(chunk.toolMetadata) }
      if (metadataField) fields[metadataField] = chunk.providerMetadata ?? undefined
      const known = defined(fields)
      if (Object.keys(known).length > 0) ops.push(props(track, known))
    }
    const extra = chunkExtras(chunk as Chunk & { type: string })
    if (extra) ops.push(delta(track, 'merge', '', { extra }))
  }

  const row = (track: ToolTrack, fields: Record<string, unknown>): Op => ({
    op: 'trace.node', turnId,
    node: { id: track.messageId, kind: 'tool', tool: track.name, label: track.title ?? track.name, ...defined(fields) },
  })

  /** A call the stream never announced: start it so nothing the chunk carries is lost. */
  function known(chunk: Chunk, what: string): { track: ToolTrack; ops: Op[] } | { ops: Op[] } {
    const toolCallId = idOf(chunk.toolCallId)
    if (!toolCallId) return { ops: [stream.problem(`${what} without a toolCallId`, chunk, 'missing_id')] }
    const found = tracks.get(toolCallId)
    if (found) return { track: found, ops: [] }
    // The answer goes on after the user acted: the call is an earlier stream's, and its message is kept.
    const prior = stream.priorToolCall?.(toolCallId)
    if (prior) {
      const track = newTrack(toolCallId, prior.name, chunk)
      track.messageId = prior.messageId
      track.blockId = undefined
      return { track, ops: [] }
    }
    const track = newTrack(toolCallId, idOf(chunk.toolName) ?? 'tool', chunk)
    return {
      track,
      ops: [
        stream.problem(`${what} for "${toolCallId}" came before the call; the call was started`, chunk, 'repaired'),
        props(track, { toolCallId, name: track.name }),
        row(track, { status: 'start', parentId: track.blockId }),
      ],
    }
  }

  return { tracks, newTrack, delta, props, kept, row, known }
}
