/**
 * AG-UI: the protocol definition, the runs flow, history paging,
 * navigation actions and their view.
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
  checkNavigationAction, followNavigation, isNavigationAction, navigationHref, toNavigationTarget,
  type NavigateHandler, type NavigationCheck, type NavigationParams, type NavigationTarget,
} from './navigation'
export {
  AgUiToolView, NavigationActions, readNavigationActions, type NavigationAction, type NavigationActionsProps,
} from './navigation-actions'
export { useAgUiHistory, type UseAgUiHistoryOptions, type AgUiHistoryHandle } from './use-ag-ui-history'
export type * from '../../core/protocol/entry-types'
export type { AgentStore, AgentStoreState, ProtocolInput, StreamSource, StreamSourceContext, SourceBuildOptions, HttpRequest, StreamRequest } from '../../core/index'
export type { HistoryPager, HistorySource, HistoryStatus, HistoryPageResult } from '../../core/history/index'
export type { MessageRendererProps, MessagePartProps } from '../../components/renderers'
