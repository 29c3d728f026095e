import { defineConfig } from 'vitest/config'

/**
 * The core and decoder unit tests mutation runs use (Node, no browser). Left out:
 * tests that start an HTTP or Redis server (a mutant that hangs one leaves a socket
 * open across runs), and the differential and field-fuzz property tests, which
 * cover every line and so would run, thousands of cases each, for every mutant.
 * The fold is covered by nearly every test, so each of its mutants would run them all:
 * its groups (stryker.config.mjs) run the tests written for the fold and the store.
 */
const FOLD_TESTS = [
  'test/core/fold.test.ts', 'test/core/fold-safety.test.ts', 'test/core/coalesce.test.ts', 'test/core/store.test.ts',
  'test/core/timeline.test.ts', 'test/core/prototype-safety.test.ts', 'test/core/branches.test.ts', 'test/core/selectors.test.ts',
  'test/core/wire-strings.test.ts', 'test/core/yao.test.ts', 'test/core/vocion-scenarios.test.ts', 'test/core/end-of-stream.test.ts',
  'test/core/scheduler.test.ts', 'test/core/batcher.test.ts', 'test/core/fold-lifecycle.test.ts', 'test/core/sealed-values.test.ts',
  'test/core/fold-ops.test.ts', 'test/core/fold-turns.test.ts', 'test/core/fold-deltas.test.ts', 'test/core/fold-ids.test.ts', 'test/core/fold-reset.test.ts',
  'test/core/fold-hydrate.test.ts', 'test/core/paths.test.ts', 'test/core/fold-delta-rules.test.ts',
  'test/core/fold-trace.test.ts', 'test/core/coalesce-rules.test.ts', 'test/core/fold-branch-rules.test.ts',
  'test/core/yao-decoder-lifecycle.test.ts', 'test/core/yao-decoder-ops.test.ts', 'test/core/yao-decoder-tools.test.ts',
]
const foldGroup = ['fold', 'fold-rules', 'batcher'].includes(process.env.MUTATE_GROUP ?? '')

/**
 * The user-facing groups run only the tests written for them. The component tests
 * (test/react) name their own environment, jsdom, in a comment at their top.
 */
const GROUP_TESTS: Record<string, string[]> = {
  requests: [
    'test/core/request-fields-exact.test.ts', 'test/core/request-builders-rules.test.ts', 'test/core/pins-request-shape.test.ts',
    'test/core/pins-resume-request.test.ts', 'test/core/request-reuse.test.ts', 'test/core/transport-request-rules.test.ts',
    'test/core/wire-fields-ag-ui-vocion.test.ts', 'test/core/ui-message-wire-fields.test.ts',
  ],
  conversations: [
    'test/core/conversations-quarantine.test.ts', 'test/core/conversations-saving.test.ts', 'test/core/conversations-rules.test.ts',
  ],
  'client-actions': [
    'test/core/action-phase-table.test.ts', 'test/core/loop-property.test.ts', 'test/core/answer-while-closing.test.ts',
    'test/core/branch-switch.test.ts', 'test/core/end-of-stream.test.ts', 'test/core/stream-end.test.ts', 'test/core/truncated-stream.test.ts',
    'test/core/request-reuse.test.ts', 'test/core/pins-request-shape.test.ts', 'test/core/resume-loading.test.ts', 'test/core/scheduler.test.ts',
  ],
  'client-run': [
    'test/core/run-lifecycle.test.ts', 'test/core/truncated-stream.test.ts', 'test/core/end-of-stream.test.ts', 'test/core/stream-end.test.ts',
    'test/core/action-phase-table.test.ts', 'test/core/loop-property.test.ts', 'test/core/resume.test.ts', 'test/core/resume-rules.test.ts',
    'test/core/resume-loopback.test.ts', 'test/core/resume-stock-route.test.ts', 'test/core/pins-resume-request.test.ts',
  ],
  'markdown-tail': ['test/core/pins-markdown-tail.test.ts', 'test/core/markdown-tail-rules.test.ts'],
  'safe-url': ['test/core/safe-url-rules.test.ts'],
  'gate-card': ['test/react/gate-card-rules.test.tsx'],
  composer: ['test/react/composer-rules.test.tsx'],
  'auto-scroll': ['test/react/stick-to-bottom-rules.test.tsx'],
}
const groupTests = GROUP_TESTS[process.env.MUTATE_GROUP ?? '']

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/setup.ts', 'test/mutate-setup.ts'],
    include: groupTests ?? (foldGroup ? FOLD_TESTS : [
      'test/core/fold.test.ts', 'test/core/fold-safety.test.ts', 'test/core/fold-lifecycle.test.ts', 'test/core/message-table.test.ts', 'test/core/sealed-values.test.ts',
      'test/core/coalesce.test.ts', 'test/core/store.test.ts', 'test/core/timeline.test.ts', 'test/core/prototype-safety.test.ts', 'test/core/wire-strings.test.ts', 'test/core/end-of-stream.test.ts',
      'test/core/yao.test.ts', 'test/core/ui-message.test.ts', 'test/core/ui-message-streams.test.ts', 'test/core/ui-messages.test.ts',
      'test/core/vocion.test.ts', 'test/core/vocion-scenarios.test.ts', 'test/core/ag-ui-decoder.test.ts', 'test/core/peer-ai-sdk.test.ts',
      'test/core/peer-ag-ui.test.ts', 'test/core/transport-units.test.ts', 'test/core/resume.test.ts', 'test/core/partial-json.test.ts',
      'test/core/branches.test.ts', 'test/core/selectors.test.ts', 'test/core/history.test.ts', 'test/core/scheduler.test.ts',
      'test/core/batcher.test.ts', 'test/core/vocion-reference.test.ts', 'test/core/ui-message-wire-fields.test.ts',
      'test/core/fold-ops.test.ts', 'test/core/fold-turns.test.ts', 'test/core/fold-deltas.test.ts', 'test/core/fold-ids.test.ts', 'test/core/fold-reset.test.ts',
      'test/core/fold-hydrate.test.ts',
      'test/core/yao-decoder-lifecycle.test.ts', 'test/core/yao-decoder-ops.test.ts', 'test/core/yao-decoder-tools.test.ts',
      'test/core/think-tags.test.ts', 'test/core/paths.test.ts', 'test/core/fold-delta-rules.test.ts',
      'test/core/fold-trace.test.ts', 'test/core/coalesce-rules.test.ts', 'test/core/fold-branch-rules.test.ts',
      'test/core/wire-fields-yao.test.ts', 'test/core/wire-fields-ag-ui-vocion.test.ts', 'test/core/resume-align-rules.test.ts',
      'test/core/resume-rules.test.ts',
      'test/core/vocion-decoder-rules.test.ts', 'test/core/vocion-events-rules.test.ts',
      'test/core/transport-request-rules.test.ts', 'test/core/transport-stream-rules.test.ts', 'test/core/transport-frames-rules.test.ts', 'test/core/lifeline-timer.test.ts',
      'test/core/ag-ui-message-rules.test.ts', 'test/core/ag-ui-snapshot-rules.test.ts', 'test/core/ag-ui-chunk-rules.test.ts',
      'test/core/ag-ui-decoder-rules.test.ts', 'test/core/ag-ui-tool-rules.test.ts',
      'test/core/ui-message-tool-rules.test.ts', 'test/core/ui-message-text-rules.test.ts', 'test/core/ui-message-chunk-rules.test.ts',
      ...new Set(Object.values(GROUP_TESTS).flat()),
    ]),
    testTimeout: 60_000,
    // The test files share one module graph: a mutant is switched on at run time, so
    // nothing needs a fresh import, and re-running the setup per file was most of the
    // time each mutant took (the whole set: 41 s isolated, 16 s shared).
    isolate: false,
  },
})
