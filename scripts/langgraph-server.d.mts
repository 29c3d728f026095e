/** Graph id → `file:export` of the test graphs (test/langgraph/graphs), as `langgraph.json`'s `graphs` has them. */
export const LANGGRAPH_GRAPHS: Record<string, string>

/** A started LangGraph server (see the module). */
export interface LangGraphServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string
  /** The last few kilobytes the server printed, for a failing test's message. */
  output(): string
  stop(): Promise<void>
}

/** Start LangGraph's in-memory API server with the test graphs, in a child process, and wait until it accepts requests. */
export function startLangGraphServer(options?: {
  port?: number
  graphs?: Record<string, string>
  timeoutMs?: number
  env?: Record<string, string>
}): Promise<LangGraphServer>
