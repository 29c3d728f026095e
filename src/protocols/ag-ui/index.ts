/**
 * AG-UI: the protocol definition, the runs flow, history paging and
 * navigation actions. Loads no React: the views and the history hook are in
 * `weft/protocols/ag-ui/react`.
 *
 * @example
 * import { agUiProtocol, agUiRunsSource } from 'weft/protocols/ag-ui'
 */
export { agUiProtocol } from './protocol'
export { agUiInputMessageId } from './decoder'
export { agUiRunsSource, type AgUiRunsOptions, type AgUiRunsSource, type AgUiRunInput, type AgUiRunAccepted } from './runs'
export {
  AgUiHistory, agUiHistoryOps, agUiHistoryUrl, fetchAgUiHistory, readAgUiHistory, readAgUiHistoryPage,
  type AgUiHistoryOptions, type AgUiHistoryPage, type AgUiHistoryStatus,
} from './history'
export {
  checkNavigationAction, followNavigation, isNavigationAction, navigationHref, readNavigationActions, toNavigationTarget,
  type NavigateHandler, type NavigationAction, type NavigationCheck, type NavigationParams, type NavigationTarget,
} from './navigation'
export type * from '../../core/protocol/entry-types'
export type { AgentStore, AgentStoreState, ProtocolInput, StreamSource, StreamSourceContext, StreamSourceCancelContext, SourceBuildOptions, HttpRequest, StreamRequest } from '../../core/index'
export type { HistoryPager, HistorySource, HistoryStatus, HistoryPageResult } from '../../protocol-kit/index'
