/**
 * The preview side of weft's Storybook addon: a decorator that gives every weft
 * client in the story an inspector and sends its snapshot to the manager's
 * "weft" panel. Registered by the addon (`addons: ['weft/storybook-addon']`), or
 * added by hand as a decorator.
 */
import { useEffect, useState, type ComponentType, type ReactElement } from 'react'
import { addons } from 'storybook/preview-api'
import { AgentProvider } from '../../react/provider'
import { createInspector } from '../inspector'
import { sendInspector, type InspectorChannel } from './channel'

/**
 * What the decorator reads of Storybook's story context: the story's id, and its globals for the theme.
 *
 * @example
 * const context: InspectorStoryContext = { id: 'chat--live', globals: { theme: 'dark' } }
 */
export interface InspectorStoryContext {
  id: string
  globals?: Record<string, unknown>
}

/**
 * A Storybook decorator: the story's weft clients report to an inspector (a
 * client option every hook below starts from, over its providers' own), whose
 * snapshot goes to the manager's "weft" panel. A client made by hand
 * (`new AgentClient`) is given `inspector` itself.
 *
 * @example
 * // .storybook/preview.ts, when the addon is not registered in main.ts
 * export default { decorators: [withInspector] }
 */
export function withInspector(Story: ComponentType, context: InspectorStoryContext): ReactElement {
  const theme = context.globals?.theme === 'dark' ? 'dark' : context.globals?.theme === 'light' ? 'light' : undefined
  return <InspectedStory key={context.id} Story={Story} storyId={context.id} theme={theme} channel={addons.hasChannel() ? addons.getChannel() : undefined} />
}

function InspectedStory({ Story, storyId, theme, channel }: { Story: ComponentType; storyId: string; theme: 'light' | 'dark' | undefined; channel: InspectorChannel | undefined }) {
  const [inspector] = useState(() => createInspector())
  const [defaults] = useState(() => ({ inspector }))
  useEffect(() => (channel ? sendInspector(inspector, channel, { storyId, ...(theme ? { theme } : {}) }) : undefined), [inspector, channel, storyId, theme])
  return (
    <AgentProvider clientDefaults={defaults}>
      <Story />
    </AgentProvider>
  )
}

/** The preview annotations the addon adds. */
export const decorators = [withInspector]
