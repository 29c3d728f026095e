/**
 * Conversations: hydrating a long conversation in Node, listing many stored
 * conversations from IndexedDB in Chromium, and the React commits a switch costs.
 */
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { createConversations } from '../src/core/conversations/conversations'
import { checkRecord, conversationRecord, type ConversationRecord } from '../src/core/conversations/record'
import { memoryConversations } from '../src/core/conversations/storage'
import { fold } from '../src/core/fold/fold'
import { emptyState, type AgentState } from '../src/core/model/model'
import type { Op } from '../src/core/model/ops'
import { best, median, n, table } from './harness'

/** A conversation of `messages` messages: questions and answers of a few sentences each. */
function longConversation(id: string, messages: number): ConversationRecord {
  const ops: Op[] = []
  for (let i = 0; i < messages / 2; i += 1) {
    ops.push(
      { op: 'turn.open', turnId: `u${i}`, role: 'user' },
      { op: 'message.put', turnId: `u${i}`, messageId: `u${i}/text`, role: 'user', type: 'text', props: { content: `Question ${i}: what changed in the quarterly numbers?` }, status: 'done' },
      { op: 'turn.finish', turnId: `u${i}`, status: 'done' },
      { op: 'turn.open', turnId: `a${i}`, role: 'assistant' },
      { op: 'message.put', turnId: `a${i}`, messageId: `a${i}/text`, role: 'assistant', type: 'text', props: { content: `Answer ${i}. `.repeat(40) }, status: 'done' },
      { op: 'turn.finish', turnId: `a${i}`, status: 'done' },
    )
  }
  const state: AgentState = fold(emptyState(), ops)
  return conversationRecord({ id, title: id, createdAt: 1, updatedAt: 1, revision: 1 }, state)
}

async function hydrateInNode(): Promise<Record<string, string>> {
  const record = longConversation('long', 5000)
  const storage = memoryConversations()
  await storage.save(record, { expectedRevision: 0 })
  const stored = structuredClone(record)
  const check = await best(9, () => {
    if (!checkRecord(stored, 'long').ok) throw new Error('the record failed its check')
  })
  const copy = await best(9, () => {
    structuredClone(record)
  })
  const hydrate = async () => {
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    await conversations.ready()
    if (conversations.storeOf('long')?.getState().turnIds.length !== 5000) throw new Error('not hydrated')
    await conversations.dispose()
  }
  const select = await best(9, hydrate)
  // CPU time of the same work: on a shared machine the wall clock also counts time spent waiting for a core.
  const cpu: number[] = []
  for (let r = 0; r < 9; r += 1) {
    const start = process.cpuUsage()
    await hydrate()
    const used = process.cpuUsage(start)
    cpu.push((used.user + used.system) / 1000)
  }
  // The memory storage hands out its frozen record; IndexedDB's structured clone happens in the browser
  // (measured by the Chromium row below), so the clone is printed on its own line, not added in.
  return {
    'hydrate 5,000 messages (Node)': `${n(select, 1)} ms wall, ${n(median(cpu), 1)} ms CPU, from the stored record to a ready store: list, schema check, store (check alone ${n(check, 1)} ms; target ≤ 50 ms)`,
    'structured clone of that record (Node)': `${n(copy, 1)} ms (what a copying storage would add; not part of the row above)`,
  }
}

/** Counts React commits: production React calls the DevTools hook once per commit. Installed before React loads. */
const COMMIT_HOOK = `window.weftCommits = []; window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  isDisabled: false, supportsFiber: true, renderers: new Map(), inject() { return 1 },
  onCommitFiberRoot() { window.weftCommits.push(performance.now()) },
  onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, onScheduleFiberRoot() {}, checkDCE() {},
}`

async function inChromium(): Promise<Record<string, string>> {
  const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
  if (!executablePath) return { 'Chromium rows': 'skipped: no Chromium (run npm test once, or set CHROMIUM_PATH)' }
  const bundle = await build({
    entryPoints: ['bench/browser/conversations-page.tsx'], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'silent',
    jsx: 'automatic', minify: true, define: { 'process.env.NODE_ENV': '"production"' },
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  // IndexedDB needs a real origin: a page served from loopback.
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end(`<!doctype html><div id="root"></div><script>${COMMIT_HOOK}</script><script>${script.replace(/<\/script/g, '<\\/script')}</script>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    const r = await page.evaluate(() => window.weftBench(1000, 7))
    const commits = [...new Set(r.switchCommits)].join(' or ')
    return {
      'list 1,000 from IndexedDB (Chromium)': `${n(median(r.listMs), 1)} ms (whole start with checks and the newest loaded ${n(median(r.readyMs), 1)} ms; target ≤ 100 ms)`,
      'hydrate 5,000 messages from IndexedDB (Chromium)': `${n(median(r.hydrateMs), 1)} ms, the read (structured clone) included`,
      'switch between two 500-message conversations (Chromium)': `${commits} React commit(s) per switch (${r.switchCommits.length} switches; target one); ${n(median(r.switchMs), 1)} ms to the commit that draws the other one`,
    }
  } finally {
    await browser.close()
    server.close()
  }
}

/** Print the conversation figures. */
export async function benchConversations(): Promise<void> {
  console.log('Conversations')
  const rows = { ...(await hydrateInNode()), ...(await inChromium()) }
  table(Object.entries(rows).map(([what, figure]) => ({ what, figure })))
}
