/**
 * What the preview and Storybook's manager say to each other about the
 * inspector: the preview sends the story's snapshot; the manager's panel asks
 * for it again when it opens.
 */
import type { AgentInspector } from '../inspector'
import type { InspectorSnapshot } from '../snapshot'

/**
 * The addon's id, and its panel's.
 *
 * @example
 * addons.register(INSPECTOR_ADDON_ID, () => {})
 */
export const INSPECTOR_ADDON_ID = 'weft/inspector'
/** The panel's id in the manager. */
export const INSPECTOR_PANEL_ID = 'weft/inspector/panel'
/** Preview → manager: `InspectorMessage`. */
export const INSPECTOR_SNAPSHOT_EVENT = 'weft/inspector/snapshot'
/** Manager → preview: send the snapshot again (the panel just opened). */
export const INSPECTOR_REQUEST_EVENT = 'weft/inspector/request'

/**
 * What the preview sends: whose story it is, the theme it is drawn in, and the inspector's snapshot.
 *
 * @example
 * channel.on(INSPECTOR_SNAPSHOT_EVENT, (message: InspectorMessage) => show(message.snapshot))
 */
export interface InspectorMessage {
  storyId: string
  theme?: 'light' | 'dark'
  snapshot: InspectorSnapshot
}

/**
 * The part of Storybook's channel the preview side uses.
 *
 * @example
 * const channel: InspectorChannel = addons.getChannel()
 */
export interface InspectorChannel {
  emit(event: string, ...args: unknown[]): void
  on(event: string, listener: (...args: unknown[]) => void): void
  off(event: string, listener: (...args: unknown[]) => void): void
}

/**
 * Send the inspector's snapshot over the channel now and whenever it changes,
 * and again when the manager asks; returns the function that stops it.
 *
 * @example
 * const stop = sendInspector(inspector, addons.getChannel(), { storyId: context.id, theme: 'dark' })
 */
export function sendInspector(inspector: AgentInspector, channel: InspectorChannel, story: { storyId: string; theme?: 'light' | 'dark' }): () => void {
  const send = () => {
    const message: InspectorMessage = { storyId: story.storyId, ...(story.theme ? { theme: story.theme } : {}), snapshot: inspector.getSnapshot() }
    channel.emit(INSPECTOR_SNAPSHOT_EVENT, message)
  }
  const unsubscribe = inspector.subscribe(send)
  channel.on(INSPECTOR_REQUEST_EVENT, send)
  send()
  return () => {
    unsubscribe()
    channel.off(INSPECTOR_REQUEST_EVENT, send)
  }
}
