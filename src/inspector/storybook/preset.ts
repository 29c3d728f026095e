/**
 * weft/storybook-addon: the preset a host's Storybook loads from
 * `addons: ['weft/storybook-addon']`. It names the manager entry (the "weft"
 * panel) and the preview annotation (the decorator that inspects each story).
 */
import { fileURLToPath } from 'node:url'

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

/**
 * The manager entries, with the "weft" panel's.
 *
 * @example
 * managerEntries(['other-addon/manager']) // ['other-addon/manager', '…/storybook-addon/manager.js']
 */
export function managerEntries(entries: readonly string[] = []): string[] {
  return [...entries, here('./manager.js')]
}

/**
 * The preview annotations, with the inspecting decorator's.
 *
 * @example
 * previewAnnotations([]) // ['…/storybook-addon/preview.js']
 */
export function previewAnnotations(entries: readonly string[] = []): string[] {
  return [...entries, here('./preview.js')]
}
