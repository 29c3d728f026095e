/**
 * AG-UI's views: the tool view with the navigation actions a tool's result offers.
 * Built from the public names of `weft/components` alone, as a host's view is.
 */
import { forwardRef, type HTMLAttributes } from 'react'
import { ToolCallMessage, useWeftCallbacks, type MessagePartProps } from '../../../components/index'
import { readNavigationActions } from '../navigation'

/**
 * Props of `NavigationActions`.
 *
 * @example
 * <NavigationActions actions={message.props.actions} className="tool-links" />
 */
export interface NavigationActionsProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** A tool's `props.actions`: `{type?: 'navigation', path, params?, label?}` items; others are skipped. */
  actions: unknown
}

/**
 * Buttons for the navigation actions a tool offers. A click hands `path` and
 * `params` to the host's `onNavigate`; the kit never touches `location`.
 * `className`, `style`, the other DOM props and the ref go to its root `<div>`
 * (which keeps its `data-weft`).
 *
 * @example
 * <WeftCallbacksProvider onNavigate={(path, params) => router.push(path, params)}>
 *   <NavigationActions actions={[{ type: 'navigation', path: '/todo/123', params: { tab: 'edit' }, label: 'Open to-do' }]} />
 * </WeftCallbacksProvider>
 */
export const NavigationActions = forwardRef<HTMLDivElement, NavigationActionsProps>(function NavigationActions({ actions, ...rest }, ref) {
  const { onNavigate } = useWeftCallbacks()
  const list = readNavigationActions(actions)
  if (list.length === 0) return null
  return (
    <div {...rest} ref={ref} data-weft="navigation-actions">
      {list.map((action, i) => (
        <button
          key={i}
          type="button"
          data-weft="navigation-action"
          data-path={action.path}
          disabled={!onNavigate}
          onClick={() => onNavigate?.(action.path, { ...action.params })}
        >
          {action.label}
        </button>
      ))}
    </div>
  )
})

/**
 * AG-UI's view of a tool call: the kit's tool view, then the navigation actions
 * the tool's result offers, in one `<div data-weft="ag-ui-tool">` that takes
 * `className`, `style`, the other DOM props and the ref. The `tool` view of
 * `agUiViews` (and so of `agUiProtocolWithViews`).
 *
 * @example
 * <RendererProvider renderers={{ tool: AgUiToolView }} />
 */
export const AgUiToolView = forwardRef<HTMLDivElement, MessagePartProps>(function AgUiToolView({ message, ...rest }, ref) {
  return (
    <div {...rest} ref={ref} data-weft="ag-ui-tool">
      <ToolCallMessage message={message} />
      <NavigationActions actions={message.props.actions} />
    </div>
  )
})
