import { defineConfig } from 'vitest/config'

/** Fast core unit tests (Node, no browser, no network), for mutation runs. */
export default defineConfig({
  test: {
    environment: 'node',
    // Unit tests only: no sockets, no timers, so a mutant cannot crash a worker from a stray callback.
    include: [
      'test/core/fold.test.ts', 'test/core/fold-safety.test.ts', 'test/core/coalesce.test.ts', 'test/core/yao.test.ts',
      'test/core/prototype-safety.test.ts', 'test/core/store.test.ts', 'test/core/ui-message.test.ts', 'test/core/vocion.test.ts',
    ],
    testTimeout: 60_000,
  },
})
