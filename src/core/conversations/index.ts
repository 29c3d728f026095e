/**
 * Many conversations, persisted: the conversation store, its storages and the
 * stored record's schema.
 */
export { Conversations, createConversations } from './conversations'
export {
  CONVERSATION_CONFLICT, CONVERSATION_SAVE_FAILED, CONVERSATION_QUOTA_EXCEEDED, CONVERSATION_NOT_DATA, CONVERSATION_RENDER_FAILED,
  type ConversationStatus, type ConversationSummary, type ConversationsOptions, type ConversationsState,
} from './types'
export {
  memoryConversations, ConversationConflictError,
  type ConversationStorage, type ConversationChange, type StoredConversation,
} from './storage'
export { indexedDbConversations, type IndexedDbConversationsOptions, type IndexedDbConversationStorage } from './indexed-db'
export {
  checkRecord, checkSummary, conversationRecord, summaryOf, stateOf, readableTitle,
  CONVERSATION_FORMAT, CONVERSATION_VERSION, CONVERSATION_CORRUPT, CONVERSATION_FOREIGN, CONVERSATION_NEWER,
  type ConversationRecord, type ConversationSummaryRecord, type StoredState, type TitleSource, type Checked,
} from './record'
export { messageTitle, serverTitle, UNTITLED } from './title'
export { settleInterrupted } from './interrupted'
export { plainData, type PlainData } from './plain-data'
export { rawJson } from './raw-json'
