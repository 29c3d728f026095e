/**
 * The renderer registry: a message's `type` picks the component that draws it.
 * A host adds or replaces any renderer; a type nobody registered falls back to
 * a plain view of its type and props.
 */
import { createContext, useContext, useMemo, type ComponentType, type ReactNode } from 'react'
import type { Message } from '../core/model'
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
  image: FileMessage,
  notice: NoticeMessage,
  error: ErrorMessage,
  loading: LoadingMessage,
  'recommended-action': RecommendedActionCard,
})

interface Registry {
  renderers: ReadonlyMap<string, MessageRenderer>
  fallback: MessageRenderer
}

const RegistryContext = createContext<Registry>({ renderers: toMap(defaultRenderers), fallback: DataMessage })

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
export function RendererProvider({ renderers, fallback, toolRenderers, children }: RendererProviderProps) {
  const outer = useContext(RegistryContext)
  const value = useMemo<Registry>(() => {
    const merged = new Map(outer.renderers)
    if (renderers) for (const [type, renderer] of toMap(renderers)) merged.set(type, renderer)
    return { renderers: merged, fallback: fallback ?? outer.fallback }
  }, [outer, renderers, fallback])
  const inner = toolRenderers ? <ToolRenderersProvider renderers={toolRenderers}>{children}</ToolRenderersProvider> : children
  return <RegistryContext.Provider value={value}>{inner}</RegistryContext.Provider>
}

/**
 * The renderer for a message type: its own, else `data-*` for a data part,
 * else the fallback.
 *
 * @example
 * const Renderer = useRenderer(message.type)
 * <Renderer message={message} />
 */
export function useRenderer(type: string): MessageRenderer {
  const { renderers, fallback } = useContext(RegistryContext)
  return renderers.get(type) ?? (type.startsWith('data-') ? renderers.get('data-*') : undefined) ?? fallback
}

// A Map, because types are wire strings: `constructor` must not find Object's.
function toMap(renderers: MessageRenderers): Map<string, MessageRenderer> {
  const map = new Map<string, MessageRenderer>()
  for (const [type, renderer] of Object.entries(renderers)) if (renderer) map.set(type, renderer)
  return map
}
