/**
 * `npm run bench`: weft's figures, measured side by side with the floor and
 * the peers in one process. Printed, never asserted.
 *
 * `npm run bench -- --quick` measures 1k and 10k only; `npm run bench -- --conversations`
 * runs only the conversation figures (Node and Chromium).
 */
import os from 'node:os'
import { benchBytes } from './bytes'
import { benchConversations } from './conversations'
import { benchMarkdown } from './markdown'
import { benchMemory } from './memory'
import { benchRenders } from './renders'
import { benchScenarios } from './scenarios-table'

const quick = process.argv.includes('--quick')
const onlyConversations = process.argv.includes('--conversations')
console.log(`weft bench · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'} · load ${os.loadavg()[0]!.toFixed(1)} · ${new Date().toISOString()}\n`)
if (!onlyConversations) {
  await benchScenarios(quick ? [1_000, 10_000] : undefined)
  await benchMemory()
  await benchRenders()
  await benchBytes()
  await benchMarkdown()
}
await benchConversations()
// jsdom and React leave timers behind; the figures are printed.
process.exit(0)
