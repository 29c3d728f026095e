// Mutation testing (`npm run mutate`, not part of CI): plants small bugs in the
// fold, a decoder, resume alignment and the batcher, and checks the core tests catch them.
// The scope is what two shared cores can run in about half an hour; widen `mutate` to
// all of src/core and src/protocols on a bigger machine.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  mutate: [
    'src/core/fold/*.ts',
    'src/core/batcher.ts',
    'src/core/resume/align.ts',
    'src/protocols/yao/decoder.ts',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
}
