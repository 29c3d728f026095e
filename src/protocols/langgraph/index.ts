/**
 * LangGraph: the protocol definition, the server as a stream source (threads,
 * runs, cancel), rejoining a run, and thread history with its branches. Loads no React.
 *
 * @example
 * import { langGraphProtocol, langGraphSource } from 'weft/protocols/langgraph'
 */
export { langGraphProtocol, sniffLangGraph } from './protocol'
export { createLangGraphDecoder } from './decoder'
export { langGraphRequest, LANGGRAPH_STREAM_MODES } from './request'
export { langGraphSource, type LangGraphSource, type LangGraphSourceOptions } from './source'
export { langGraphResume, joinUrlOf, type LangGraphHandle } from './resume'
export { readLangGraphHistory } from './history'
export { langGraphThreads, type LangGraphThreadsOptions } from './threads'
export { interruptQuestion } from './interrupts'
export type * from '../../core/protocol/entry-types'
export type {
  AgentStore, AgentStoreState, ProtocolInput, StreamSource, StreamSourceContext, StreamSourceCancelContext, SourceBuildOptions, HttpRequest, StreamRequest,
  ConversationStorage, ConversationChange, ConversationRecord, ConversationSummaryRecord, StoredConversation, StoredState, TitleSource,
} from '../../core/index'
