/**
 * weft's React binding: the provider, the headless hooks and the selector hooks.
 */
export { AgentProvider, useAgentStore, type AgentProviderProps } from './provider'
export { useSendRefusal } from './store-context'
export { useAgentStream, type UseAgentStreamOptions, type AgentStreamHandle } from './use-agent-stream'
export { useResumableStream, type UseResumableStreamOptions, type ResumableStreamHandle } from './use-resumable-stream'
export {
  useAgentSelector, useAgentSelectorShallow, useTurnIds, useTurns, useTurn, useMessage, useBlocks, useThread,
  useTrace, useGates, useStatus, useStreamError, useTraceNode, useTraceRootIds, useHeadline, useTraceSummary,
  useCitations, useSources, useGate,
} from './selectors'
export { useBranch, type BranchHandle } from './use-branch'
export {
  ConversationsProvider, useConversations, useConversationStore, useConversationId,
  type ConversationsProviderProps, type ConversationsHandle,
} from './conversations'
export { useHistory, useOlderOnScroll, type UseHistoryOptions, type HistoryHandle } from './use-history'
