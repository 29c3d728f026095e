import { render } from '@testing-library/react'
import { expect, it } from 'vitest'
import { page } from 'vitest/browser'

it('renders a React element into a real browser DOM', async () => {
  const { container } = render(
    <section aria-label="greeting" style={{ width: 120 }}>
      <h1>Hello from Chromium</h1>
    </section>,
  )
  const heading = page.getByRole('heading', { name: 'Hello from Chromium' })
  await expect.element(heading).toBeVisible()
  // Real layout: jsdom would report 0 here.
  expect(container.querySelector('section')!.getBoundingClientRect().width).toBe(120)
  expect(navigator.userAgent).toMatch(/Chrome/)
})
