/**
 * What a protocol's request builder is given: the active path of the
 * conversation and why the request is made. It returns the wire's own body.
 */
import type { RequestBody, SendInput } from '../client/options'
import type { JsonValue } from '../client/gates'
import type { AgentState } from '../model/model'

/**
 * Why a request is made: a new user turn, a new answer to the same question,
 * or the same answer going on after the user acted on it (a tool result, an approval).
 *
 * @example
 * const trigger: RequestTrigger = 'regenerate'
 */
export type RequestTrigger = 'submit' | 'regenerate' | 'continue'

/**
 * A client-side tool as a request declares it to the server.
 *
 * @example
 * const tool: ToolDeclaration = { name: 'getLocation', description: "The user's city", parameters: { type: 'object', properties: {} } }
 */
export interface ToolDeclaration {
  name: string
  description?: string
  /** JSON Schema of the input. */
  parameters?: unknown
}

/**
 * A gate answer a continuing request carries (AG-UI sends these as `resume`).
 *
 * @example
 * const answer: GateAnswerEntry = { gateId: 'g1', kind: 'interrupt', interruptId: 'int-1', response: { approved: true } }
 */
export interface GateAnswerEntry {
  gateId: string
  kind: string
  /** The id the server gave the request (an AG-UI interrupt id, an AI SDK approval id). */
  interruptId?: string
  response: unknown
}

/**
 * Something the page tells the agent beside the conversation (what the person is
 * looking at, their settings): AG-UI's `Context`. The value is JSON data; a
 * protocol whose field takes text sends a value that is not a string as JSON.
 *
 * @example
 * const entry: ContextEntry = { description: 'The open document', value: { title: 'Q3 report', page: 4 } }
 */
export interface ContextEntry {
  description: string
  value: JsonValue
}

/**
 * Everything a request builder may read.
 *
 * @example
 * const body = uiMessageRequest({ state, path: state.turnIds.slice(0, -1), turnId, trigger: 'submit', conversationId: 'c1', runId: 'r1', tools: [], answers: [] })
 */
export interface RequestContext {
  state: AgentState
  /** The turns the request carries, in order: the active path up to the question (or the answer being continued). */
  path: readonly string[]
  /** The assistant turn that will hold the answer. */
  turnId: string
  trigger: RequestTrigger
  /** The conversation (AI SDK chat `id`, AG-UI `threadId`, Yao `chat_id`). */
  conversationId: string
  /** A fresh id for this request (AG-UI `runId`). */
  runId: string
  input?: SendInput
  /** Client-side tools the server may call. */
  tools: readonly ToolDeclaration[]
  /** Gate answers this request continues from. */
  answers: readonly GateAnswerEntry[]
  /** For `regenerate`: the answer turn being replaced by a sibling. */
  replacing?: string
  /** What the page tells the agent (the client's `context` and `addContext`), in that order. */
  context?: readonly ContextEntry[]
}

/**
 * Turns a request context into the wire's own request body.
 *
 * @example
 * const build: RequestBuilder = (context) => ({ messages: context.path })
 */
export type RequestBuilder = (context: RequestContext) => RequestBody
