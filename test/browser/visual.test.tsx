/**
 * Screenshot tests: the key scenes at 375, 768 and 1280 px, light and dark,
 * against the committed images in `test/browser/visual/baselines/`. Motion is
 * off and nothing depends on the clock, so two runs draw the same pixels.
 * Update the images with `npx vitest run test/browser/visual.test.tsx -u`.
 */
import '../../src/components/styles.css'
import { render, cleanup } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { AgentProvider } from '../../src/umbrella/providers'
import { storeWith } from './support'
import { scenes as coreScenes, type Scene } from './visual/scenes'

// Each feature's scenes live in their own `visual/scenes-*.tsx` beside the core set.
const featureScenes = Object.values(import.meta.glob<{ scenes: Scene[] }>('./visual/scenes-*.tsx', { eager: true })).flatMap((m) => m.scenes)
const scenes = [...coreScenes, ...featureScenes]

const widths = [375, 768, 1280] as const

const frames = (count: number) => new Promise<void>((resolve) => {
  const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)))
  step(count)
})
const themes = ['light', 'dark'] as const

afterEach(() => cleanup())

beforeAll(() => {
  // The caret's blink, transitions and the text cursor would make two captures differ.
  const style = document.createElement('style')
  style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; caret-color: transparent !important; }'
  document.head.append(style)
  document.body.style.margin = '0'
})

describe.each(scenes)('$name', (scene) => {
  it.each(themes.flatMap((theme) => widths.map((width) => ({ theme, width }))))('$width px, $theme', async ({ theme, width }) => {
    await page.viewport(width, 800)
    const store = storeWith(scene.ops)
    render(
      <AgentProvider store={store}>
        <MarkdownSettingsProvider highlight={false}>
          <WeftCallbacksProvider onFeedback={() => undefined} onGateAnswer={() => undefined} onSuggest={() => undefined}>
            <div data-testid="scene" data-theme={theme} style={{ background: 'var(--weft-bg)', padding: 16, width, boxSizing: 'border-box' }}>
              {scene.view()}
            </div>
          </WeftCallbacksProvider>
        </MarkdownSettingsProvider>
      </AgentProvider>,
    )
    const element = page.getByTestId('scene')
    await document.fonts.ready
    await frames(2)
    // The page as tall as the scene, so the whole scene is captured in the viewport.
    await page.viewport(width, Math.max(200, Math.ceil(element.element().getBoundingClientRect().height)))
    await frames(2)
    await expect.element(element).toMatchScreenshot(`${scene.name}-${width}-${theme}`, {
      comparatorName: 'pixelmatch',
      // Two equal captures in a row are needed; a loaded machine takes longer than the 5 s default.
      timeout: 30_000,
      // Same machine image, same Chromium and fonts: only anti-aliasing may differ, on a few pixels.
      comparatorOptions: { threshold: 0.2, allowedMismatchedPixelRatio: 0.002 },
    })
  }, 60_000)
})
