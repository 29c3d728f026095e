/**
 * What a host configures an agent client with, and what it sends.
 */
import type { Scheduler } from '../store/batcher'
import type { WeftError } from '../model/errors'
import type { AttachmentLimits } from './files'
import type { ClientTool } from './tool-calls'
import type { UiTool } from './respond'
import type { ContextEntry } from '../protocol/request'
import type { Gate } from '../model/model'
import type { RequestTrigger } from '../protocol/request'
import type { Op } from '../model/ops'
import type { DataPart, ProtocolDefinition, ProtocolInput } from '../protocol/types'
import type { ResumeStrategyName } from '../resume/strategies/index'
import type { BackoffOptions, HistoryLoader, ResumeStorage, ResumeStrategy } from '../resume/types'
import type { StreamRequest } from '../transport/open-stream'
import type { StreamTransport } from '../transport/transport'
import type { ClientInspector } from './inspector-tap'

/**
 * What a host passes to `send`: the user's text, or text plus anything the request needs.
 *
 * @example
 * const input: SendInput = { text: 'Summarise this', files: [pdfFile] }
 */
export type SendInput = string | { text?: string; files?: readonly Blob[]; [key: string]: unknown }

/**
 * What a `send` does while a run is active: `'queue'` keeps the message until the
 * turn ends; `'steer'` stops the run (its partial answer stays, as interrupted)
 * and sends the message at once, so the model reads its cut-off answer, then it.
 *
 * @example
 * const mode: WhileRunning = 'steer'
 */
export type WhileRunning = 'queue' | 'steer'

/**
 * Options of one `send`.
 *
 * @example
 * await client.send('Actually, make it Lyon', { whileRunning: 'steer' })
 */
export interface SendOptions {
  /** Overrides the client's `whileRunning` for this send. */
  whileRunning?: WhileRunning
}

/**
 * What a `StreamSource` is given for one send.
 *
 * @example
 * const source: StreamSource = { open: async ({ turnId, signal, fetch }) => ({ url: `/events?turn=${turnId}` }) }
 */
export interface StreamSourceContext {
  input: SendInput | undefined
  turnId: string
  signal: AbortSignal
  fetch: typeof fetch
  /** Apply ops right away (e.g. the run id a preliminary request returned). */
  dispatch(ops: readonly Op[]): void
  /** Why this request is made. */
  trigger: RequestTrigger
  /** The client's conversation id (its `conversationId` option, the resume key, or the selected conversation's id). */
  conversationId: string
  /**
   * The protocol's own request body for this send, built from the active path
   * (with the host's `body` option applied last, as for a plain `url`). A source
   * that keeps its own conversation id (AG-UI's `threadId`) passes it, and
   * `extend` adds the source's fields before the host's `body` sees the value.
   * `protocol` names the builder when the client was given none.
   */
  build(options?: SourceBuildOptions): RequestBody | undefined
}

/**
 * What a `StreamSource` may ask of `build`.
 *
 * @example
 * const built = context.build({ protocol: 'ag-ui', conversationId: 'thread-1', extend: (body) => body })
 */
export interface SourceBuildOptions {
  protocol?: ProtocolInput
  conversationId?: string
  extend?: (built: RequestBody) => RequestBody
}

/**
 * A request body: a string, a `Blob`, `FormData` or `URLSearchParams` as they are,
 * or any JSON value (sent as JSON).
 *
 * @example
 * const body: RequestBody = { assistant_id: 'mohe', messages: [] }
 */
export type RequestBody = string | Blob | FormData | URLSearchParams | Record<string, unknown> | readonly unknown[] | number | boolean | null

/**
 * How a send reaches its stream, when one request is not enough (AG-UI's
 * `POST /runs` then `GET /events`). Returns the request whose body is the stream.
 *
 * @example
 * const source: StreamSource = { async open({ input }) { return { url: '/events' } } }
 */
export interface StreamSource {
  open(context: StreamSourceContext): Promise<Omit<StreamRequest, 'signal' | 'fetch'> & { runId?: string }>
  /**
   * The user stopped a run this source's client was streaming (`stop()`, or a
   * steering send, a regenerate or an edit that ends it): tell the server to stop the work too (cancel the run
   * it started). Not called when a resumable stream is only
   * detached, so `attach()` can pick the run up. Failures are ignored.
   */
  cancel?(context: StreamSourceCancelContext): Promise<void> | void
}

/**
 * What `StreamSource.cancel` is told.
 *
 * @example
 * const source: StreamSource = {
 *   open: async () => ({ url: '/events' }),
 *   cancel: async ({ runId, fetch }) => void (await fetch(`/runs/${runId}/cancel`, { method: 'POST' })),
 * }
 */
export interface StreamSourceCancelContext {
  turnId: string
  /** The run the turn streams, as the source's `open` or the stream named it. */
  runId?: string
  fetch: typeof fetch
}

/**
 * How a client resumes its streams. Present: a lost connection reconnects, the
 * handle is persisted per conversation, and `attach()` picks a stream up after a
 * reload. Absent: the client behaves as a plain one-request-per-send client.
 *
 * @example
 * const resume: ResumeOptions = { strategy: 'vocion', conversationKey: 'chat-1', resumeUrl: '/rpc/agent/stream/resume' }
 */
export interface ResumeOptions {
  /**
   * A strategy by name (`sse`, or a protocol's), or the host's own. Default: the
   * strategy of the client's `protocol`.
   */
  strategy?: ResumeStrategy | ResumeStrategyName
  /** The host's key for the conversation; handles are stored under it. */
  conversationKey: string
  /** Where reconnects go (what each strategy does with it is documented on the strategy). */
  resumeUrl?: string
  /** Default `sessionStorage`. */
  storage?: ResumeStorage
  /** Reconnects in a row without progress before giving up (default 5). */
  maxRetries?: number
  backoff?: BackoffOptions
  /**
   * Loads the conversation when the stream cannot be resumed (404/410, or the
   * server finished while nobody listened). Returned turns or ops replace the store's content.
   */
  loadHistory?: HistoryLoader
  /**
   * Where the conversation's stored history is, for when the stream cannot be
   * resumed and no `loadHistory` is given: the client GETs it with its own
   * `fetch`, `headers` and `credentials`, and the active protocol's history
   * reader turns the JSON into the conversation, which replaces the store's
   * content. A failed request, or a document the reader cannot use, ends the run
   * in a typed error and keeps what was already shown.
   *
   * @example
   * const resume: ResumeOptions = {
   *   conversationKey: 'chat-1',
   *   historyUrl: (key) => `/api/chats/${encodeURIComponent(key)}/messages`,
   * }
   */
  historyUrl?: string | ((conversationKey: string) => string)
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
  /** Skip detection: the name of one of `protocols`, or a definition. */
  protocol?: ProtocolInput
  /** What detection chooses among, and where a name is looked up (the `weft` entry's providers give the built-ins; a client made by hand is given them). */
  protocols?: readonly ProtocolDefinition[]
  /** Default `POST`. */
  method?: string
  headers?: HeadersInit | (() => HeadersInit)
  /**
   * The request body: a value, or a function of the send input. Objects are sent
   * as JSON. Default: the protocol's own request built from the active path (the
   * AI SDK chat request, AG-UI's `RunAgentInput`, ...), or `{ input: <text> }`
   * while the protocol is not known yet. A function is handed a copy of that built
   * body, its own to change.
   */
  body?: RequestBody | ((input: SendInput | undefined, context: { turnId: string; built?: RequestBody; trigger: RequestTrigger }) => RequestBody)
  /**
   * The conversation's id on the wire (AI SDK chat `id`, AG-UI `threadId`, Yao `chat_id`). Default: the resume
   * key, else (in React, under a `ConversationsProvider`) the selected conversation's id, else a fresh id per client.
   */
  conversationId?: string
  /**
   * Tools the browser runs when the agent calls them (`{ execute }`), and tools the UI
   * answers (`{ ui: true }`: a renderer of the call gives the result with `respond`);
   * their results go back in the next request.
   */
  tools?: Record<string, ClientTool | UiTool>
  /**
   * What the page tells the agent with every request (AG-UI's `RunAgentInput.context`,
   * an extra `context` field of the AI SDK chat request), before what `addContext` added.
   */
  context?: readonly ContextEntry[]
  /** Requests made on their own after tool results or answers, per user action (default 5). */
  maxSteps?: number
  /**
   * Where a gate's answer goes when the protocol has no request of its own for
   * it (Vocion's `hitl_gate` and its `resumeUrl`). Return a request to stream
   * the rest of the answer into the same turn, or nothing. Without it such a gate cannot be answered.
   */
  continueGate?: (gate: Gate, response: unknown, context: { fetch: typeof fetch; signal: AbortSignal }) => Promise<Omit<StreamRequest, 'signal' | 'fetch'> | void>
  /** Turns a file into a URL; without it files are sent as data URLs. */
  upload?: (file: Blob) => Promise<string>
  /** What a user may attach; a file outside them is refused before anything is sent. */
  attachments?: AttachmentLimits
  credentials?: RequestCredentials
  /** Replaces the global `fetch`. */
  fetch?: typeof fetch
  /**
   * What carries the streams (default `httpSseTransport`: `fetch` and server-sent
   * events). Every request goes through it: sends, gate continuations, a source's
   * request and resume reconnects.
   */
  transport?: StreamTransport
  /** Give up when the server is silent this long (ms, default 45 000; 0 disables). */
  idleTimeoutMs?: number
  /**
   * After the protocol's own end the client reads on to the end of the body, so
   * what a server sends later is folded (a second run) or reported (`after_end`)
   * exactly as `foldStream` would; a server that holds the connection open is
   * let go after this many quiet milliseconds (default 300).
   */
  endGraceMs?: number
  /** Replaces `url`/`method`/`body` when a send needs more than one request. */
  source?: StreamSource
  /** Receives data parts the server marks as transient. */
  onData?: (part: DataPart) => void
  /** Called when a turn ends normally. */
  onFinish?: (turnId: string) => void
  /** Called when a turn ends in an error (or a resumable stream gives up). */
  onError?: (error: WeftError) => void
  /** When batched ops reach the store (default: once per animation frame in a browser, once per network read elsewhere). */
  scheduler?: Scheduler
  /**
   * The clock a turn's timing is stamped with (ms since the epoch; default
   * `Date.now`): when each request is sent, its first token arrives and it ends
   * (`Turn.timing`). Tests pass a fake one.
   */
  clock?: () => number
  /** Resume dropped streams (see `ResumeOptions`). */
  resume?: ResumeOptions
  /**
   * What a `send` does while a run is active (streaming, reconnecting, a client
   * tool or a continuation; a gate waiting for the person is not a run, and a send
   * then goes at once): `'queue'` (default) keeps the message in the
   * store's `queue` and sends it when the turn ends; `'steer'` stops the run,
   * keeps its partial answer as interrupted, and sends the message at once.
   * `send(input, { whileRunning })` overrides it per call.
   */
  whileRunning?: WhileRunning
  /**
   * Told what each run does on the wire: every request (reconnects and attaches
   * too, headers by name with secret values redacted), every frame as it arrived
   * with the ops folded from it, and how the run ended. `createInspector()` of
   * `weft/inspector` makes one; without it the client does no extra work.
   */
  inspector?: ClientInspector
}

/**
 * The `code` of the error a resumable stream ends in when every reconnect failed;
 * `retry()` picks it up again.
 *
 * @example
 * if (error?.code === RESUME_EXHAUSTED) showRetryButton()
 */
export const RESUME_EXHAUSTED = 'resume_exhausted'

/**
 * The `code` of the problem a resumable stream's turn records when the server
 * has no stream to resume (it answers the resume request 404, 405 or 410) and no
 * history loader was given: the turn keeps what arrived and ends `aborted`.
 *
 * @example
 * if (turn.problems?.some((p) => p.code === RESUME_EXPIRED)) offerRetry(turn.id)
 */
export const RESUME_EXPIRED = 'resume_expired'
