/**
 * Resuming streams: the strategy interface, the built-in strategies, and the
 * pieces a host's own strategy is made of.
 */
export type * from './types'
export {
  resolveResumeStrategy, vocionResume, lastEventIdResume, aiSdkResume, yaoResume,
  type ResumeStrategyName, type VocionHandle, type VocionResumeOptions, type LastEventIdHandle,
  type AiSdkHandle, type AiSdkResumeOptions, type YaoTaskHandle,
} from './strategies/index'
export { alignReplay, type AlignOptions } from './align'
export { TurnLedger, type LedgerView } from './ledger'
export { fingerprint } from './fingerprint'
export { backoffDelay } from './backoff'
export { memoryStorage, defaultResumeStorage, readHandle, writeHandle, clearHandle, resumeStorageKey } from './storage'
export { withQuery, joinPath } from './url'
