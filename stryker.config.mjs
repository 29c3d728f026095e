// Mutation testing (`npm run mutate`, not part of CI): plants small bugs and checks
// the unit tests catch them. The scope is what two shared cores run in minutes: the
// fold's delta, path and append-merging rules and the batcher, against the fast unit
// tests (vitest.mutate.config.ts). Widen `mutate` (the rest of src/core/fold, the
// decoders, resume/align.ts) and the test list on a bigger machine.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  mutate: [
    'src/core/fold/deltas.ts',
    'src/core/fold/paths.ts',
    'src/core/fold/coalesce.ts',
    'src/core/batcher.ts',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
}
