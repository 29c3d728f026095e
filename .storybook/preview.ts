import type { Preview } from '@storybook/react-vite'
// Stories name protocols ('yao', ...): registered as the `weft` entry registers them.
import '../src/protocols/index'
import axe from 'axe-core'
import { expect } from 'storybook/test'
import { setupWorker } from 'msw/browser'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { fixtureHandlers } from '../src/testing/msw'

/**
 * Mock Service Worker answers `/mock/stream/...` with the shipped fixtures, so a
 * static `build-storybook` streams without a server. Requests MSW does not know
 * (the resume routes) fall through to the dev server's mock middleware.
 */
async function startWorker() {
  const worker = setupWorker()
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' })
  return worker
}

const preview: Preview = {
  loaders: [mswLoader(startWorker)],
  parameters: {
    layout: 'padded',
    controls: {
      matchers: {
        color: /(background|color)$/i,
        date: /Date$/i,
      },
    },
    // An object, so a story adds `msw: { handlers: { story: [...] } }` and keeps these.
    msw: { handlers: { fixtures: fixtureHandlers() } },
  },
  // Every story, in `npm test` and in Storybook, is checked by axe after it has rendered (and played).
  // `region` is left out: a story is a fragment of a page, not a page with landmarks.
  afterEach: async ({ canvasElement }) => {
    const results = await axe.run(canvasElement, { resultTypes: ['violations'], rules: { region: { enabled: false } } })
    const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
    await expect(found).toEqual([])
  },
}

export default preview
