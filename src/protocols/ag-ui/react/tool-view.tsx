import { forwardRef, type HTMLAttributes } from 'react'
import { toNavigationTarget, type NavigationParams } from './navigation'
import { useWeftCallbacks } from '../../components/callbacks'
import { recordOf, asText } from '../../components/format'
import { ToolCallMessage } from '../../components/messages/tool'
import type { MessagePartProps } from '../../components/renderers'

/**
 * One navigation action: an internal route, its query parameters and its label.
 *
 * @example
 * const action: NavigationAction = { path: '/todo/123', params: { tab: 'notes' }, label: 'Open' }
 */
export interface NavigationAction {
  path: string
  params: NavigationParams
  label: string
}

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
 * The navigation actions in a tool's `props.actions` that pass the kit's check
 * (an internal, filled-in path; scalar params). An item without a `type` counts
 * as a navigation; an item of another type is skipped.
 *
 * @example
 * readNavigationActions([{ path: '/todo/1', params: { tab: 'notes' } }, { type: 'navigation', path: 'https://evil.example' }])
 * // [{ path: '/todo/1', params: { tab: 'notes' }, label: '/todo/1' }]
 */
export function readNavigationActions(actions: unknown): NavigationAction[] {
  if (!Array.isArray(actions)) return []
  const out: NavigationAction[] = []
  for (const item of actions) {
    const action = recordOf(item)
    if (!action) continue
    const target = toNavigationTarget(action.type === undefined && action.action === undefined ? { ...action, type: 'navigation' } : action)
    if (!target) continue
    const inner = recordOf(action.action)
    const label = asText(action.label) || asText(action.title) || asText(inner?.label) || target.path
    out.push({ ...target, label })
  }
  return out
}

/**
 * AG-UI's view of a tool call: the kit's tool view, then the navigation actions
 * the tool's result offers, in one `<div data-weft="ag-ui-tool">` that takes
 * `className`, `style`, the other DOM props and the ref. Registered as the
 * protocol's `tool` view.
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
