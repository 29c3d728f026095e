/**
 * Per-tool renderers (generative UI): a host draws a tool's call its own way,
 * by tool name.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react'
import type { ToolRenderer } from './messages/tool'

/**
 * Tool renderers by tool name.
 *
 * @example
 * const tools: ToolRenderers = { get_weather: WeatherCard }
 */
// `any`: each tool has its own input and output types.
export type ToolRenderers = Readonly<Record<string, ToolRenderer<any, any> | undefined>>

const ToolRenderersContext = createContext<ReadonlyMap<string, ToolRenderer<unknown, unknown>>>(new Map())

/**
 * Registers tool renderers below it, merged over the enclosing ones.
 *
 * @example
 * <ToolRenderersProvider renderers={{ get_weather: WeatherCard }}><Transcript.Root /></ToolRenderersProvider>
 */
export function ToolRenderersProvider({ renderers, children }: { renderers: ToolRenderers; children?: ReactNode }) {
  const outer = useContext(ToolRenderersContext)
  const value = useMemo(() => {
    const merged = new Map(outer)
    // A Map, because tool names are wire strings: `constructor` must not find Object's.
    for (const [name, renderer] of Object.entries(renderers)) if (renderer) merged.set(name, renderer as ToolRenderer<unknown, unknown>)
    return merged
  }, [outer, renderers])
  return <ToolRenderersContext.Provider value={value}>{children}</ToolRenderersContext.Provider>
}

/**
 * The host's renderer for a tool name, if any.
 *
 * @example
 * const Card = useToolRenderer('get_weather')
 */
export function useToolRenderer(name: string): ToolRenderer<unknown, unknown> | undefined {
  return useContext(ToolRenderersContext).get(name)
}

/** Every tool renderer in force, by tool name (for views that must know which calls a host draws). */
export function useToolRendererMap(): ReadonlyMap<string, ToolRenderer<unknown, unknown>> {
  return useContext(ToolRenderersContext)
}
