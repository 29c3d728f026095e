/**
 * Many conversations, persisted: the conversation store, its storages and the
 * stored record's schema.
 */
export {
  Conversations, createConversations, CONVERSATION_CONFLICT,
  type ConversationStatus, type ConversationSummary, type ConversationsOptions, type ConversationsState,
} from './conversations'
export {
  memoryConversations, ConversationConflictError,
  type ConversationStorage, type ConversationChange, type StoredConversation,
} from './storage'
export { indexedDbConversations, type IndexedDbConversationsOptions, type IndexedDbConversationStorage } from './indexed-db'
export {
  checkRecord, checkSummary, conversationRecord, summaryOf, stateOf,
  CONVERSATION_FORMAT, CONVERSATION_VERSION, CONVERSATION_CORRUPT, CONVERSATION_FOREIGN, CONVERSATION_NEWER,
  type ConversationRecord, type ConversationSummaryRecord, type StoredState, type TitleSource, type Checked,
} from './record'
export { messageTitle, serverTitle, UNTITLED } from './title'
export { settleInterrupted } from './interrupted'
