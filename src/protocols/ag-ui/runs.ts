/**
 * The AG-UI runs flow: `POST <runsUrl>` with a `RunAgentInput` answers
 * `202 {taskId, threadId, runId, created}`; the events then stream from
 * `GET <eventsUrl(threadId)>`. One send makes both requests, as a `StreamSource`.
 */
import type { SendInput, StreamSource, StreamSourceContext } from '../../core/client'
import { textOf } from '../../core/client'
import { agUiInputMessageId } from './decoder'
import { isRecord } from '../../core/util/record'
import { newId } from '../../core/ids'
import { fetchJSON } from '../../core/transport/fetch-json'

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
   * Build the request body yourself from the default one. The default carries
   * the user's text (or `content` parts) as one user message whose id is
   * `agUiInputMessageId(turnId)`; a body that keeps that id lets the kit skip
   * the server's echo of it.
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
 * `send('Hello')` (or `send({ text, content, state, forwardedProps, tools, context })`)
 * posts the `RunAgentInput`, records `runId`, `threadId` and `metadata.taskId`
 * on the turn as soon as the server accepts, then streams the thread's events.
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
      const defaults = defaultInput(options, input, turnId, threadId ?? newId('thread'))
      const body = options.buildInput ? options.buildInput(defaults, { input, turnId }) : defaults
      const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      const { data } = await fetchJSON<unknown>({
        url: options.runsUrl, method: 'POST', headers, body: JSON.stringify(body), credentials: options.credentials, signal, fetch,
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

function defaultInput(options: AgUiRunsOptions, input: SendInput | undefined, turnId: string, threadId: string): AgUiRunInput {
  const fields = typeof input === 'object' && input !== null ? input : {}
  const text = textOf(input)
  const content = Array.isArray(fields.content) ? fields.content : text
  const messages = content === undefined ? [] : [{ id: agUiInputMessageId(turnId), role: 'user', content }]
  const state = fields.state !== undefined ? fields.state : typeof options.state === 'function' ? (options.state as () => unknown)() : options.state
  return {
    threadId,
    runId: newId('run'),
    messages,
    tools: Array.isArray(fields.tools) ? fields.tools : options.tools ?? [],
    context: Array.isArray(fields.context) ? fields.context : options.context ?? [],
    state: state ?? {},
    forwardedProps: fields.forwardedProps ?? options.forwardedProps ?? {},
  }
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
