/**
 * Conversations: hydrating a long conversation in Node, listing many stored
 * conversations from IndexedDB in Chromium, and the React commits a switch costs.
 */
import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { build } from 'esbuild'
import { JSDOM } from 'jsdom'
import { createConversations } from '../src/core/conversations/conversations'
import { checkRecord, conversationRecord, type ConversationRecord } from '../src/core/conversations/record'
import { memoryConversations } from '../src/core/conversations/storage'
import { fold } from '../src/core/fold/fold'
import { emptyState, type AgentState } from '../src/core/model'
import type { Op } from '../src/core/ops'
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
  const select = await best(9, async () => {
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    await conversations.ready()
    if (conversations.storeOf('long')?.getState().turnIds.length !== 5000) throw new Error('not hydrated')
    await conversations.dispose()
  })
  // The memory storage copies the record out, as IndexedDB's structured clone does in a browser.
  return { 'hydrate 5,000 messages (Node)': `${n(select, 1)} ms, copy out of storage included (schema check alone ${n(check, 1)} ms; target ≤ 50 ms)` }
}

async function listInChromium(): Promise<Record<string, string>> {
  const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
  if (!executablePath) return { 'list 1,000 from IndexedDB (Chromium)': 'skipped: no Chromium (run npm test once, or set CHROMIUM_PATH)' }
  const bundle = await build({ entryPoints: ['bench/conversations-page.ts'], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'silent' })
  const script = bundle.outputFiles[0]?.text ?? ''
  // IndexedDB needs a real origin: a page served from loopback.
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end(`<!doctype html><script>${script.replace(/<\/script/g, '<\\/script')}</script>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] })
  try {
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    const { listMs, readyMs } = await page.evaluate(() => window.weftBench(1000, 7))
    return {
      'list 1,000 from IndexedDB (Chromium)': `${n(median(listMs), 1)} ms (whole start with checks and the newest loaded ${n(median(readyMs), 1)} ms; target ≤ 100 ms)`,
    }
  } finally {
    await browser.close()
    server.close()
  }
}

async function switchCommits(): Promise<Record<string, string>> {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true, url: 'http://localhost/' })
  const g = globalThis as Record<string, unknown>
  for (const key of ['window', 'document', 'navigator', 'HTMLElement', 'Node', 'requestAnimationFrame', 'cancelAnimationFrame', 'getComputedStyle']) {
    if (!(key in g) || key === 'window' || key === 'document') {
      Object.defineProperty(g, key, { value: (dom.window as unknown as Record<string, unknown>)[key], configurable: true, writable: true })
    }
  }
  g.IS_REACT_ACT_ENVIRONMENT = true
  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const { act } = await import('react')
  const { ConversationsProvider } = await import('../src/react/conversations')
  const { Transcript } = await import('../src/components/transcript')
  const storage = memoryConversations()
  await storage.save(longConversation('left', 500), { expectedRevision: 0 })
  await storage.save(longConversation('right', 500), { expectedRevision: 0 })
  const conversations = createConversations({ storage, selection: false, saveOnHide: false })
  await conversations.ready()
  await conversations.load('left')
  await conversations.load('right')
  await conversations.select('left')
  let commits = 0
  const container = document.getElementById('root') as HTMLElement
  const root = createRoot(container)
  const h = React.createElement
  await act(async () => {
    root.render(h(React.Profiler, { id: 'chat', onRender: () => { commits += 1 } }, h(ConversationsProvider, { conversations }, h(Transcript.Root))))
  })
  const counts: number[] = []
  const times: number[] = []
  for (const id of ['right', 'left', 'right', 'left']) {
    commits = 0
    const start = performance.now()
    await act(async () => {
      await conversations.select(id)
    })
    times.push(performance.now() - start)
    counts.push(commits)
  }
  await act(async () => root.unmount())
  await conversations.dispose()
  return { 'switch between two 500-message conversations (jsdom)': `${counts.join(', ')} React commit(s) per switch; ${n(median(times), 1)} ms to render the other one` }
}

/** Print the conversation figures. */
export async function benchConversations(): Promise<void> {
  console.log('Conversations')
  const rows = { ...(await hydrateInNode()), ...(await listInChromium()), ...(await switchCommits()) }
  table(Object.entries(rows).map(([what, figure]) => ({ what, figure })))
}
