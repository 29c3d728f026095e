/**
 * The renderer registry: a message's `type` picks the component that draws it.
 * A host adds or replaces any renderer; a protocol's own views come next, for
 * the turns that speak it; a type nobody registered falls back to a plain view
 * of its type and props.
 */
import { createContext, useContext, useMemo, type ComponentType, type HTMLAttributes, type ReactNode } from 'react'
import type { Message } from '../core/model/model'
import type { PartProps } from '../core/model/parts'
import { findProtocol } from '../core/protocol/resolve'
import { useProtocols } from '../react/protocols-context'
import type { ProtocolDefinition } from '../core/protocol/types'
import { DataMessage } from './messages/data'
import { ErrorMessage } from './messages/error'
import { FileMessage } from './messages/file'
import { LoadingMessage } from './messages/loading'
import { NoticeMessage } from './messages/notice'
import { ReasoningMessage } from './messages/reasoning'
import { RecommendedActionCard } from './messages/recommended-action'
import { MarkdownMessage } from './messages/text'
import { ToolCallMessage } from './messages/tool'
import { ToolRenderersProvider, type ToolRenderers } from './tool-renderers'

/**
 * What every renderer receives. By default any message; `MessageRendererProps<Type, Props>`
 * types a renderer for one kind of part, a host's own or a built-in one
 * (`PartProps` has those). The types are what the server promises: read a
 * built-in part through `partProps` when it might not keep the promise.
 *
 * @example
 * function Chart({ message }: MessageRendererProps<'data-chart', { data: { points: number[] } }>) {
 *   return <pre>{message.props.data.points.join(', ')}</pre>
 * }
 */
export interface MessageRendererProps<Type extends string = string, Props extends object = Record<string, unknown>> {
  message: Message<Type, Props>
}

/**
 * Props of the kit's own renderers: the message, and the DOM props
 * (`className`, `style`, `data-*`, handlers, …) that go to their root element,
 * whose ref they forward. `data-weft` and `data-state` stay the kit's.
 *
 * @example
 * <NoticeMessage message={message} className="notice" ref={ref} />
 */
export interface MessagePartProps extends MessageRendererProps, Omit<HTMLAttributes<HTMLElement>, 'children'> {}

/**
 * Props of the kit's renderers that draw one element (`ErrorMessage`,
 * `LoadingMessage`, `NoticeMessage`, `FileMessage`): with `asChild` the host's
 * only child is drawn instead, with the part's props and its content inside.
 *
 * @example
 * <ErrorMessage message={message} asChild><Alert variant="danger" /></ErrorMessage>
 */
export interface MessageLeafProps extends MessagePartProps {
  asChild?: boolean
  children?: ReactNode
}

/**
 * A component that draws one kind of message (by default any message).
 *
 * @example
 * const Plain: MessageRenderer = ({ message }) => <p>{String(message.props.content)}</p>
 * const Tool: MessageRenderer<'tool', PartProps['tool']> = ({ message }) => <b>{message.props.name}</b>
 */
export type MessageRenderer<Type extends string = string, Props extends object = Record<string, unknown>> = ComponentType<MessageRendererProps<Type, Props>>

/**
 * The message type a renderer registered under `key` draws: `data-*` draws every `data-<name>`.
 *
 * @example
 * type Drawn = RenderedType<'data-*'> // `data-${string}`
 */
export type RenderedType<Key extends string> = Key extends 'data-*' ? `data-${string}` : Key

// `any`: a type the kit does not know carries whatever props its server sends; the host's renderer says what.
/**
 * What a renderer registered under `key` may expect of the props: a built-in type's, else anything.
 *
 * @example
 * type ToolRendererProps = RenderedProps<'tool'> // PartProps['tool']
 */
export type RenderedProps<Key extends string> = Key extends keyof PartProps ? PartProps[Key] : any

/**
 * Renderers by message type. `data-*` matches every `data-<name>` type that has
 * no renderer of its own. Each renderer is checked against its key: a renderer
 * typed for `data-chart` fits under `data-chart` only, and one for a built-in
 * type must accept that type's props (any plain `MessageRenderer` does). Name the
 * keys (`MessageRenderers<'data-chart' | 'text'>`) to check a map written apart
 * from `RendererProvider`, which infers them.
 *
 * @example
 * const renderers: MessageRenderers = { text: MarkdownText, 'data-*': MyDataView }
 * const typed = { 'data-chart': Chart } satisfies MessageRenderers<'data-chart'>
 */
export type MessageRenderers<Types extends string = string> = {
  readonly [Key in Types]?: MessageRenderer<RenderedType<Key>, RenderedProps<Key>>
}

/**
 * The renderers the kit ships.
 *
 * @example
 * <RendererProvider renderers={{ ...defaultRenderers, text: MarkdownText }} />
 */
export const defaultRenderers: MessageRenderers<Exclude<keyof PartProps, 'data-*'>> = Object.freeze({
  text: MarkdownMessage,
  reasoning: ReasoningMessage,
  tool: ToolCallMessage,
  file: FileMessage,
  // A file the model made while reasoning (the AI SDK's `reasoning-file` part).
  'reasoning-file': FileMessage,
  image: FileMessage,
  notice: NoticeMessage,
  error: ErrorMessage,
  loading: LoadingMessage,
  'recommended-action': RecommendedActionCard,
})

interface Registry {
  renderers: ReadonlyMap<string, MessageRenderer>
  /** Types the host set: these win over a protocol's views. */
  hostTypes: ReadonlySet<string>
  /** Protocols given here rather than registered. */
  protocols: ReadonlyMap<string, ProtocolDefinition>
  fallback: MessageRenderer
}

const RegistryContext = createContext<Registry>({
  renderers: toMap(defaultRenderers), hostTypes: new Set(), protocols: new Map(), fallback: DataMessage,
})

/**
 * Props of `RendererProvider`.
 *
 * @example
 * <RendererProvider renderers={{ text: MarkdownText }} fallback={Unknown} />
 */
export interface RendererProviderProps<Types extends string = string> {
  /** Merged over the renderers above (the defaults at the top). */
  renderers?: MessageRenderers<Types>
  /** Draws a type no renderer is registered for (default: `DataMessage`). */
  fallback?: MessageRenderer
  /** Per-tool renderers by tool name (generative UI), with typed input, output and state. */
  toolRenderers?: ToolRenderers
  /** Protocols whose views apply below, over those of the nearest `AgentProvider`. */
  protocols?: readonly ProtocolDefinition[]
  children?: ReactNode
}

/**
 * Registers message renderers for the components below it. Host renderers are
 * merged over the enclosing ones, so a host can replace `text` or add `chart`.
 *
 * @example
 * <RendererProvider renderers={{ 'data-chart': Chart }} toolRenderers={{ get_weather: WeatherCard }}>
 *   <Transcript.Root />
 * </RendererProvider>
 */
export function RendererProvider<Types extends string = string>({ renderers, fallback, toolRenderers, protocols, children }: RendererProviderProps<Types>) {
  const outer = useContext(RegistryContext)
  const value = useMemo<Registry>(() => {
    const merged = new Map(outer.renderers)
    const hostTypes = new Set(outer.hostTypes)
    if (renderers) {
      for (const [type, renderer] of toMap(renderers)) {
        merged.set(type, renderer)
        hostTypes.add(type)
      }
    }
    const known = new Map(outer.protocols)
    for (const protocol of protocols ?? []) known.set(protocol.name, protocol)
    return { renderers: merged, hostTypes, protocols: known, fallback: fallback ?? outer.fallback }
  }, [outer, renderers, fallback, protocols])
  const inner = toolRenderers ? <ToolRenderersProvider renderers={toolRenderers}>{children}</ToolRenderersProvider> : children
  return <RegistryContext.Provider value={value}>{inner}</RegistryContext.Provider>
}

/**
 * The renderer for a message type: the host's, else the view the turn's
 * protocol has for it, else the kit's, else `data-*` for a data part, else the
 * fallback.
 *
 * @example
 * const Renderer = useRenderer(message.type, turn?.protocol)
 * <Renderer message={message} />
 */
export function useRenderer(type: string, protocol?: string): MessageRenderer {
  const { renderers, hostTypes, protocols, fallback } = useContext(RegistryContext)
  const provided = useProtocols()
  if (protocol !== undefined && !hostTypes.has(type)) {
    const definition = protocols.get(protocol) ?? findProtocol(protocol, provided)
    const view = definition?.views && Object.prototype.hasOwnProperty.call(definition.views, type) ? definition.views[type] : undefined
    if (isComponent(view)) return view
  }
  return renderers.get(type) ?? (type.startsWith('data-') ? renderers.get('data-*') : undefined) ?? fallback
}

// A view is whatever React can render as a component: a function, or a memo/forwardRef object.
function isComponent(value: unknown): value is MessageRenderer {
  return typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)
}

// A Map, because types are wire strings: `constructor` must not find Object's.
// Each renderer was checked against its key when the map was written; a message of that type is what it gets.
function toMap(renderers: object): Map<string, MessageRenderer> {
  const map = new Map<string, MessageRenderer>()
  for (const [type, renderer] of Object.entries(renderers as Record<string, MessageRenderer | undefined>)) if (renderer) map.set(type, renderer)
  return map
}
