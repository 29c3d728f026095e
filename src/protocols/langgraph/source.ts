/**
 * A LangGraph server as a stream source: the thread (created on the first send
 * unless given), a run created with `POST /threads/{id}/runs`, and its events
 * joined at `GET /threads/{id}/runs/{run_id}/stream` from the first
 * (`Last-Event-ID: -1`). Knowing the run before its first event is what lets a
 * stop cancel the run on the server while a dropped connection only rejoins it.
 */
import type { RequestBody, SendInput, StreamSource, StreamSourceContext } from '../../core/index'
import { fetchJSON, isRecord, joinPath, nonEmpty } from '../../protocol-kit/index'

/**
 * Options of `langGraphSource`.
 *
 * @example
 * const options: LangGraphSourceOptions = { apiUrl: 'http://localhost:2024', assistantId: 'agent' }
 */
export interface LangGraphSourceOptions {
  /** The server's base URL (`langgraph dev` serves `http://localhost:2024`). */
  apiUrl: string
  /** The graph id or assistant id the runs use. */
  assistantId: string
  /**
   * The thread to continue. Without it, a client whose conversation id is a UUID
   * (as `langGraphThreads` names conversations) runs on that thread, created by
   * its first run; otherwise the first send creates one (`POST /threads`).
   */
  threadId?: string
  headers?: HeadersInit | (() => HeadersInit)
  credentials?: RequestCredentials
  /** Stream modes (default `LANGGRAPH_STREAM_MODES`). */
  streamMode?: readonly string[]
  /** The run's `config` (`configurable`, `tags`, `recursion_limit`). */
  config?: Record<string, unknown>
  /** The run's `context` (LangGraph.js 0.4+ runtime context). */
  context?: Record<string, unknown>
  /** The run's `metadata`. */
  metadata?: Record<string, unknown>
  /** How a second run on a busy thread is handled (default the server's: `reject`). */
  multitaskStrategy?: 'reject' | 'rollback' | 'interrupt' | 'enqueue'
  /** Shape the run body yourself, from the one weft built. */
  buildInput?: (defaults: Record<string, unknown>, send: { input: SendInput | undefined; turnId: string }) => Record<string, unknown>
  /** Called with the thread once it is known (created, or given). */
  onThread?: (threadId: string) => void
}

/**
 * A `StreamSource` that remembers its thread between sends.
 *
 * @example
 * source.threadId // the thread the last run went to
 */
export interface LangGraphSource extends StreamSource {
  readonly threadId: string | undefined
}

/**
 * A LangGraph server (`langgraph dev`, LangGraph Platform) as the source of an
 * `AgentClient` / `useAgentStream`. The run body is what `langGraphRequest`
 * builds from the active path, with `assistant_id`, `stream_resumable: true`,
 * `if_not_exists: 'create'` and the options' fields; the client's `body` option applies after that.
 *
 * @example
 * const source = langGraphSource({ apiUrl: 'http://localhost:2024', assistantId: 'agent' })
 * function Assistant() {
 *   const { send, stop } = useAgentStream({ protocol: 'langgraph', source }) // under <AgentProvider protocols={[langGraphProtocol]}>
 *   return <Chat footer={<Composer send={send} stop={stop} />} />
 * }
 */
export function langGraphSource(options: LangGraphSourceOptions): LangGraphSource {
  let threadId = options.threadId
  const headersOf = (json: boolean) => {
    const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
    if (json && !headers.has('content-type')) headers.set('content-type', 'application/json')
    return headers
  }
  const url = (...parts: string[]) => joinPath(options.apiUrl, ...parts.map(encodeURIComponent))

  async function thread(context: StreamSourceContext): Promise<string> {
    if (options.threadId) return options.threadId
    // A conversation named as a thread (`langGraphThreads` names new ones so): its runs go there, created on the first.
    if (UUID.test(context.conversationId)) {
      threadId = context.conversationId
      return threadId
    }
    if (threadId) return threadId
    const { data } = await fetchJSON<unknown>({
      url: url('threads'), method: 'POST', headers: headersOf(true), body: JSON.stringify(options.metadata ? { metadata: options.metadata } : {}),
      credentials: options.credentials, signal: context.signal, fetch: context.fetch,
    })
    const created = isRecord(data) ? nonEmpty(data.thread_id) : undefined
    if (!created) throw new TypeError('the LangGraph server created a thread without a "thread_id"')
    threadId = created
    options.onThread?.(created)
    return created
  }

  async function cancelRun(thread: string, runId: string, fetchImpl: typeof fetch): Promise<void> {
    await fetchImpl(`${url('threads', thread, 'runs', runId, 'cancel')}?action=interrupt`, {
      method: 'POST', headers: headersOf(false), credentials: options.credentials,
    })
  }

  return {
    get threadId() {
      return threadId
    },
    async open(context) {
      const { input, turnId, signal, fetch, dispatch } = context
      const id = await thread(context)
      const built = context.build({ protocol: 'langgraph', conversationId: id, extend: (body) => withRunFields(body, options) })
      const body = options.buildInput && isRecord(built) ? options.buildInput(built, { input, turnId }) : built
      const { data } = await fetchJSON<unknown>({
        url: url('threads', id, 'runs'), method: 'POST', headers: headersOf(true), body: JSON.stringify(body ?? null),
        credentials: options.credentials, signal, fetch,
      })
      const runId = isRecord(data) ? nonEmpty(data.run_id) : undefined
      if (!runId) throw new TypeError('the LangGraph server started a run without a "run_id"')
      dispatch([{ op: 'turn.update', turnId, runId, threadId: id }])
      // Stopped while the run was being created: the client will not ask, so the run is cancelled here.
      if (signal.aborted) void cancelRun(id, runId, fetch).catch(() => undefined)
      const headers = headersOf(false)
      headers.set('last-event-id', '-1')
      return { url: url('threads', id, 'runs', runId, 'stream'), method: 'GET', headers, credentials: options.credentials, runId }
    },
    async cancel({ runId, fetch }) {
      if (threadId && runId) await cancelRun(threadId, runId, fetch)
    },
  }
}

/** A LangGraph thread id. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The source's fields over the builder's body: the assistant, a resumable run, and the options' own. */
function withRunFields(built: RequestBody, options: LangGraphSourceOptions): RequestBody {
  if (!isRecord(built)) return built
  const body: Record<string, unknown> = { ...built, assistant_id: options.assistantId, stream_resumable: true, if_not_exists: 'create' }
  if (options.streamMode) body.stream_mode = [...options.streamMode]
  if (options.config) body.config = options.config
  if (options.context) body.context = options.context
  if (options.metadata) body.metadata = options.metadata
  if (options.multitaskStrategy) body.multitask_strategy = options.multitaskStrategy
  return body
}
