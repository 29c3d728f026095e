/**
 * History for every protocol: the batch a loader makes, its de-duplicating merge, and the pager.
 */
export { historyOps, historyError, replayOps, type HistoryBatch } from './merge'
export { HistoryPager, type HistorySource, type HistoryStatus, type HistoryPageResult } from './pager'
