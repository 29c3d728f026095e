/**
 * AG-UI back ends: the runs flow, history paging and navigation actions.
 */
export { agUiRunsSource, type AgUiRunsOptions, type AgUiRunsSource, type AgUiRunInput, type AgUiRunAccepted } from './runs'
export {
  AgUiHistory, agUiHistoryOps, agUiHistoryUrl, fetchAgUiHistory,
  type AgUiHistoryOptions, type AgUiHistoryPage, type AgUiHistoryStatus,
} from './history'
export {
  checkNavigationAction, followNavigation, isNavigationAction, navigationHref, toNavigationTarget,
  type NavigateHandler, type NavigationCheck, type NavigationParams, type NavigationTarget,
} from './navigation'
export { agUiInputMessageId, agUiProtocol, createAgUiDecoder } from './protocol'
