/**
 * Yao's hierarchical stream: chunk, message, block and thread ids, delta
 * merging at a path, and lifecycle events sent as `type: "event"` messages.
 * Lifecycle events are read in `lifecycle.ts`, where a message goes in
 * `message-places.ts`, and tool calls in `tool-calls.ts`.
 */
import type { DecodeContext, Decoder, DeltaAction, DetectInput, FrameMeta, Op } from '../../core/index'
import { createHeldAppends, createIdScope, getAt, idOf, isRecord, parsePath, PathError, protocolProblem } from '../../protocol-kit/index'
import { type YaoChunk, yaoChunkExtras } from './chunk-fields'
import { lifecycleOps, streamStartOf, YAO_LIFECYCLE_EVENTS } from './lifecycle'
import { createMessagePlaces } from './message-places'
import { createYaoToolCalls } from './tool-calls'

/** A key that reads the same as a one-segment path. */
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/
const plainKeys = new Map<string, boolean>()

function isPlainKey(key: string): boolean {
  let plain = plainKeys.get(key)
  if (plain === undefined) {
    plain = PLAIN_KEY.test(key)
    if (plainKeys.size < 256) plainKeys.set(key, plain)
  }
  return plain
}

const DELTA_ACTIONS: ReadonlySet<string> = new Set<DeltaAction>(['append', 'replace', 'merge', 'set'])

/**
 * A decoder for one Yao stream.
 *
 * @example
 * const d = createYaoDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true }, {})
 */
export function createYaoDecoder(context: DecodeContext): Decoder {
  const { turnId, scope } = context
  const seenChunks = new Set<string>()
  let ended = false
  let lastSequence: number | undefined
  /** Ids restart with each request: the first request's ids sit under `scope`, later ones under `scope/r<n>`. */
  const ids = createIdScope(scope)
  /** The request the last `stream_start` opened (undefined before one arrived). */
  let request: { id: string | undefined } | undefined

  /** A batch's plain tokens, one append per message (see `createHeldAppends`). */
  const held = createHeldAppends()
  /** Set by `content` when it held the chunk's text: what it returned is already in order. */
  let tokenHeld = false

  const scoped = (id: string) => ids.id(id)
  const places = createMessagePlaces(turnId, scoped)
  const { messageTypes } = places
  const tools = createYaoToolCalls(turnId, scoped)
  const lifecycleScope = {
    turnId, scoped, places, tools,
    markEnded: () => {
      ended = true
    },
  }

  /** A `stream_start` on a connection that already carried a request: its ids are new ones. */
  function openRequest(): Op[] {
    const reopen = ended
    ids.restart()
    seenChunks.clear()
    places.clear()
    tools.clear()
    ended = false
    return reopen ? [{ op: 'turn.open', turnId, role: 'assistant' }] : []
  }
  const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem(turnId, message, raw, code)

  /**
   * One chunk. A plain token (see `content`) joins its message's held append; any
   * other chunk's ops come after every held append, so messages keep their order.
   */
  function decode(event: unknown, meta: FrameMeta): Op[] {
    const ops = decodeChunk(event, meta)
    if (tokenHeld) {
      tokenHeld = false
      return ops
    }
    if (ops.length === 0 || held.size === 0) return ops
    const written = held.take()
    for (const op of ops) written.push(op)
    return written
  }

  function decodeChunk(event: unknown, meta: FrameMeta): Op[] {
    if (meta.event === 'read_complete') {
      const lastSeq = isRecord(event) ? event.last_seq : undefined
      if (typeof lastSeq === 'number') lastSequence = lastSeq
      return []
    }
    if (!isRecord(event)) return [problem('a Yao chunk must be an object', event)]
    const chunk = event as YaoChunk
    const ops: Op[] = []
    const start = streamStartOf(chunk)
    if (start) {
      // A new request on the same connection: a repeat of the current one's start is not.
      if (ended || (request !== undefined && start.requestId !== request.id)) ops.push(...openRequest())
      request = { id: start.requestId }
    } else if (ended) {
      return [problem(`a "${idOf(chunk.type) ?? 'chunk'}" arrived after stream_end; it was ignored`, event, 'after_end')]
    }
    const chunkId = idOf(chunk.chunk_id)
    if (chunkId !== undefined) {
      if (seenChunks.has(chunkId)) return [] // a repeated chunk applies once
      seenChunks.add(chunkId)
    }
    const sequence = chunk.metadata?.sequence
    if (typeof sequence === 'number') lastSequence = sequence

    const type = idOf(chunk.type)
    if (type === undefined) {
      ops.push(problem('a Yao chunk has no type', event, 'missing_type'))
      return ops
    }
    const props = isRecord(chunk.props) ? chunk.props : {}
    if (chunk.props !== undefined && !isRecord(chunk.props)) ops.push(problem('a Yao chunk\'s props must be an object', event, 'invalid'))
    if (type === 'event' && YAO_LIFECYCLE_EVENTS.has(String(props.event))) {
      // Yao puts an event's fields under `props.data`; older servers put them in props itself.
      if (props.data !== undefined && !isRecord(props.data)) ops.push(problem(`${String(props.event)} data must be an object`, event, 'invalid'))
      const data = isRecord(props.data) ? { ...props, ...props.data } : props
      ops.push(...lifecycleOps(String(props.event), data, chunk, lifecycleScope))
      return ops
    }
    ops.push(...content(type, props, chunk))
    return ops
  }

  function content(wireType: string, props: Record<string, unknown>, chunk: YaoChunk): Op[] {
    const named = idOf(chunk.message_id)
    const wireId = named === undefined ? places.anonymousMessageId(chunk) : places.serverMessageId(named)
    const known = messageTypes.get(wireId)
    const typeChange = chunk.type_change === true
    // Only a boolean is a flag: `null`, `0`, `""` or `[]` count as no flag, never as "replace".
    const flag = typeof chunk.delta === 'boolean' ? chunk.delta : undefined
    // A delta of another type re-types the message, as Yao's client does (`current.type = chunk.type`).
    const retype = typeChange || (flag === true && known !== undefined && known !== wireType)
    messageTypes.set(wireId, wireType)
    const parentWire = places.parentOf(wireId, props, chunk)
    const where = places.place(wireId, wireType, chunk, props, parentWire)
    // Nested under its parent, a chunk's own thread is not its place: it is kept with the message.
    const movedThread = parentWire !== undefined ? idOf(chunk.thread_id) : undefined

    // `delta: false` replaces; an absent flag on a message already streaming of the
    // same type merges, as Yao's concurrent example shows (C1 + C3 → one message).
    const isDelta = flag === true || (flag === undefined && known === wireType && named !== undefined)
    // A token that carries only its text (an append of `content` to the whole props, no
    // field of its own) is held, and reaches the message with the batch's other tokens.
    if (isDelta && (chunk.delta_action === undefined || chunk.delta_action === 'append') && (chunk.delta_path === undefined || chunk.delta_path === '') && !retype && !movedThread
      && wireType !== 'tool_call' && wireType !== 'execute' && typeof props.content === 'string' && onlyContent(props)
      && yaoChunkExtras(chunk as Record<string, unknown>) === undefined) {
      tokenHeld = true
      return held.hold(where, props.content)
    }
    const ops: Op[] = []
    if (!isDelta) {
      ops.push({ op: 'message.put', ...where, type: where.type as string, props })
    } else {
      const action = chunk.delta_action === undefined ? 'append' : idOf(chunk.delta_action)
      if (!action || !DELTA_ACTIONS.has(action)) {
        return [problem(`unknown delta_action "${String(chunk.delta_action)}"; the chunk was ignored`, chunk, 'delta_action')]
      }
      const path = idOf(chunk.delta_path) ?? ''
      let value: unknown
      try {
        value = getAt(props, parsePath(path))
      } catch (thrown) {
        return [problem(thrown instanceof PathError ? thrown.message : 'bad delta_path', chunk, 'delta_path')]
      }
      if (action === 'append' && path === '' && !retype) {
        // An append to all of props appends key by key; one op per key lets a
        // batch's tokens for `content` merge into one write.
        for (const key of Object.keys(props)) {
          ops.push(isPlainKey(key)
            ? { op: 'message.delta', ...where, action: 'append', path: key, value: props[key] }
            : { op: 'message.delta', ...where, action: 'append', path: '', value: { [key]: props[key] } })
        }
        if (ops.length === 0) ops.push({ op: 'message.delta', ...where, action: 'merge', path: '', value: {} })
      } else {
        ops.push({ op: 'message.delta', ...where, action: action as DeltaAction, path, value, retype })
      }
    }
    // The chunk's own fields beyond weft's (not its props, which are the message's): merged, under their own prop.
    const extra = yaoChunkExtras(chunk as Record<string, unknown>)
    const kept = movedThread ? { ...extra, thread_id: movedThread } : extra
    if (kept) ops.push({ op: 'message.delta', ...where, action: 'merge', path: 'extra', value: kept })
    const appends = isDelta && (chunk.delta_action ?? 'append') === 'append'
    if (wireType === 'tool_call') ops.push(...tools.toolCall(wireId, props, appends))
    if (wireType === 'execute') ops.push(tools.executeNode(wireId, props))
    return ops
  }

  return {
    protocol: 'yao',
    decode,
    // A read's end and a connection lost for good write what the tokens gathered.
    flush: () => held.take(),
    release: () => held.take(),
    // A body that ends closes the turn; one that ends without `stream_end` was cut off, which the pipeline records.
    end() {
      const ops = held.take()
      if (ended) return ops
      ended = true
      ops.push({ op: 'turn.finish', turnId, status: 'done' })
      return ops
    },
    get ended() {
      return ended
    },
    cursor() {
      return lastSequence === undefined ? {} : { sequence: lastSequence }
    },
  }
}

/** Whether `props` has one key, `content`. */
function onlyContent(props: Record<string, unknown>): boolean {
  let keys = 0
  for (const key in props) if (++keys > 1 || key !== 'content') return false
  return keys === 1
}

/**
 * How sure it is that a stream speaks Yao: a first event with `chunk_id` or a Yao `type` and `props`.
 *
 * @example
 * sniffYao({ first: { chunk_id: 'C1', type: 'text', props: { content: 'Hi' } } }) // 1
 */
export function sniffYao({ first }: DetectInput): number {
  if (!isRecord(first)) return 0
  if (typeof first.chunk_id === 'string') return 1
  if (typeof first.type === 'string' && isRecord(first.props)) return 0.8
  return 0
}
