import { afterEach, expect } from 'vitest'

/**
 * A setup file of the `storybook-dark` project only: every story of that run is drawn in the dark
 * theme. The preview's own check compares the page with each story's globals, so it cannot notice
 * the run's theme global failing to reach the stories (they would all quietly draw light); this does.
 * No story pins the light theme; one that did would be drawn light here too and fail this.
 */
afterEach(() => {
  expect(document.documentElement.getAttribute('data-theme'), 'the storybook-dark run draws every story dark').toBe('dark')
})
