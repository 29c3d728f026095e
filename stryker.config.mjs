// Mutation testing (`npm run mutate`, not part of CI): plants small bugs in the fold,
// the batcher, resume, the transport, the four decoders and the user-facing layer (the
// request builders, the conversation store, the markdown tail, safeUrl, the gate card,
// the composer and sticking to the end), and checks that the unit tests
// (vitest.mutate.config.ts) catch them. Two shared cores cannot take the whole
// set in one go, so it runs one group at a time: `MUTATE_GROUP=fold npm run mutate`
// (no group: all of them, on a machine that can). Each group keeps its own incremental
// file and report in reports/, so a run that crashed or was stopped resumes where it
// was, and a later run only retests what changed. docs/mutation.md has the scores.
const groups = {
  batcher: ['src/core/store/batcher.ts'],
  fold: ['src/core/fold/{fold,apply-op,turns,messages}.ts'],
  'fold-rules': ['src/core/fold/{deltas,coalesce,branches,trace}.ts', 'src/core/util/paths.ts'],
  'resume-align': ['src/core/resume/align.ts'],
  resume: ['src/core/resume/**/*.ts', '!src/core/resume/align.ts'],
  transport: ['src/core/transport/**/*.ts'],
  yao: ['src/protocols/yao/{decoder,chunk-fields,lifecycle,message-places,tool-calls}.ts'],
  // A decoder group is the decoder and every module it is built from; the request
  // builders, history readers and views are not part of the stream's fold.
  'ui-message': ['src/protocols/ui-message/{decoder,stream-context,text-parts,think-tags,tool-calls,tool-tracks,tool-approvals,data-parts,chunk-fields}.ts'],
  vocion: ['src/protocols/vocion/{decoder,answer,event-fields,lanes,parts,search,stream-state,tool-calls,trace-rows}.ts'],
  'ag-ui': ['src/protocols/ag-ui/{decoder,chunks,event-fields,event-types,lanes,snapshots,stream-state,text-messages,tool-events,tool-calls,tool-result,messages}.ts'],
  // The user-facing layer: what goes out in a request, what is kept of a conversation,
  // and the components a person acts through.
  requests: ['src/protocols/*/request.ts', 'src/core/client/request-plan.ts', 'src/core/transport/request.ts'],
  // indexed-db.ts is not here: only the browser tests reach IndexedDB (docs/mutation.md).
  conversations: ['src/core/conversations/{storage,saver,record,journal,ledger,loader}.ts'],
  'markdown-tail': ['src/components/markdown/tail.ts'],
  'safe-url': ['src/components/safe-url.ts'],
  'gate-card': ['src/components/gate-card.tsx'],
  composer: ['src/components/composer.tsx'],
  // The client's user actions (send, regenerate, edit, branches, answer, stop, dispose), the
  // continuation loop, how a run starts and stops, the gate ops they dispatch, the queue of
  // messages sent while a run goes, tools the UI answers (respond), the agent state and
  // context the page sets, and what the client's parts share.
  'client-actions': [
    'src/core/client/{agent-client,commands,continuation-loop,turn-runner,queue,respond,agent-state,context}.ts', 'src/core/client/gates.ts:133-169',
  ],
  // The run driver: connect, reconnect with backoff, every way a run ends, re-attaching, the handle.
  'client-run': ['src/core/client/{run-driver,connection,run-end,reattach,resume-persister,run}.ts'],
  // Only what decides scrolling: `useStickToBottom`, and which element a transcript scrolls in.
  'auto-scroll': ['src/components/scroll-context.ts', 'src/components/chat.tsx:49-165', 'src/components/transcript.tsx:64-68'],
}
const group = process.env.MUTATE_GROUP
if (group !== undefined && !Object.hasOwn(groups, group)) {
  throw new Error(`MUTATE_GROUP must be one of ${Object.keys(groups).join(', ')}`)
}
const name = group ?? 'all'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // related: false: a group's tests are listed in vitest.mutate.config.ts, and vitest's
  // import-graph filter would drop the ones that reach a module through the `weft` entry's defaults.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  // A static mutant (a module-level table) reruns every test; they are few, and skipped to keep runs bounded.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  mutate: group ? groups[group] : Object.values(groups).flat(),
  reporters: ['clear-text', 'progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  concurrency: 1,
  // A mutant that loops forever is a kill by timeout. The grace is generous: on a loaded
  // machine a short one turns slow test runs into false kills.
  timeoutMS: 15000,
  tempDirName: `.stryker-tmp/${name}`,
  // Not copied into the sandbox: another group's sandbox (two groups may run at once), the
  // reports and the build.
  ignorePatterns: ['/.stryker-tmp', '/reports', '/dist', '/storybook-static'],
}
