/**
 * What the client's parts share: the store, the options of the next request,
 * the run driver, the client-tool runner and the host calls in flight. The
 * `AgentClient` front makes one per client and hands it to each part.
 */
import type { ContextEntry } from '../protocol/request'
import type { AgentStore } from '../store/store'
import type { AgentClientOptions } from './options'
import type { RunDriver } from './run-driver'
import type { ClientToolRunner } from './tool-runner'

/** The state one client's parts share. */
export interface ClientContext {
  readonly store: AgentStore
  /** The id requests name the conversation by (AG-UI's `threadId`, the AI SDK's chat `id`). */
  readonly conversationId: string
  /** The options the next request uses; a run in flight keeps the ones it started with. */
  readonly options: AgentClientOptions
  readonly driver: RunDriver
  readonly tools: ClientToolRunner
  /** What the page added with `addContext`, sent with every request after the client's `context` option. */
  readonly frontendContext: Set<ContextEntry>
  /** Host calls in flight (`continueGate`), aborted by a stop. */
  readonly hostCalls: Set<AbortController>
}
