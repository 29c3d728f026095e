import type { Preview } from '@storybook/react-vite'
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
}

export default preview
