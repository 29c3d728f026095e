#!/usr/bin/env node
// The API report of every public entry, with API Extractor, from the built
// declarations (run `npm run build` first).
//
//   node scripts/api-report.mjs          rewrites api/<entry>.api.md
//   node scripts/api-report.mjs --check  fails when an entry's surface differs from
//                                        its committed report (CI), or a report is
//                                        missing or left over
//
// Every type an entry's signatures reach (an options object's nested types) is
// exported by that entry, so a host can name it: a type reached but not exported
// (ae-forgotten-export) is a warning, and a warning fails both the run and --check.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor'
import { moduleEntries } from './package-entries.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const reportFolder = join(root, 'api')
const tempFolder = join(root, 'node_modules', '.cache', 'api-report')

/** `weft/protocols/ag-ui` → `weft-protocols-ag-ui`. */
const reportName = (key) => (key === '.' ? pkg.name : `${pkg.name}-${key.slice(2).replaceAll('/', '-')}`)

const entries = moduleEntries(pkg, root).map(({ key, types }) => ({ key, name: reportName(key), types: join(root, types) }))

for (const { types } of entries) {
  if (!existsSync(types)) {
    console.error(`api-report: ${types} is missing; run \`npm run build\` first`)
    process.exit(1)
  }
}
mkdirSync(reportFolder, { recursive: true })
mkdirSync(tempFolder, { recursive: true })

function configFor(entry) {
  return ExtractorConfig.prepare({
    configObjectFullPath: join(root, 'api', 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.types,
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'es2022', module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx',
            lib: ['es2023', 'dom', 'dom.iterable'], strict: true, skipLibCheck: true, types: ['node'],
          },
          include: [entry.types],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.name,
        reportFolder,
        reportTempFolder: tempFolder,
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          // weft marks no release stages (@public, @beta): every exported name is public.
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          // Reached but not exported by name: the entry must export it (`export type { … }`).
          'ae-forgotten-export': { logLevel: 'warning', addToApiReportFile: false },
          // Every public export has its JSDoc (a convention the review holds); members need not.
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
        },
        // JSDoc here is written for people (`@example` with code), not for TSDoc's grammar.
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
      },
    },
  })
}

const configs = entries.map((entry) => ({ entry, config: configFor(entry) }))
// One TypeScript program for all the entries.
const compilerState = CompilerState.create(configs[0].config, { additionalEntryPoints: configs.map((c) => c.config.mainEntryPointFilePath) })

const changed = []
const problems = []
for (const { entry, config } of configs) {
  const result = Extractor.invoke(config, {
    localBuild: !check,
    compilerState,
    messageCallback: (message) => {
      if ((message.logLevel === 'warning' || message.logLevel === 'error') && !String(message.messageId).startsWith('console-')) {
        problems.push(`${entry.key}: ${message.text}`)
      }
      message.handled = true
    },
  })
  if (result.apiReportChanged) changed.push(entry)
  if (!result.succeeded && !result.apiReportChanged) {
    problems.push(`${entry.key}: API Extractor did not succeed`)
  }
}

const expected = new Set(entries.map((e) => `${e.name}.api.md`))
const stale = readdirSync(reportFolder).filter((f) => f.endsWith('.api.md') && !expected.has(f))
if (!check) for (const file of stale) rmSync(join(reportFolder, file))

for (const p of problems) console.error(`api-report: ${p}`)
if (check) {
  for (const e of changed) console.error(`api-report: the surface of ${e.key === '.' ? pkg.name : `${pkg.name}/${e.key.slice(2)}`} differs from api/${e.name}.api.md`)
  for (const f of stale) console.error(`api-report: api/${f} belongs to no entry`)
  if (changed.length > 0 || stale.length > 0 || problems.length > 0) {
    console.error('api-report: run `npm run build && npm run api` and commit the reports with the change')
    process.exit(1)
  }
  console.log(`api-report: ${entries.length} entries match their reports`)
} else {
  if (problems.length > 0) process.exit(1)
  console.log(`api-report: wrote ${entries.length} reports to api/${changed.length > 0 ? ` (${changed.length} changed)` : ''}`)
}
