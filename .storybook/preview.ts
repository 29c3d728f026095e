import type { Decorator, Preview } from '@storybook/react-vite'
import { createElement } from 'react'
// Stories name protocols ('yao', ...): registered as the `weft` entry registers them.
import '../src/protocols/index'
import axe from 'axe-core'
import { expect } from 'storybook/test'
import { setupWorker } from 'msw/browser'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { fixtureHandlers } from '../src/testing/msw'
import { themeOf } from '../stories/support/play'
// The theme toolbar switches weft's variables, so every story has them, not only those that import the stylesheet.
import '../src/components/styles.css'

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

/** The kit's widths: a phone, a tablet, a laptop. */
const viewports = {
  phone: { name: 'Phone (375)', styles: { width: '375px', height: '812px' }, type: 'mobile' },
  tablet: { name: 'Tablet (768)', styles: { width: '768px', height: '1024px' }, type: 'tablet' },
  laptop: { name: 'Laptop (1280)', styles: { width: '1280px', height: '800px' }, type: 'desktop' },
} as const

/**
 * The theme toolbar: `data-theme` on the page and on a wrapper around the story,
 * so weft's variables switch (a story that sets its own `data-theme` inside wins).
 */
const withTheme: Decorator = (Story, { globals }) => {
  const theme = themeOf(globals)
  document.documentElement.setAttribute('data-theme', theme)
  document.body.style.background = 'var(--weft-bg)'
  return createElement('div', { 'data-theme': theme, style: { background: 'var(--weft-bg)', color: 'var(--weft-fg)' } }, createElement(Story))
}

/** The mean of a computed colour's red, green and blue channels, 0 to 255. */
function brightness(color: string): number {
  const [r = Number.NaN, g = Number.NaN, b = Number.NaN] = (color.match(/[\d.]+/g) ?? []).map(Number)
  return (r + g + b) / 3
}

/**
 * The theme really applies: the wrapper carries the theme of the story's globals, and its
 * background and text (weft's `--weft-bg` and `--weft-fg`) are dark on light under the light
 * theme and light on dark under the dark one. A run fails if a theme's variables stop switching.
 */
async function expectTheme(canvasElement: HTMLElement, theme: 'light' | 'dark'): Promise<void> {
  const wrapper = canvasElement.querySelector<HTMLElement>('[data-theme]')
  await expect(wrapper?.getAttribute('data-theme')).toBe(theme)
  const style = getComputedStyle(wrapper as HTMLElement)
  const [bg, fg] = [brightness(style.backgroundColor), brightness(style.color)]
  const seen = `--weft-bg ${style.getPropertyValue('--weft-bg').trim()} (${style.backgroundColor}), --weft-fg ${style.getPropertyValue('--weft-fg').trim()} (${style.color})`
  if (theme === 'dark') await expect(bg < 40 && fg > 200, `dark theme: ${seen}`).toBe(true)
  else await expect(bg > 200 && fg < 60, `light theme: ${seen}`).toBe(true)
}

const preview: Preview = {
  loaders: [mswLoader(startWorker)],
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: "weft's colour theme (data-theme)",
      toolbar: { title: 'Theme', icon: 'mirror', items: [{ value: 'light', title: 'Light', icon: 'sun' }, { value: 'dark', title: 'Dark', icon: 'moon' }], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    layout: 'padded',
    // The first story is the one Storybook opens on: the introduction. Inline, as Storybook reads it statically.
    options: { storySort: { order: ['Introduction', 'Components', 'Protocols', 'Conversation', 'Conversations', 'Streams', '*', 'Internal'] } },
    viewport: { options: viewports },
    controls: {
      matchers: {
        color: /(background|color)$/i,
        date: /Date$/i,
      },
    },
    // An object, so a story adds `msw: { handlers: { story: [...] } }` and keeps these.
    msw: { handlers: { fixtures: fixtureHandlers() } },
  },
  // Every story, in `npm test` and in Storybook, is checked by axe after it has rendered (and played),
  // in the theme it was drawn in (`npm test` draws each one in both: projects `storybook` and `storybook-dark`).
  // `region` is left out: a story is a fragment of a page, not a page with landmarks.
  afterEach: async ({ canvasElement, globals }) => {
    await expectTheme(canvasElement, themeOf(globals))
    const results = await axe.run(canvasElement, { resultTypes: ['violations'], rules: { region: { enabled: false } } })
    const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
    await expect(found).toEqual([])
  },
}

export default preview
