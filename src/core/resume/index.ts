/**
 * Resuming streams: the strategy interface, the kit's `Last-Event-ID` strategy,
 * and the pieces a host's own strategy is made of. Protocol strategies live with
 * their protocols.
 */
export type * from './types'
export { resolveResumeStrategy, lastEventIdResume, type ResumeStrategyName, type LastEventIdHandle } from './strategies/index'
export { alignReplay, type AlignOptions } from './align'
export { TurnLedger, type LedgerView } from './ledger'
export { fingerprint } from './fingerprint'
export { backoffDelay } from './backoff'
export { memoryStorage, defaultResumeStorage, readHandle, writeHandle, clearHandle, resumeStorageKey } from './storage'
export { withQuery, joinPath } from './url'
