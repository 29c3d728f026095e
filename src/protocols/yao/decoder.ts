/**
 * Yao's hierarchical stream: chunk, message, block and thread ids, delta
 * merging at a path, and lifecycle events sent as `type: "event"` messages.
 */
import { type DecodeContext, type Decoder, type DeltaAction, type DetectInput, type FrameMeta, type Op, type WeftError, weftError } from '../../core/index'
import { createHeldAppends, createIdScope, getAt, idOf, isRecord, parsePath, PathError, protocolProblem } from '../../protocol-kit/index'
import { yaoChunkExtras, yaoLifecycleExtras } from './chunk-fields'

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

const LIFECYCLE: ReadonlySet<string> = new Set([
  'stream_start', 'stream_end', 'block_start', 'block_end', 'message_start', 'message_end', 'thread_start', 'thread_end',
])

/** Yao's message types that have a name of their own in weft's model (a Map: `type: "toString"` finds nothing). */
const TYPE_NAMES: ReadonlyMap<string, string> = new Map([['thinking', 'reasoning'], ['tool_call', 'tool']])

/** One Yao chunk, as far as the decoder reads it. */
interface YaoChunk {
  type?: unknown
  props?: unknown
  chunk_id?: unknown
  message_id?: unknown
  block_id?: unknown
  thread_id?: unknown
  delta?: unknown
  delta_path?: unknown
  delta_action?: unknown
  type_change?: unknown
  metadata?: { sequence?: unknown }
}

/** What the decoder remembers about a tool call while its arguments stream. */
interface ToolCallTrack {
  toolCallId: string
  name: string
  inputText: string
  traceId: string
}

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
  const messageTypes = new Map<string, string>()
  /** A message's parent (Yao's `parent_message_id`: a sub-agent's calls under its agent message), and each message's block. */
  const parents = new Map<string, string>()
  const messageBlocks = new Map<string, string | undefined>()
  const tools = new Map<string, ToolCallTrack>()
  let anonymous = 0
  /**
   * A chunk without a `message_id` is a message of its own, named `<chunk_id>#<n>`:
   * the names it took, and the server's ids that one of them had taken first, each
   * renamed, so that neither message lands on the other.
   */
  const anonymousIds = new Set<string>()
  const renamed = new Map<string, string>()
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

  /** A `stream_start` on a connection that already carried a request: its ids are new ones. */
  function openRequest(): Op[] {
    const reopen = ended
    ids.restart()
    seenChunks.clear()
    messageTypes.clear()
    parents.clear()
    messageBlocks.clear()
    anonymousIds.clear()
    renamed.clear()
    tools.clear()
    ended = false
    return reopen ? [{ op: 'turn.open', turnId, role: 'assistant' }] : []
  }
  const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem(turnId, message, raw, code)

  /** The id a server's `message_id` stands for here: itself, unless an anonymous chunk took that name first. */
  function serverMessageId(id: string): string {
    if (!anonymousIds.has(id)) return id
    let own = renamed.get(id)
    if (own === undefined) {
      let n = 1
      do own = `${id}~${n++}`
      while (messageTypes.has(own) || anonymousIds.has(own))
      renamed.set(id, own)
    }
    return own
  }

  /** A new name for a chunk without a `message_id`, one that no message of this request has. */
  function anonymousMessageId(chunk: YaoChunk): string {
    const base = idOf(chunk.chunk_id) ?? 'chunk'
    let id: string
    do id = `${base}#${++anonymous}`
    while (messageTypes.has(id) || anonymousIds.has(id))
    anonymousIds.add(id)
    return id
  }

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
    if (type === 'event' && LIFECYCLE.has(String(props.event))) {
      // Yao puts an event's fields under `props.data`; older servers put them in props itself.
      if (props.data !== undefined && !isRecord(props.data)) ops.push(problem(`${String(props.event)} data must be an object`, event, 'invalid'))
      const data = isRecord(props.data) ? { ...props, ...props.data } : props
      ops.push(...lifecycle(String(props.event), data, chunk))
      return ops
    }
    ops.push(...content(type, props, chunk))
    return ops
  }

  function lifecycle(name: string, props: Record<string, unknown>, chunk: YaoChunk): Op[] {
    const blockId = idOf(props.block_id) ?? idOf(chunk.block_id)
    const threadId = idOf(props.thread_id) ?? idOf(chunk.thread_id)
    const named = idOf(props.message_id) ?? idOf(chunk.message_id)
    const messageId = named === undefined ? undefined : serverMessageId(named)
    // What the event carries beyond weft's fields goes on what it opens or closes: the turn, the block's row, the thread, the message.
    const extra = yaoLifecycleExtras(name, props, chunk as Record<string, unknown>)
    const kept = extra ? { extra } : {}
    switch (name) {
      case 'stream_start':
        return [{
          op: 'turn.update', turnId,
          metadata: { ...pick(props, { request_id: 'requestId', chat_id: 'chatId', trace_id: 'traceId', assistant: 'assistant' }), ...kept },
        }]
      case 'stream_end':
        return streamEnd(props, extra)
      case 'block_start': {
        if (!blockId) return [problem('block_start without a block_id', props)]
        const kind = idOf(props.type) ?? 'block'
        const label = idOf(props.label)
        return [
          { op: 'block.open', turnId, blockId: scoped(blockId), kind, label },
          { op: 'trace.node', turnId, node: { id: scoped(blockId), kind, label: label ?? kind, status: 'start', ...kept } },
        ]
      }
      case 'block_end':
        if (!blockId) return [problem('block_end without a block_id', props)]
        return [
          { op: 'block.close', blockId: scoped(blockId), status: props.status === 'error' ? 'error' : 'done' },
          { op: 'trace.node', turnId, node: { id: scoped(blockId), status: props.status === 'error' ? 'error' : 'done', ...kept } },
        ]
      case 'thread_start':
        if (!threadId) return [problem('thread_start without a thread_id', props)]
        return [{ op: 'thread.open', turnId, threadId: scoped(threadId), blockId: blockId && scoped(blockId), label: idOf(props.label), ...kept }]
      case 'thread_end':
        if (!threadId) return [problem('thread_end without a thread_id', props)]
        return [{ op: 'thread.close', threadId: scoped(threadId), status: props.status === 'error' ? 'error' : 'done', ...kept }]
      case 'message_start': {
        if (!messageId) return [problem('message_start without a message_id', props)]
        const wireType = idOf(props.type) ?? 'text'
        messageTypes.set(messageId, wireType)
        const ops: Op[] = [{
          op: 'message.delta', action: 'merge', path: '', value: kept, ...place(messageId, wireType, chunk, props),
        }]
        if (wireType === 'tool_call' && isRecord(props.tool_call)) ops.push(...toolCall(messageId, props.tool_call, false))
        return ops
      }
      case 'message_end': {
        if (!messageId) return [problem('message_end without a message_id', props)]
        const ops: Op[] = []
        const wireType = messageTypes.get(messageId)
        const final = isRecord(props.extra) ? props.extra.content : undefined
        // The server's final text (Yao's `extra.content`) wins over what the deltas built, in case some were dropped.
        if (typeof final === 'string' && (wireType === 'text' || wireType === 'thinking')) {
          ops.push({ op: 'message.delta', turnId, messageId: scoped(messageId), action: 'set', path: 'content', value: final })
        }
        const failed = props.status === 'error'
        if (extra) ops.push({ op: 'message.delta', turnId, messageId: scoped(messageId), action: 'merge', path: 'extra', value: extra })
        ops.push({ op: 'message.finish', messageId: scoped(messageId), status: failed ? 'error' : 'done' })
        const tool = tools.get(messageId)
        if (tool) ops.push(...toolFinished(messageId, tool, failed))
        return ops
      }
      default:
        return []
    }
  }

  function streamEnd(props: Record<string, unknown>, extra: Record<string, unknown> | undefined): Op[] {
    ended = true
    const ops: Op[] = extra ? [{ op: 'turn.update', turnId, metadata: { extra } }] : []
    if (isRecord(props.usage)) ops.push({ op: 'turn.update', turnId, usage: props.usage })
    if (typeof props.duration_ms === 'number') ops.push({ op: 'turn.update', turnId, metadata: { durationMs: props.duration_ms } })
    const status = props.status
    if (status === 'error') ops.push({ op: 'turn.finish', turnId, status: 'error', error: endError(props.error) })
    else if (status === 'cancelled') ops.push({ op: 'turn.finish', turnId, status: 'aborted' })
    else ops.push({ op: 'turn.finish', turnId, status: 'done' })
    return ops
  }

  function content(wireType: string, props: Record<string, unknown>, chunk: YaoChunk): Op[] {
    const named = idOf(chunk.message_id)
    const wireId = named === undefined ? anonymousMessageId(chunk) : serverMessageId(named)
    const known = messageTypes.get(wireId)
    const typeChange = chunk.type_change === true
    // Only a boolean is a flag: `null`, `0`, `""` or `[]` count as no flag, never as "replace".
    const flag = typeof chunk.delta === 'boolean' ? chunk.delta : undefined
    // A delta of another type re-types the message, as Yao's client does (`current.type = chunk.type`).
    const retype = typeChange || (flag === true && known !== undefined && known !== wireType)
    messageTypes.set(wireId, wireType)
    const parentWire = parentOf(wireId, props, chunk)
    const where = place(wireId, wireType, chunk, props, parentWire)
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
    if (wireType === 'tool_call') ops.push(...toolCall(wireId, props, appends))
    if (wireType === 'execute') ops.push(executeNode(wireId, props))
    return ops
  }

  /**
   * The message a message nests under: Yao's client reads `parent_message_id` from the
   * message's props (a chunk-level one is read too), remembers it, and nests the
   * message only while that parent is a message it has.
   */
  function parentOf(wireId: string, props: Record<string, unknown>, chunk: YaoChunk): string | undefined {
    const named = idOf(props.parent_message_id) ?? idOf((chunk as Record<string, unknown>).parent_message_id)
    if (named !== undefined) {
      const parent = serverMessageId(named)
      if (parent !== wireId) parents.set(wireId, parent)
    }
    const parent = parents.get(wireId)
    return parent !== undefined && messageTypes.has(parent) ? parent : undefined
  }

  /**
   * Where a message goes. A child of another message goes in its parent's lane of
   * children (the thread `<parent's id>/children`, in the parent's block), as Yao's
   * client puts it in the parent's `props.children`.
   */
  function place(wireId: string, wireType: string, chunk: YaoChunk, props: Record<string, unknown>, parent?: string) {
    const named = idOf(chunk.block_id) ?? (wireType === 'event' ? undefined : idOf(props.block_id))
    if (!messageBlocks.has(wireId) || (named && !messageBlocks.get(wireId))) messageBlocks.set(wireId, named)
    const blockId = parent !== undefined ? messageBlocks.get(parent) ?? named : named
    const threadId = parent !== undefined ? undefined : idOf(chunk.thread_id)
    return {
      turnId,
      messageId: scoped(wireId),
      type: TYPE_NAMES.get(wireType) ?? wireType,
      role: 'assistant' as const,
      blockId: blockId && scoped(blockId),
      threadId: parent !== undefined ? `${scoped(parent)}/children` : threadId && scoped(threadId),
    }
  }

  /** Keep a tool call's arguments text and expose it the way every protocol does. */
  function toolCall(wireId: string, props: Record<string, unknown>, appends: boolean): Op[] {
    let track = tools.get(wireId)
    if (!track) {
      track = { toolCallId: idOf(props.id) ?? wireId, name: idOf(props.name) ?? 'tool', inputText: '', traceId: scoped(`tool:${wireId}`) }
      tools.set(wireId, track)
    }
    if (idOf(props.id)) track.toolCallId = idOf(props.id) as string
    if (idOf(props.name)) track.name = idOf(props.name) as string
    const args = props.arguments
    if (typeof args === 'string') track.inputText = appends ? track.inputText + args : args
    else if (isRecord(args)) track.inputText = JSON.stringify(args)
    const input = tryParse(track.inputText)
    return [
      {
        op: 'message.delta', turnId, messageId: scoped(wireId), action: 'set', path: '',
        value: {
          toolCallId: track.toolCallId, name: track.name, inputText: track.inputText,
          ...(input.ok ? { input: input.value } : {}),
          state: input.ok ? 'input-available' : 'input-streaming',
        },
      },
      { op: 'trace.node', turnId, node: { id: track.traceId, kind: 'tool', tool: track.name, label: track.name, status: 'progress', ...(input.ok ? { args: input.value } : {}) } },
    ]
  }

  function toolFinished(wireId: string, track: ToolCallTrack, failed: boolean): Op[] {
    const input = tryParse(track.inputText)
    return [
      {
        op: 'message.delta', turnId, messageId: scoped(wireId), action: 'set', path: '',
        value: { state: failed ? 'output-error' : 'input-available', ...(input.ok ? { input: input.value } : {}) },
      },
      { op: 'trace.node', turnId, node: { id: track.traceId, status: failed ? 'error' : 'done' } },
    ]
  }

  function executeNode(wireId: string, props: Record<string, unknown>): Op {
    const status = props.status === 'completed' ? 'done' : props.status === 'error' ? 'error' : 'progress'
    const tool = idOf(props.tool)
    return {
      op: 'trace.node', turnId,
      node: { id: scoped(`execute:${wireId}`), kind: 'tool', label: tool ?? 'execute', tool, args: props.input, result: props.output, status },
    }
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

/** The request a `stream_start` event opens, or undefined for any other chunk. */
function streamStartOf(chunk: YaoChunk): { requestId: string | undefined } | undefined {
  if (chunk.type !== 'event' || !isRecord(chunk.props) || chunk.props.event !== 'stream_start') return undefined
  const data = isRecord(chunk.props.data) ? chunk.props.data : chunk.props
  return { requestId: idOf(data.request_id) }
}

function endError(raw: unknown): WeftError {
  if (isRecord(raw)) {
    return weftError('internal', idOf(raw.message) ?? 'the agent stream ended with an error', { code: idOf(raw.code), retryable: false })
  }
  return weftError('internal', idOf(raw) ?? 'the agent stream ended with an error', { retryable: false })
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: false }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function pick(source: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [from, to] of Object.entries(names)) if (source[from] !== undefined) out[to] = source[from]
  return out
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
