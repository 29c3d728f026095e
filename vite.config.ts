import { existsSync, readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { STORYBOOK_TEST_INITIAL_GLOBALS_PROVIDE_KEY } from '@storybook/addon-vitest/constants'
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import react from '@vitejs/plugin-react'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { mockAgentServer } from './mock/vite-plugin.js'
import { markedLexerOnly } from './scripts/marked-lexer-only.mjs'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Runtime dependencies and peers stay imports in the published build, subpaths included.
 * Not marked: the build carries its lexer alone (scripts/marked-lexer-only.mjs).
 */
const external = /^(react|react-dom|zustand|immer|eventsource-parser|fast-json-patch|idb|virtua|shiki|katex|mermaid|dompurify|@testing-library\/react|msw|storybook|@storybook\/[^/]+|weft\/styles\.css|node:[\w/]+)(\/|$)/

/**
 * The built-in protocols are the folders of `src/protocols` with an `index.ts`, so
 * a new one needs no line here: its entry and its public name follow from its folder.
 */
const builtInProtocols = readdirSync(here('src/protocols'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(here(`src/protocols/${entry.name}/index.ts`)))
  .map((entry) => entry.name)
  .sort()

/**
 * A built-in protocol's views (React components) live in its `react/` folder, an entry of
 * their own (`weft/protocols/<name>/react`), so the protocol's entry never loads React.
 */
const protocolViews = builtInProtocols.filter((name) => existsSync(here(`src/protocols/${name}/react/index.ts`)))

/**
 * Entries that import React: their built files start with `"use client"`. The protocols'
 * entries do not (`weft/protocols`, `weft/protocols/<name>`); their views' entries do.
 * `npm run check:package` checks the list against each entry's import graph.
 */
const clientEntries = new Set([
  'index', 'react', 'components', 'testing', 'testing/storybook',
  'inspector', 'storybook-addon/preview', 'storybook-addon/manager',
  ...protocolViews.map((name) => `protocols/${name}/react`),
])

/** The system Chromium that `scripts/ensure-chromium.mjs` finds or installs. */
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium'

/**
 * Browser-mode settings for Chromium. Tests never download a browser: they drive
 * the system Chromium (`CHROMIUM_PATH`, else the distribution package's path).
 * A function, because Vitest rejects one browser config object shared by two projects.
 */
const chromium = () => ({
  enabled: true,
  headless: true,
  screenshotFailures: false,
  instances: [{ browser: 'chromium' as const }],
  provider: playwright({
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  }),
})

declare module 'vitest' {
  interface ProvidedContext {
    /** The globals `@storybook/addon-vitest` starts every story of a project with (what its `initialGlobals` option provides). */
    [STORYBOOK_TEST_INITIAL_GLOBALS_PROVIDE_KEY]: Record<string, unknown>
  }
}

/**
 * Node tests that need a module graph of their own: two replace a module with `vi.mock`; the fixtures
 * check compares the mock server's scenario objects with the files written from them; the AI SDK
 * round trip runs the SDK's route, whose module state another file's run of the SDK can leave behind.
 */
const isolatedTests = [
  'test/core/protocols/ag-ui-run-input.test.ts',
  'test/core/client/run-lifecycle.test.ts',
  'test/core/protocols/round-trip-ai-sdk.test.ts',
  'test/testing/mock-fetch-recorder.node.test.ts',
]

/** Tests import the package by its public names, as a host does; these point them at the sources. */
const publicEntries = [
  { find: /^weft\/testing\/msw$/, replacement: here('src/testing/msw.ts') },
  { find: /^weft\/testing\/storybook$/, replacement: here('src/testing/storybook.tsx') },
  { find: /^weft\/testing$/, replacement: here('src/testing/index.ts') },
  { find: /^weft\/inspector$/, replacement: here('src/inspector/index.ts') },
  { find: /^weft\/storybook-addon\/preview$/, replacement: here('src/inspector/storybook/preview.tsx') },
  { find: /^weft\/shiki$/, replacement: here('src/shiki/index.ts') },
  { find: /^weft\/katex$/, replacement: here('src/katex/index.ts') },
  { find: /^weft\/mermaid$/, replacement: here('src/mermaid/index.ts') },
  { find: /^weft\/voice$/, replacement: here('src/voice/index.ts') },
  ...protocolViews.map((name) => ({ find: new RegExp(`^weft/protocols/${name}/react$`), replacement: here(`src/protocols/${name}/react/index.ts`) })),
  ...builtInProtocols.map((name) => ({ find: new RegExp(`^weft/protocols/${name}$`), replacement: here(`src/protocols/${name}/index.ts`) })),
  { find: /^weft\/protocol-kit$/, replacement: here('src/protocol-kit/index.ts') },
  { find: /^weft\/protocols$/, replacement: here('src/protocols/index.ts') },
  { find: /^weft\/react$/, replacement: here('src/react/index.ts') },
  { find: /^weft\/components$/, replacement: here('src/components/index.ts') },
  { find: /^weft\/core$/, replacement: here('src/core/index.ts') },
  { find: /^weft$/, replacement: here('src/index.ts') },
]

export default defineConfig({
  plugins: [react(), markedLexerOnly()],
  resolve: { alias: publicEntries },
  // Pre-bundled up front for Storybook and the browser projects: a dependency discovered
  // mid-run makes Vite re-optimize and reload the page, which fails the running test.
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-dom',
      'react-dom/client',
      'zustand',
      'zustand/vanilla',
      'zustand/middleware/immer',
      'zustand/react/shallow',
      'immer',
      'eventsource-parser',
      'fast-json-patch',
      'marked',
      'virtua',
      'axe-core',
      'shiki/core',
      'shiki/engine/javascript',
      'shiki/langs/typescript.mjs',
      'shiki/langs/tsx.mjs',
      'shiki/langs/javascript.mjs',
      'shiki/langs/json.mjs',
      'shiki/langs/shellscript.mjs',
      'shiki/langs/python.mjs',
      'shiki/langs/html.mjs',
      'shiki/langs/css.mjs',
      'shiki/langs/yaml.mjs',
      'shiki/langs/sql.mjs',
      'shiki/langs/diff.mjs',
      'shiki/themes/github-light.mjs',
      'shiki/themes/github-dark.mjs',
      'katex',
      'mermaid',
      'dompurify',
      'idb',
    ],
  },
  build: {
    target: 'es2022',
    minify: false,
    sourcemap: true,
    // The stylesheet is its own entry, so it is emitted once as `styles.css`
    // whether or not a component module imports it; code splitting must stay on for a CSS entry.
    cssCodeSplit: true,
    lib: {
      entry: {
        index: here('src/index.ts'),
        core: here('src/core/index.ts'),
        react: here('src/react/index.ts'),
        components: here('src/components/index.ts'),
        // The four built-in protocols, registered on import; and each alone, for one-protocol hosts.
        // None loads React: a protocol's views are an entry of their own.
        protocols: here('src/protocols/index.ts'),
        ...Object.fromEntries(builtInProtocols.map((name) => [`protocols/${name}`, here(`src/protocols/${name}/index.ts`)])),
        ...Object.fromEntries(protocolViews.map((name) => [`protocols/${name}/react`, here(`src/protocols/${name}/react/index.ts`)])),
        // What the built-in protocols are built from, for a host's own protocol.
        'protocol-kit': here('src/protocol-kit/index.ts'),
        // Code colours: an entry a host imports only when it has installed the optional peer shiki.
        shiki: here('src/shiki/index.ts'),
        // Math and diagrams, the same way: each an entry for hosts that installed the optional peer.
        katex: here('src/katex/index.ts'),
        mermaid: here('src/mermaid/index.ts'),
        // Dictation and read-aloud adapters over Web Speech: no React, and out of weft/components' first load.
        voice: here('src/voice/index.ts'),
        // Test helpers: an entry of their own, so none of it reaches the main entries.
        testing: here('src/testing/index.ts'),
        'testing/msw': here('src/testing/msw.ts'),
        'testing/storybook': here('src/testing/storybook.tsx'),
        // The inspector (a developer's panel) and its Storybook addon: entries of their own, so a host that never inspects ships none of it.
        inspector: here('src/inspector/index.ts'),
        'storybook-addon/preset': here('src/inspector/storybook/preset.ts'),
        'storybook-addon/preview': here('src/inspector/storybook/preview.tsx'),
        'storybook-addon/manager': here('src/inspector/storybook/manager.ts'),
        styles: here('src/components/styles.css'),
      },
      formats: ['es'],
      cssFileName: 'styles',
    },
    rolldownOptions: {
      external: (id) => external.test(id),
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: '[name][extname]',
        // What the components read (selectors and small record helpers) is a chunk of its own, so
        // importing weft/components does not pull in the store, the fold, immer or JSON Patch.
        // Two chunks, not one: the core's half must never import React, or `weft/core` would
        // load React on a server.
        advancedChunks: {
          groups: [
            { name: 'view', test: /src\/core\/(store\/(selectors|branches|trace-tree|entry-subscriptions|store-locals)|util\/(record|memo)|fold\/trace)\.tsx?$/ },
            { name: 'view-react', test: /src\/react\/(selectors|store-context|client-slots|protocols-context)\.tsx?$/ },
            // The wire helpers the components read too (errors, paths, finding a protocol by name) stay apart from the fold, which
            // `weft/protocol-kit` (through `streamToOps`) shares with them: else importing weft/components
            // would load the fold's chunk, immer and JSON Patch with it.
            // Checking that a value is JSON data goes with them too, apart from JSON Patch.
            { name: 'paths', test: /src\/core\/(model\/errors|util\/(paths|is-json-data)|protocol\/resolve)\.ts$/ },
            // JSON Patch (and fast-json-patch) only for the protocols that patch (AG-UI): a chunk of its own, which
            // a bundle that speaks only the UI message stream never imports.
            { name: 'json-patch', test: /src\/core\/util\/json-data\.ts$/ },
            // The recorded fixtures stay one chunk of their own, so the helpers' size reads apart from theirs.
            { name: 'fixtures', test: /src\/testing\/fixtures(\.ts$|\/)/ },
          ],
        },
        // React Server Components hosts need the directive on every entry that holds hooks or
        // components. Bundling drops module-level directives from the sources, so it is written
        // on the emitted entry files instead (the package check verifies the list against the
        // entries' import graphs).
        banner: (chunk) => (chunk.isEntry && clientEntries.has(chunk.name) ? '"use client";' : ''),
      },
    },
  },
  test: {
    globals: false,
    // Vitest's default is one worker fewer than the cores, so one on a two-core machine; most tests
    // wait on loopback servers and Chromium, and two workers keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Projects run in groups, one group after another (each project's `groupOrder`): run all at once,
    // their workers, two Chromiums, Storybook's build and the host apps' builds overran the cores, and
    // the whole took longer than the groups one by one.
    // The resume machinery preloaded, as a host's has arrived by the time a person sends.
    setupFiles: [here('test/setup.ts')],
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          sequence: { groupOrder: 0 },
          environment: 'node',
          include: ['test/core/**/*.test.ts', 'test/testing/**/*.node.test.ts', 'test/docs/**/*.test.ts'],
          // Files that need a module graph of their own run in the project below.
          exclude: isolatedTests,
          setupFiles: [here('test/shared-worker-guard.ts')],
          // One module graph per worker, not per file: importing the protocols and the mock server for
          // each of 125 files cost more than the tests. So no test may leave state behind or change what it imports.
          isolate: false,
          // Some tests loop over dozens of real loopback connections; a busy shared machine
          // must not turn a slow run into a failure (no test asserts a timing).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'types',
          sequence: { groupOrder: 0 },
          // The type tests (expectTypeOf in test/types/*.test-d.ts): tsc checks them, nothing runs.
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: here('test/types/tsconfig.json') },
        },
      },
      {
        extends: true,
        test: {
          name: 'core-isolated',
          sequence: { groupOrder: 1 },
          environment: 'node',
          include: isolatedTests,
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'langgraph',
          sequence: { groupOrder: 1 },
          environment: 'node',
          // Against a real LangGraph server: LangGraph's in-memory API server (what `langgraph dev` runs) with the
          // graphs of test/langgraph/graphs, started once per file in a child process by scripts/langgraph-server.mjs
          // (about two seconds). Nothing to install beyond npm ci: no Python, no network.
          include: ['test/langgraph/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'pages',
          sequence: { groupOrder: 1 },
          environment: 'node',
          // Real pages: Node serves a test app and the mock agent on loopback and drives the system
          // Chromium with playwright-core (reloads are page.reload(), two tabs are two pages of one context).
          include: ['test/pages/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'hosts',
          sequence: { groupOrder: 2 },
          environment: 'node',
          // The packed tarball in create-vite react-ts apps, built by `vite build`, served by `vite preview`
          // against stock AI SDK and AG-UI servers, in the system Chromium (test/hosts/suite.ts).
          include: ['test/hosts/**/*.test.ts'],
          globalSetup: [here('test/hosts/global-setup.ts')],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'react',
          sequence: { groupOrder: 1 },
          environment: 'jsdom',
          // One jsdom and one module graph per worker, not per file: setting up jsdom and importing the
          // kit for each of 29 files cost more than their tests. Testing Library unmounts after each test.
          isolate: false,
          include: ['test/react/**/*.test.{ts,tsx}', 'test/testing/**/*.jsdom.test.tsx'],
        },
      },
      {
        extends: true,
        // Streams for tests that stream (conversations resuming after a reload, the loop's gates); only its stream,
        // resume and loop routes, since test files import mock/scenarios/* through the same `/mock/` path.
        plugins: [mockAgentServer({ only: /^\/mock\/(stream|resume|loop)\// })],
        test: {
          name: 'browser',
          // One file at a time: files run side by side share one Chromium tab, where focus (and so the
          // focus rings in the screenshot tests) moves between them.
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
          // No test asserts a timing; a busy machine (the whole suite runs at once) must not fail one.
          testTimeout: 60_000,
          include: ['test/browser/**/*.test.tsx', 'test/testing/**/*.browser.test.tsx'],
          browser: {
            ...chromium(),
            // The screenshot tests' committed images: one folder, named by scene, width and theme.
            expect: {
              toMatchScreenshot: {
                resolveScreenshotPath: ({ arg, ext, root }) => `${root}/test/browser/visual/baselines/${arg}${ext}`,
              },
            },
          },
        },
      },
      {
        extends: true,
        // The mock agent server is mounted on the browser's dev server so stories fetch `/mock/...` same-origin.
        plugins: [storybookTest({ configDir: here('.storybook') }), mockAgentServer()],
        test: {
          name: 'stories',
          sequence: { groupOrder: 4 },
          // All story files of an instance in one page: starting the page (Storybook's preview, the
          // service worker, axe) for each of 32 files took longer than the stories themselves.
          // Storybook's own runner cleans up between stories.
          isolate: false,
          // No story asserts a timing; a busy machine (the whole suite runs at once) must not fail one.
          testTimeout: 60_000,
          // Every story runs in both themes: `storybook` as Storybook opens, `storybook-dark` with the
          // toolbar's theme global set to dark (a story's own `globals` still win). Two instances of one
          // project share its dev server, so the dependencies are optimised and each story file is
          // transformed once. The key is the one the addon's `initialGlobals` option provides to its project.
          browser: {
            ...chromium(),
            instances: [
              { browser: 'chromium', name: 'storybook' },
              {
                browser: 'chromium',
                name: 'storybook-dark',
                provide: { [STORYBOOK_TEST_INITIAL_GLOBALS_PROVIDE_KEY]: { theme: 'dark' } },
                setupFiles: [here('.storybook/dark-run.ts')],
              },
            ],
          },
        },
      },
    ],
  },
})
