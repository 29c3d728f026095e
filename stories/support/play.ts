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
