/**
 * The framework-free agent client: one `send` opens a stream, decodes it and
 * feeds the store through the batcher. The React hooks are a thin binding over it.
 */
import { createBatcher, defaultScheduler, type Batcher, type Scheduler } from './batcher'
import { toWeftError, weftError, WeftStreamError, type WeftError } from './errors'
import { newId } from './ids'
import type { ProtocolName } from './model'
import type { Op } from './ops'
import { FrameDecoder } from './pipeline'
import type { DataPart } from './decoders/types'
import type { AgentStore } from './store'
import { openStream, type OpenedStream, type StreamRequest } from './transport/open-stream'

/** What a host passes to `send`: the user's text, or text plus anything the request needs. */
export type SendInput = string | { text?: string; [key: string]: unknown }

/** What a `StreamSource` is given for one send. */
export interface StreamSourceContext {
  input: SendInput | undefined
  turnId: string
  signal: AbortSignal
  fetch: typeof fetch
  /** Apply ops right away (e.g. the run id a preliminary request returned). */
  dispatch(ops: readonly Op[]): void
}

/**
 * How a send reaches its stream, when one request is not enough (AG-UI's
 * `POST /runs` then `GET /events`). Returns the request whose body is the stream.
 *
 * @example
 * const source: StreamSource = { async open({ input }) { return { url: '/events' } } }
 */
export interface StreamSource {
  open(context: StreamSourceContext): Promise<Omit<StreamRequest, 'signal' | 'fetch'>>
}

/**
 * Options for an `AgentClient` (and `useAgentStream`).
 *
 * @example
 * const options: AgentClientOptions = { url: '/api/agent', protocol: 'yao', body: (input) => ({ q: input }) }
 */
export interface AgentClientOptions {
  /** The endpoint that answers with the stream. */
  url?: string
  /** Skip detection. */
  protocol?: ProtocolName
  /** Default `POST`. */
  method?: string
  headers?: HeadersInit | (() => HeadersInit)
  /**
   * The request body: a value, or a function of the send input. Objects are sent
   * as JSON. Default: `{ input: <text> }`.
   */
  body?: unknown | ((input: SendInput | undefined, context: { turnId: string }) => unknown)
  credentials?: RequestCredentials
  /** Replaces the global `fetch`. */
  fetch?: typeof fetch
  /** Give up when the server is silent this long (ms, default 45 000; 0 disables). */
  idleTimeoutMs?: number
  /** Replaces `url`/`method`/`body` when a send needs more than one request. */
  source?: StreamSource
  /** Receives data parts the server marks as transient. */
  onData?: (part: DataPart) => void
  /** Called when a turn ends normally. */
  onFinish?: (turnId: string) => void
  /** Called when a turn ends in an error. */
  onError?: (error: WeftError) => void
  /** When batched ops reach the store (default: once per animation frame in a browser). */
  scheduler?: Scheduler
}

interface ActiveRun {
  turnId: string
  controller: AbortController
  batcher: Batcher
  settled: boolean
}

/**
 * Opens agent streams and folds them into a store.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent' })
 * await client.send('Hello')
 * client.stop()
 */
export class AgentClient {
  private options: AgentClientOptions
  private active: ActiveRun | undefined
  readonly store: AgentStore

  constructor(store: AgentStore, options: AgentClientOptions) {
    this.store = store
    this.options = options
  }

  /** Replace the options; a run in flight keeps the ones it started with. */
  setOptions(options: AgentClientOptions): void {
    this.options = options
  }

  /** True while a request is open. */
  get busy(): boolean {
    return this.active !== undefined && !this.active.settled
  }

  /**
   * Send one input and stream the answer into the store. Resolves when the
   * stream ends; never rejects (failures land in the store as typed errors).
   */
  async send(input?: SendInput): Promise<void> {
    this.stop()
    const options = this.options
    const turnId = newId('turn')
    const controller = new AbortController()
    const dispatch = (ops: readonly Op[]) => this.store.getState().dispatch(ops)
    const run: ActiveRun = { turnId, controller, batcher: createBatcher(dispatch, options.scheduler ?? defaultScheduler()), settled: false }
    this.active = run

    const text = textOf(input)
    const opening: Op[] = []
    if (text !== undefined) {
      const userTurn = newId('user')
      opening.push(
        { op: 'turn.open', turnId: userTurn, role: 'user' },
        { op: 'message.put', turnId: userTurn, messageId: `${userTurn}/text`, role: 'user', type: 'text', props: { content: text }, status: 'done' },
        { op: 'turn.finish', turnId: userTurn, status: 'done' },
      )
    }
    opening.push(
      { op: 'turn.open', turnId, role: 'assistant', protocol: options.protocol },
      { op: 'stream.status', status: 'connecting' },
      { op: 'cursor', cursor: { turnId, eventCount: 0, streamId: undefined, lastEventId: undefined, sequence: undefined, protocol: options.protocol } },
    )
    dispatch(opening)

    try {
      const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
      const request = options.source
        ? await options.source.open({ input, turnId, signal: controller.signal, fetch: fetchImpl, dispatch })
        : defaultRequest(options, input, turnId)
      if (controller.signal.aborted) return
      const stream = await openStream({
        ...request, signal: controller.signal, fetch: fetchImpl, idleTimeoutMs: options.idleTimeoutMs,
      })
      if (controller.signal.aborted) return
      await this.consume(run, stream, options)
    } catch (thrown) {
      if (run.settled || controller.signal.aborted) return
      this.fail(run, toWeftError(thrown, 'network'))
    } finally {
      run.batcher.flush()
      if (this.active === run) run.settled = true
    }
  }

  /** Abort the request in flight and mark its turn `aborted`. */
  stop(): void {
    const run = this.active
    if (!run || run.settled) return
    run.settled = true
    run.batcher.flush()
    this.store.getState().dispatch([
      { op: 'turn.finish', turnId: run.turnId, status: 'aborted' },
      { op: 'stream.status', status: 'aborted' },
    ])
    run.controller.abort()
  }

  /** Abort what is in flight; the client can still send afterwards. */
  dispose(): void {
    this.stop()
  }

  private async consume(run: ActiveRun, stream: OpenedStream, options: AgentClientOptions): Promise<void> {
    const reader = new FrameDecoder({
      turnId: run.turnId, protocol: options.protocol, headers: stream.response.headers, onData: options.onData,
    })
    run.batcher.push([{ op: 'stream.status', status: 'streaming' }])
    let count = 0
    let announced = false
    for await (const frame of stream.frames) {
      count += 1
      run.batcher.push(reader.frame(frame))
      if (!announced && reader.protocol) {
        announced = true
        run.batcher.push([{ op: 'turn.update', turnId: run.turnId, protocol: reader.protocol }, { op: 'cursor', cursor: { protocol: reader.protocol } }])
      }
      run.batcher.push([{ op: 'cursor', cursor: { eventCount: count, lastEventId: stream.lastEventId } }])
    }
    if (stream.endReason === 'aborted' || run.settled) return
    run.batcher.push(reader.end(stream.endReason === 'done' ? 'done' : 'eof'))
    run.batcher.flush()
    run.settled = true
    const turn = this.store.getState().turns[run.turnId]
    if (turn?.status === 'error') {
      const error = turn.error ?? weftError('unknown', 'the agent reported an error')
      this.store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
      options.onError?.(error)
    } else if (turn?.status === 'aborted') {
      this.store.getState().dispatch([{ op: 'stream.status', status: 'aborted' }])
    } else {
      this.store.getState().dispatch([{ op: 'stream.status', status: 'done' }])
      options.onFinish?.(run.turnId)
    }
  }

  private fail(run: ActiveRun, error: WeftError): void {
    run.batcher.flush()
    run.settled = true
    this.store.getState().dispatch([
      { op: 'turn.finish', turnId: run.turnId, status: 'error', error },
      { op: 'stream.status', status: 'error', error },
    ])
    this.options.onError?.(error)
  }
}

/** The user's text in a send input, if any. */
export function textOf(input: SendInput | undefined): string | undefined {
  if (typeof input === 'string') return input
  return typeof input?.text === 'string' ? input.text : undefined
}

function defaultRequest(options: AgentClientOptions, input: SendInput | undefined, turnId: string): Omit<StreamRequest, 'signal' | 'fetch'> {
  if (!options.url) throw new WeftStreamError(weftError('validation', 'the agent client needs a url (or a source)'))
  const raw = typeof options.body === 'function'
    ? (options.body as (i: SendInput | undefined, c: { turnId: string }) => unknown)(input, { turnId })
    : options.body ?? { input: textOf(input) ?? '' }
  const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
  const method = options.method ?? 'POST'
  let body: BodyInit | null = null
  if (method === 'GET' || method === 'HEAD') body = null
  else if (typeof raw === 'string' || raw instanceof Blob || raw instanceof FormData || raw instanceof URLSearchParams) body = raw
  else if (raw !== undefined && raw !== null) {
    body = JSON.stringify(raw)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return { url: options.url, method, headers, body, credentials: options.credentials }
}
