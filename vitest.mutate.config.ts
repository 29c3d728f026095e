import { defineConfig } from 'vitest/config'

/** The core tests alone (Node, no browser), for mutation runs. */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/core/**/*.test.ts'],
    testTimeout: 60_000,
  },
})
