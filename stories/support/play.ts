/** Steps the streaming stories share in their `play` functions. */
import { expect, userEvent, waitFor, within } from 'storybook/test'

/** Long enough for a slow CI machine; a scenario normally lands in well under a second. */
export const STREAM_TIMEOUT = 10_000

/** Clicks Send and waits until the stream has landed (`data-state="done"` on the status bar). */
export async function sendAndFinish(canvasElement: HTMLElement): Promise<ReturnType<typeof within>> {
  const canvas = within(canvasElement)
  await userEvent.click(await canvas.findByRole('button', { name: 'Send' }))
  await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), {
    timeout: STREAM_TIMEOUT,
  })
  return canvas
}

/** The finished assistant turn (the last one). */
export function lastTurn(canvasElement: HTMLElement): HTMLElement {
  const turns = canvasElement.querySelectorAll<HTMLElement>('[data-weft="turn"][data-role="assistant"]')
  const turn = turns[turns.length - 1]
  if (!turn) throw new Error('no assistant turn rendered')
  return turn
}

/** The inspector's one-line count. */
export function inspectorSummary(canvasElement: HTMLElement): string {
  return canvasElement.querySelector('[data-weft="inspector-summary"]')?.textContent ?? ''
}

/**
 * The theme a story is drawn in: the toolbar's `theme` global, from the story's own `globals`
 * or else the run's (`storybook` draws light, `storybook-dark` dark).
 */
export function themeOf(globals: Record<string, unknown>): 'light' | 'dark' {
  return globals.theme === 'dark' ? 'dark' : 'light'
}

/**
 * The story is drawn in the kit's `Chat` with an action bar under the answer,
 * in the theme asked for (a dark background's red channel is below 40, a light one's above 200).
 * A story that does not pin a theme asks for `themeOf(globals)`, so its play passes in both runs.
 */
export async function expectChatIn(canvasElement: HTMLElement, theme: 'light' | 'dark'): Promise<void> {
  const chat = canvasElement.querySelector<HTMLElement>('[data-weft="chat"]')
  await expect(chat?.querySelector('[data-weft="chat-viewport"] [data-weft="transcript"]')).toBeTruthy()
  await expect(within(lastTurn(canvasElement)).getByRole('toolbar', { name: 'Message actions' })).toBeTruthy()
  const red = Number(getComputedStyle(chat as HTMLElement).backgroundColor.match(/\d+/)?.[0])
  if (theme === 'dark') await expect(red).toBeLessThan(40)
  else await expect(red).toBeGreaterThan(200)
}
