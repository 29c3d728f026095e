import type { Meta, StoryObj } from '@storybook/react-vite'
import { useEffect, useState } from 'react'
import { expect, within } from 'storybook/test'

/** Temporary: proves the embedded mock agent server answers inside Storybook and its Vitest project. */
function MockScenarioCount() {
  const [count, setCount] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const controller = new AbortController()
    fetch('/mock/scenarios', { signal: controller.signal })
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        return res.json() as Promise<unknown[]>
      })
      .then((list) => setCount(list.length))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setError(String(e))
      })
    return () => controller.abort()
  }, [])
  if (error) return <p role="alert">Mock server unreachable: {error}</p>
  if (count === null) return <p aria-busy="true">Loading scenarios…</p>
  return (
    <p>
      Mock scenarios: <output data-testid="scenario-count">{count}</output>
    </p>
  )
}

const meta = {
  title: 'Internal/Smoke',
  component: MockScenarioCount,
} satisfies Meta<typeof MockScenarioCount>

export default meta

type Story = StoryObj<typeof meta>

export const MockServer: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const output = await canvas.findByTestId('scenario-count', {}, { timeout: 5000 })
    await expect(Number(output.textContent)).toBeGreaterThan(0)
  },
}
