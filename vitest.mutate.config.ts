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
  'test/core/fold/fold.test.ts', 'test/core/fold/fold-safety.test.ts', 'test/core/fold/coalesce.test.ts', 'test/core/store/store.test.ts',
  'test/core/fold/timeline.test.ts', 'test/core/fold/prototype-safety.test.ts', 'test/core/store/branches.test.ts', 'test/core/store/selectors.test.ts',
  'test/core/fold/wire-strings.test.ts', 'test/core/protocols/yao.test.ts', 'test/core/protocols/vocion-scenarios.test.ts', 'test/core/client/end-of-stream.test.ts',
  'test/core/store/scheduler.test.ts', 'test/core/store/batcher.test.ts', 'test/core/fold/fold-lifecycle.test.ts', 'test/core/fold/sealed-values.test.ts',
  'test/core/fold/fold-ops.test.ts', 'test/core/fold/fold-turns.test.ts', 'test/core/fold/fold-deltas.test.ts', 'test/core/fold/fold-ids.test.ts', 'test/core/fold/fold-reset.test.ts',
  'test/core/fold/fold-hydrate.test.ts', 'test/core/util/paths.test.ts', 'test/core/fold/fold-delta-rules.test.ts',
  'test/core/fold/fold-trace.test.ts', 'test/core/fold/coalesce-rules.test.ts', 'test/core/fold/fold-branch-rules.test.ts',
  'test/core/protocols/yao-decoder-lifecycle.test.ts', 'test/core/protocols/yao-decoder-ops.test.ts', 'test/core/protocols/yao-decoder-tools.test.ts',
]
const foldGroup = ['fold', 'fold-rules', 'batcher'].includes(process.env.MUTATE_GROUP ?? '')

/**
 * The user-facing groups run only the tests written for them. The component tests
 * (test/react) name their own environment, jsdom, in a comment at their top.
 */
const GROUP_TESTS: Record<string, string[]> = {
  requests: [
    'test/core/client/request-fields-exact.test.ts', 'test/core/client/request-builders-rules.test.ts', 'test/core/client/pins-request-shape.test.ts',
    'test/core/resume/pins-resume-request.test.ts', 'test/core/client/request-reuse.test.ts', 'test/core/transport/transport-request-rules.test.ts',
    'test/core/protocols/wire-fields-ag-ui-vocion.test.ts', 'test/core/protocols/ui-message-wire-fields.test.ts',
  ],
  conversations: [
    'test/core/conversations/conversations-quarantine.test.ts', 'test/core/conversations/conversations-saving.test.ts', 'test/core/conversations/conversations-rules.test.ts',
  ],
  'client-actions': [
    'test/core/client/action-phase-table.test.ts', 'test/core/client/loop-property.test.ts', 'test/core/client/answer-while-closing.test.ts',
    'test/core/client/branch-switch.test.ts', 'test/core/client/end-of-stream.test.ts', 'test/core/client/stream-end.test.ts', 'test/core/client/truncated-stream.test.ts',
    'test/core/client/request-reuse.test.ts', 'test/core/client/pins-request-shape.test.ts', 'test/core/resume/resume-loading.test.ts', 'test/core/store/scheduler.test.ts',
    'test/core/client/continuation-rules.test.ts', 'test/core/client/command-rules.test.ts', 'test/core/client/run-end-rules.test.ts',
    'test/core/client/queue.test.ts', 'test/core/client/queue-property.test.ts', 'test/core/client/loop-ag-ui.test.ts',
    'test/core/client/respond-langgraph-request.test.ts', 'test/core/client/steer-requests.test.ts', 'test/core/client/respond-rules.test.ts',
    'test/core/client/agent-state-rules.test.ts', 'test/core/client/queue-rules.test.ts',
  ],
  'client-run': [
    'test/core/client/run-lifecycle.test.ts', 'test/core/client/truncated-stream.test.ts', 'test/core/client/end-of-stream.test.ts', 'test/core/client/stream-end.test.ts',
    'test/core/client/action-phase-table.test.ts', 'test/core/client/loop-property.test.ts', 'test/core/resume/resume.test.ts', 'test/core/resume/resume-rules.test.ts',
    'test/core/resume/resume-loopback.test.ts', 'test/core/resume/resume-stock-route.test.ts', 'test/core/resume/pins-resume-request.test.ts',
    'test/core/client/run-end-rules.test.ts', 'test/core/client/continuation-rules.test.ts', 'test/core/client/command-rules.test.ts',
    'test/core/resume/resume-history-url.test.ts', 'test/core/resume/resume-loading.test.ts', 'test/core/client/stop-and-answer.test.ts',
    'test/core/client/answer-while-closing.test.ts', 'test/core/client/client-tools-live.test.ts', 'test/core/client/loop-interrupt.test.ts',
    'test/core/client/pins-loop.test.ts', 'test/core/client/run-state.test.ts', 'test/core/client/max-steps.test.ts', 'test/core/client/timing.test.ts',
    'test/core/client/loop-ag-ui.test.ts', 'test/core/client/loop-ai-sdk.test.ts', 'test/core/client/run-connection-rules.test.ts', 'test/core/client/reattach-rules.test.ts', 'test/core/client/history-fallback-rules.test.ts',
    'test/core/client/resume-persister-rules.test.ts', 'test/core/client/connection-transport-rules.test.ts', 'test/core/client/run-end-units.test.ts',
    'test/core/client/reattach-exact-rules.test.ts', 'test/core/resume/binding-reattach-rules.test.ts',
  ],
  'markdown-tail': ['test/core/components/pins-markdown-tail.test.ts', 'test/core/components/markdown-tail-rules.test.ts'],
  'safe-url': ['test/core/components/safe-url-rules.test.ts'],
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
      'test/core/fold/fold.test.ts', 'test/core/fold/fold-safety.test.ts', 'test/core/fold/fold-lifecycle.test.ts', 'test/core/store/message-table.test.ts', 'test/core/fold/sealed-values.test.ts',
      'test/core/fold/coalesce.test.ts', 'test/core/store/store.test.ts', 'test/core/fold/timeline.test.ts', 'test/core/fold/prototype-safety.test.ts', 'test/core/fold/wire-strings.test.ts', 'test/core/client/end-of-stream.test.ts',
      'test/core/protocols/yao.test.ts', 'test/core/protocols/ui-message.test.ts', 'test/core/protocols/ui-message-streams.test.ts', 'test/core/protocols/ui-messages.test.ts',
      'test/core/protocols/vocion.test.ts', 'test/core/protocols/vocion-scenarios.test.ts', 'test/core/protocols/ag-ui-decoder.test.ts', 'test/core/protocols/peer-ai-sdk.test.ts',
      'test/core/protocols/peer-ag-ui.test.ts', 'test/core/transport/transport-units.test.ts', 'test/core/resume/resume.test.ts', 'test/core/util/partial-json.test.ts',
      'test/core/store/branches.test.ts', 'test/core/store/selectors.test.ts', 'test/core/protocol/history.test.ts', 'test/core/store/scheduler.test.ts',
      'test/core/store/batcher.test.ts', 'test/core/protocols/vocion-reference.test.ts', 'test/core/protocols/ui-message-wire-fields.test.ts',
      'test/core/fold/fold-ops.test.ts', 'test/core/fold/fold-turns.test.ts', 'test/core/fold/fold-deltas.test.ts', 'test/core/fold/fold-ids.test.ts', 'test/core/fold/fold-reset.test.ts',
      'test/core/fold/fold-hydrate.test.ts',
      'test/core/protocols/yao-decoder-lifecycle.test.ts', 'test/core/protocols/yao-decoder-ops.test.ts', 'test/core/protocols/yao-decoder-tools.test.ts',
      'test/core/protocols/think-tags.test.ts', 'test/core/util/paths.test.ts', 'test/core/fold/fold-delta-rules.test.ts',
      'test/core/fold/fold-trace.test.ts', 'test/core/fold/coalesce-rules.test.ts', 'test/core/fold/fold-branch-rules.test.ts',
      'test/core/protocols/wire-fields-yao.test.ts', 'test/core/protocols/wire-fields-ag-ui-vocion.test.ts', 'test/core/resume/resume-align-rules.test.ts',
      'test/core/resume/resume-rules.test.ts',
      'test/core/protocols/vocion-decoder-rules.test.ts', 'test/core/protocols/vocion-events-rules.test.ts',
      'test/core/transport/transport-request-rules.test.ts', 'test/core/transport/transport-stream-rules.test.ts', 'test/core/transport/transport-frames-rules.test.ts', 'test/core/transport/lifeline-timer.test.ts',
      'test/core/protocols/ag-ui-message-rules.test.ts', 'test/core/protocols/ag-ui-snapshot-rules.test.ts', 'test/core/protocols/ag-ui-chunk-rules.test.ts',
      'test/core/protocols/ag-ui-decoder-rules.test.ts', 'test/core/protocols/ag-ui-tool-rules.test.ts',
      'test/core/protocols/ui-message-tool-rules.test.ts', 'test/core/protocols/ui-message-text-rules.test.ts', 'test/core/protocols/ui-message-chunk-rules.test.ts',
      ...new Set(Object.values(GROUP_TESTS).flat()),
    ]),
    testTimeout: 60_000,
    // The test files share one module graph: a mutant is switched on at run time, so
    // nothing needs a fresh import, and re-running the setup per file was most of the
    // time each mutant took (the whole set: 41 s isolated, 16 s shared).
    isolate: false,
  },
})
