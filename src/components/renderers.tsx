/**
 * The renderer registry: a message's `type` picks the component that draws it.
 * A host adds or replaces any renderer; a protocol's own views come next, for
 * the turns that speak it; a type nobody registered falls back to a plain view
 * of its type and props.
 */
import { createContext, useContext, useMemo, type ComponentType, type ReactNode } from 'react'
import type { Message } from '../core/model'
import { getProtocol } from '../core/protocol/registry'
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
 * What every renderer receives.
 *
 * @example
 * function Chart({ message }: MessageRendererProps) { return <pre>{JSON.stringify(message.props.data)}</pre> }
 */
export interface MessageRendererProps {
  message: Message
}

/**
 * A component that draws one kind of message.
 *
 * @example
 * const Plain: MessageRenderer = ({ message }) => <p>{String(message.props.content)}</p>
 */
export type MessageRenderer = ComponentType<MessageRendererProps>

/**
 * Renderers by message type. `data-*` matches every `data-<name>` type that has
 * no renderer of its own.
 *
 * @example
 * const renderers: MessageRenderers = { text: MarkdownText, 'data-*': MyDataView }
 */
export type MessageRenderers = Readonly<Record<string, MessageRenderer | undefined>>

/**
 * The renderers the kit ships.
 *
 * @example
 * <RendererProvider renderers={{ ...defaultRenderers, text: MarkdownText }} />
 */
export const defaultRenderers: MessageRenderers = Object.freeze({
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
export interface RendererProviderProps {
  /** Merged over the renderers above (the defaults at the top). */
  renderers?: MessageRenderers
  /** Draws a type no renderer is registered for (default: `DataMessage`). */
  fallback?: MessageRenderer
  /** Per-tool renderers by tool name (generative UI), with typed input, output and state. */
  toolRenderers?: ToolRenderers
  /** Protocols whose views apply below, for protocols a client was given without registering them. */
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
export function RendererProvider({ renderers, fallback, toolRenderers, protocols, children }: RendererProviderProps) {
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
  if (protocol !== undefined && !hostTypes.has(type)) {
    const definition = protocols.get(protocol) ?? getProtocol(protocol)
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
function toMap(renderers: MessageRenderers): Map<string, MessageRenderer> {
  const map = new Map<string, MessageRenderer>()
  for (const [type, renderer] of Object.entries(renderers)) if (renderer) map.set(type, renderer)
  return map
}
