/**
 * The AG-UI runs flow: `POST <runsUrl>` with a `RunAgentInput` answers
 * `202 {taskId, threadId, runId, created}`; the events then stream from
 * `GET <eventsUrl(threadId)>`. One send makes both requests, as a `StreamSource`.
 */
import type { SendInput, StreamSource, StreamSourceContext } from '../../core/index'
import { fetchJSON, isRecord, newId, textOf } from '../../protocol-kit/index'
import { agUiInputMessageId } from './decoder'

/**
 * The body of `POST /runs`, as AG-UI defines it.
 *
 * @example
 * const input: AgUiRunInput = { threadId: 't1', runId: 'r1', messages: [{ id: 'u1', role: 'user', content: 'Hi' }], tools: [], context: [], state: {}, forwardedProps: {} }
 */
export interface AgUiRunInput {
  threadId: string
  runId: string
  messages: Array<Record<string, unknown>>
  tools: unknown[]
  context: unknown[]
  state: unknown
  forwardedProps: unknown
  [key: string]: unknown
}

/**
 * What `POST /runs` answers.
 *
 * @example
 * const accepted: AgUiRunAccepted = { taskId: 'task_1', threadId: 't1', runId: 'r1', created: true }
 */
export interface AgUiRunAccepted {
  taskId?: string
  threadId: string
  runId: string
  /** Whether this request created the conversation. */
  created?: boolean
}

/**
 * Options of `agUiRunsSource`. Every path is the host's own.
 *
 * @example
 * const options: AgUiRunsOptions = {
 *   runsUrl: '/api/v1/agent/runs',
 *   eventsUrl: (threadId) => `/api/v1/agent/runs/${encodeURIComponent(threadId)}/events`,
 *   historyUrl: '/api/v1/agent/history',
 * }
 */
export interface AgUiRunsOptions {
  runsUrl: string
  eventsUrl: (threadId: string) => string
  /** The history endpoint (`useAgUiHistory` reads it; kept here so one options object describes the back end). */
  historyUrl?: string
  headers?: HeadersInit | (() => HeadersInit)
  credentials?: RequestCredentials
  /** The conversation to continue; by default the one the server named in its last answer, else a new id. */
  threadId?: string
  tools?: unknown[]
  context?: unknown[]
  /** The shared state to send, or a function that reads it (e.g. `() => store.getState().agentState`). */
  state?: unknown
  forwardedProps?: unknown
  /**
   * Shape the request body yourself, from the default one: the `RunAgentInput`
   * AG-UI's request builder makes of the active path (the same body a plain
   * `url` client sends), with this source's thread and fields, after the
   * client's own `body` option.
   */
  buildInput?: (defaults: AgUiRunInput, send: { input: SendInput | undefined; turnId: string }) => unknown
  /** Called with the server's answer to `POST /runs`. */
  onAccepted?: (accepted: AgUiRunAccepted) => void
}

/**
 * A `StreamSource` that remembers the conversation (`threadId`) between sends.
 *
 * @example
 * source.threadId // the thread the last run went to
 */
export interface AgUiRunsSource extends StreamSource {
  readonly threadId: string | undefined
}

/**
 * The runs flow as a stream source for `AgentClient` / `useAgentStream`.
 *
 * The body of `POST /runs` is the `RunAgentInput` of AG-UI's request builder:
 * the active path (earlier turns, tool results, `resume` answers), the client's
 * tools, and this source's `threadId`; the source's `tools` are added, and its
 * `context`, `state` and `forwardedProps` (or the send's own) replace the
 * builder's. The client's `body` option applies after that, as for any request.
 * The server's `runId`, `threadId` and `metadata.taskId` go on the turn as soon
 * as it accepts; then the thread's events stream.
 *
 * @example
 * const client = new AgentClient(store, {
 *   protocol: 'ag-ui',
 *   source: agUiRunsSource({
 *     runsUrl: '/api/v1/agent/runs',
 *     eventsUrl: (threadId) => `/api/v1/agent/runs/${encodeURIComponent(threadId)}/events`,
 *   }),
 * })
 * await client.send('What is on my calendar today?')
 */
export function agUiRunsSource(options: AgUiRunsOptions): AgUiRunsSource {
  let threadId = options.threadId

  return {
    get threadId() {
      return threadId
    },
    async open(context: StreamSourceContext) {
      const { input, turnId, signal, fetch, dispatch } = context
      const built = context.build({
        protocol: 'ag-ui',
        conversationId: threadId ?? newId('thread'),
        extend: (body) => (isRecord(body) ? withSourceFields(body, options, input, turnId) : body),
      })
      const defaults = (isRecord(built) ? built : {}) as AgUiRunInput
      const body = options.buildInput ? options.buildInput(defaults, { input, turnId }) : built
      const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      const { data } = await fetchJSON<unknown>({
        url: options.runsUrl, method: 'POST', headers, body: JSON.stringify(body ?? null), credentials: options.credentials, signal, fetch,
      })
      const accepted = readAccepted(data, isRecord(body) ? body : defaults)
      threadId = accepted.threadId
      dispatch([{
        op: 'turn.update', turnId, runId: accepted.runId, threadId: accepted.threadId,
        metadata: { ...(accepted.taskId !== undefined ? { taskId: accepted.taskId } : {}), ...(accepted.created !== undefined ? { created: accepted.created } : {}) },
      }])
      options.onAccepted?.(accepted)
      const streamHeaders = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
      return {
        url: options.eventsUrl(accepted.threadId), method: 'GET', headers: streamHeaders, credentials: options.credentials,
        runId: accepted.runId,
      }
    },
  }
}

/** The source's own fields over the builder's: its tools are added; its context, state and forwarded props (or the send's) win. */
function withSourceFields(built: Record<string, unknown>, options: AgUiRunsOptions, input: SendInput | undefined, turnId: string): Record<string, unknown> {
  const fields = typeof input === 'object' && input !== null ? input : {}
  const body: Record<string, unknown> = { ...built }
  // `send({ content })` sends AG-UI content parts as the user's message (the store shows only its text and files).
  if (Array.isArray(fields.content)) {
    const messages = Array.isArray(built.messages) ? [...built.messages] : []
    const last = messages.at(-1)
    if (textOf(input) !== undefined && isRecord(last) && last.role === 'user') messages[messages.length - 1] = { ...last, content: fields.content }
    else messages.push({ id: agUiInputMessageId(turnId), role: 'user', content: fields.content })
    body.messages = messages
  }
  const tools = Array.isArray(fields.tools) ? fields.tools : options.tools
  if (tools) body.tools = [...(Array.isArray(built.tools) ? built.tools : []), ...tools]
  const context = Array.isArray(fields.context) ? fields.context : options.context
  if (context) body.context = context
  const state = fields.state !== undefined ? fields.state : typeof options.state === 'function' ? (options.state as () => unknown)() : options.state
  if (state !== undefined) body.state = state
  const forwardedProps = fields.forwardedProps ?? options.forwardedProps
  if (forwardedProps !== undefined) body.forwardedProps = forwardedProps
  return body
}

/** The server's ids win; a field it left out keeps the value the request sent. */
function readAccepted(data: unknown, sent: Record<string, unknown>): AgUiRunAccepted {
  const answer = isRecord(data) ? data : {}
  const pick = (name: string) => {
    const value = answer[name] ?? sent[name]
    return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined
  }
  const accepted: AgUiRunAccepted = { threadId: pick('threadId') ?? newId('thread'), runId: pick('runId') ?? newId('run') }
  const taskId = answer.taskId
  if (typeof taskId === 'string' || typeof taskId === 'number') accepted.taskId = String(taskId)
  if (typeof answer.created === 'boolean') accepted.created = answer.created
  return accepted
}
