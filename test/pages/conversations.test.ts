/**
 * Conversations in real pages: Chromium (the system one, through playwright-core)
 * loads a small chat app from a loopback server that also serves the mock agent's
 * streams. A reload is `page.reload()`; two tabs are two pages of one browser
 * context, sharing IndexedDB and BroadcastChannel as tabs of one origin do.
 */
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createResumeRoutes } from '../../mock/resume'
import { createMockAgentHandler } from '../../mock/server'
import { findScenario } from '../../mock/scenarios/index'

const root = fileURLToPath(new URL('../..', import.meta.url))
const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium'

/** The whole answer of the mock's Vocion `answer` scenario, as its `done` event states it. */
const ANSWER = (() => {
  const done = findScenario('vocion', 'answer')?.frames.map((f) => f.data).find((d) => typeof d === 'object' && d !== null && (d as { type?: unknown }).type === 'done')
  return String((done as { response: unknown }).response)
})()

let browser: Browser
let server: Server
let origin: string
const contexts: BrowserContext[] = []

beforeAll(async () => {
  // The test app, and the thread list's Storybook story (with the kit's stylesheet the story imports).
  const bundle = await build({
    entryPoints: { app: 'test/pages/app.tsx', story: 'test/pages/story.tsx' }, absWorkingDir: root, outdir: 'pages-out',
    bundle: true, write: false, format: 'esm', target: 'es2022', jsx: 'automatic', logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
  })
  const files = new Map(bundle.outputFiles.map((file) => [`/${file.path.split('/').pop()}`, file.text]))
  const mock = createMockAgentHandler({ routes: createResumeRoutes() })
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path?.startsWith('/mock/')) return mock(req, res)
    const file = files.get(path ?? '')
    if (file !== undefined) {
      res.writeHead(200, { 'content-type': path?.endsWith('.css') ? 'text/css' : 'text/javascript', 'cache-control': 'no-store' }).end(file)
      return
    }
    const entry = path === '/story' ? 'story' : 'app'
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(`<!doctype html><html lang="en"><head><title>weft pages</title>${
      files.has(`/${entry}.css`) ? `<link rel="stylesheet" href="/${entry}.css">` : ''
    }</head><body><div id="root"></div><script type="module" src="/${entry}.js"></script></body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}, 120_000)

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close()
})

afterAll(async () => {
  await browser?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

let databases = 0
const freshDb = () => `weft-pages-${process.pid}-${++databases}`

async function openContext(): Promise<BrowserContext> {
  const context = await browser.newContext()
  contexts.push(context)
  return context
}

async function openPage(context: BrowserContext, db: string, delay = 5): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
  await page.goto(`${origin}/?db=${db}&delay=${delay}`)
  await page.getByRole('listbox').waitFor()
  return page
}

/** Ask a question in the selected conversation and, unless told not to, wait for the answer's end. */
async function ask(page: Page, question: string, wait = true): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(question)
  await page.getByRole('button', { name: 'Send' }).click()
  if (wait) await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 }).toBe('done')
}

const rows = (page: Page) => page.getByRole('option')
const titles = (page: Page) => page.locator('[data-weft="thread-title"]').allTextContents()
const row = (page: Page, title: string) => rows(page).filter({ hasText: title })
const selectedId = (page: Page) => page.evaluate(() => window.weftPage.conversations.selectedId)

/** A conversation as this page's store holds it: its turns' roles and statuses, questions and answers. */
function conversation(page: Page, id: string) {
  return page.evaluate((conversationId) => {
    const state = window.weftPage.conversations.storeOf(conversationId)?.getState()
    if (!state) return undefined
    const textOf = (turnId: string) => (state.turns[turnId]?.messageIds ?? [])
      .map((m) => window.weftPage.messageIn(state.messages, m)).filter((m) => m?.type === 'text').map((m) => String(m?.props.content ?? '')).join('')
    return {
      turns: state.turnIds.map((t) => ({ role: state.turns[t]?.role, status: state.turns[t]?.status, text: textOf(t) })),
    }
  }, id)
}

/** The record IndexedDB holds, read with a fresh connection (what another tab would load). */
function storedTexts(page: Page, id: string) {
  return page.evaluate(async (conversationId) => {
    const record = await window.weftPage.storage.load(conversationId) as { revision: number; state: { turnIds: string[]; turns: Record<string, { messageIds: string[] }>; messages: Record<string, { type: string; props: { content?: unknown } }> } } | undefined
    if (!record) return undefined
    const { state } = record
    return state.turnIds.map((t) => (state.turns[t]?.messageIds ?? []).map((m) => state.messages[m]).filter((m) => m?.type === 'text').map((m) => String(m?.props.content ?? '')).join(''))
  }, id)
}

describe('conversations in real Chromium pages', { timeout: 120_000 }, () => {
  it('three conversations survive page.reload(), with the selected one active', async () => {
    const page = await openPage(await openContext(), freshDb())
    await ask(page, 'Plan a trip to Lisbon')
    const lisbon = await selectedId(page)
    await page.getByRole('button', { name: 'New chat', exact: true }).click()
    await page.getByRole('button', { name: 'New chat', exact: true }).click()
    await expect.poll(() => rows(page).count()).toBe(3)
    // Rename the newest in place (F2), then open the Lisbon conversation by keyboard.
    await rows(page).first().focus()
    await page.keyboard.press('F2')
    await page.getByRole('textbox', { name: 'Conversation title' }).fill('Budget')
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toContain('Budget')
    await rows(page).first().focus()
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('title').textContent()).toBe('Plan a trip to Lisbon')

    await page.reload()
    await page.getByRole('listbox').waitFor()
    await expect.poll(() => titles(page)).toHaveLength(3)
    expect((await titles(page)).sort()).toEqual(['Budget', 'New chat', 'Plan a trip to Lisbon'])
    expect(await selectedId(page)).toBe(lisbon)
    expect(await row(page, 'Plan a trip to Lisbon').getAttribute('aria-selected')).toBe('true')
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').textContent()).toContain('Contoso renews on 30 September')
    expect((await conversation(page, lisbon as string))?.turns.map((t) => t.text)).toEqual(['Plan a trip to Lisbon', ANSWER])
  })

  it('a corrupt record beside two good ones: an error on that one only, the others load, the record is left as it is', async () => {
    const page = await openPage(await openContext(), freshDb())
    await ask(page, 'Good one')
    await page.getByRole('button', { name: 'New chat', exact: true }).click()
    await ask(page, 'Good two')
    // Another program (or a broken version) writes a damaged record and its summary.
    const damaged = { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 5, updatedAt: 5, revision: 1, state: { turnIds: ['t1'], turns: {} } }
    await page.evaluate(async (record) => {
      const open = indexedDB.open(window.weftPage.storage.name)
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      const tx = db.transaction(['summaries', 'records'], 'readwrite')
      const { state: _state, ...summary } = record
      tx.objectStore('summaries').put(summary, record.id)
      tx.objectStore('records').put(record, record.id)
      await new Promise((resolve) => { tx.oncomplete = resolve })
      db.close()
    }, damaged)

    await page.reload()
    await page.getByRole('listbox').waitFor()
    await expect.poll(() => titles(page)).toHaveLength(3)
    expect((await titles(page)).sort()).toEqual(['Broken', 'Good one', 'Good two'])
    await row(page, 'Broken').click()
    await expect.poll(() => row(page, 'Broken').getAttribute('data-status')).toBe('error')
    expect(await row(page, 'Broken').textContent()).toContain('Cannot be read')
    expect(await page.getByRole('alert').first().textContent()).toContain('cannot be read')
    await row(page, 'Good one').click()
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="user"]').allTextContents()).toEqual([expect.stringContaining('Good one')])
    await row(page, 'Good two').click()
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="user"]').allTextContents()).toEqual([expect.stringContaining('Good two')])
    await page.evaluate(() => window.weftPage.conversations.flush())
    expect(await page.evaluate(() => window.weftPage.storage.load('broken'))).toEqual(damaged)
  })

  it('two pages of one browser context on one conversation: a save is followed, and a clash is a visible conflict, never a silent overwrite', async () => {
    const context = await openContext()
    const db = freshDb()
    const left = await openPage(context, db)
    await ask(left, 'First from the left')
    const id = await selectedId(left) as string
    // The right page opens later: the newest conversation is the left's.
    const right = await openPage(context, db, 120)
    expect(await selectedId(right)).toBe(id)
    await expect.poll(async () => (await conversation(right, id))?.turns.map((t) => t.text)).toEqual(['First from the left', ANSWER])

    // The right asks a slow question; meanwhile the left asks and finishes first.
    await ask(right, 'Slow from the right', false)
    await expect.poll(() => right.getByTestId('status').textContent()).toBe('streaming')
    await ask(left, 'Quick from the left')
    const conflict = right.getByRole('option').getByRole('alert')
    await expect.poll(() => conflict.textContent(), { timeout: 20_000 }).toContain('Changed in another tab')
    await expect.poll(() => right.getByTestId('status').textContent(), { timeout: 30_000 }).toBe('done')
    // The right's answer ended, but what is stored is still the left's: nothing was clobbered.
    const leftVersion = ['First from the left', ANSWER, 'Quick from the left', ANSWER]
    expect(await storedTexts(left, id)).toEqual(leftVersion)
    expect((await conversation(right, id))?.turns.map((t) => t.text)).toEqual(['First from the left', ANSWER, 'Slow from the right', ANSWER])

    // The user keeps the right's copy: it is saved, and the left (no unsaved changes) follows it.
    await conflict.getByRole('button', { name: 'Keep mine' }).click()
    const rightVersion = ['First from the left', ANSWER, 'Slow from the right', ANSWER]
    await expect.poll(() => storedTexts(right, id)).toEqual(rightVersion)
    await expect.poll(async () => (await conversation(left, id))?.turns.map((t) => t.text)).toEqual(rightVersion)
    await expect.poll(() => left.locator('[data-weft="turn"][data-role="user"]').allTextContents()).toEqual([
      expect.stringContaining('First from the left'), expect.stringContaining('Slow from the right'),
    ])
  })

  it('a stream in progress in a conversation that is not selected resumes after page.reload() into its own conversation, without being opened, with the exact text', async () => {
    const page = await openPage(await openContext(), freshDb(), 250)
    await ask(page, 'Where is the Contoso renewal?', false)
    const asking = await selectedId(page) as string
    // The user moves on; the answer keeps folding into its own conversation, which the list shows as streaming.
    await page.getByRole('button', { name: 'New chat', exact: true }).click()
    const other = await selectedId(page) as string
    expect(other).not.toBe(asking)
    await expect.poll(() => row(page, 'Where is the Contoso renewal?').getAttribute('data-status')).toBe('streaming')
    await expect.poll(async () => (await conversation(page, asking))?.turns[1]?.text ?? '', { timeout: 20_000, interval: 20 }).not.toBe('')
    const before = await conversation(page, asking)
    expect(before?.turns[1]?.status).toBe('streaming')
    expect(ANSWER.startsWith(before?.turns[1]?.text ?? '-')).toBe(true)
    expect(before?.turns[1]?.text).not.toBe(ANSWER)

    await page.reload()
    await page.getByRole('listbox').waitFor()
    // The selection stays where the user left it; the background conversation resumes on its own.
    expect(await selectedId(page)).toBe(other)
    // While it resumes, the list shows it answering.
    await expect.poll(() => row(page, 'Where is the Contoso renewal?').getAttribute('data-status'), { timeout: 20_000, interval: 20 }).toBe('streaming')
    await expect.poll(async () => (await conversation(page, asking))?.turns.map((t) => t.status), { timeout: 30_000 }).toEqual(['done', 'done'])
    expect(await selectedId(page)).toBe(other)
    expect((await conversation(page, asking))?.turns.map((t) => t.text)).toEqual(['Where is the Contoso renewal?', ANSWER])
    expect((await conversation(page, other))?.turns ?? []).toEqual([])
    await expect.poll(() => row(page, 'Where is the Contoso renewal?').getAttribute('data-status')).toBe('idle')
    // What was resumed is saved: another reload shows it, once.
    await expect.poll(() => storedTexts(page, asking)).toEqual(['Where is the Contoso renewal?', ANSWER])
    await page.reload()
    await page.getByRole('listbox').waitFor()
    await row(page, 'Where is the Contoso renewal?').click()
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').count()).toBe(1)
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').textContent()).toContain(ANSWER.slice(0, 30))
  })
})

describe('the thread list story', { timeout: 120_000 }, () => {
  it('shows the thread list with the mock server and survives a real reload of the story', async () => {
    const page = await (await openContext()).newPage()
    page.on('pageerror', (error) => console.error(`story error: ${error.message}`))
    await page.goto(`${origin}/story`)
    await page.getByRole('listbox').waitFor()
    await page.getByRole('button', { name: 'Send' }).click()
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 30_000 }).toBe('done')
    await expect.poll(() => rows(page).first().textContent()).toContain('Where is the Contoso renewal?')
    await page.getByRole('button', { name: 'New chat', exact: true }).click()
    await expect.poll(() => rows(page).count()).toBe(2)
    await row(page, 'Where is the Contoso renewal?').locator('[data-weft="thread-title"]').click()
    await expect.poll(() => page.getByTestId('chat-title').textContent()).toBe('Where is the Contoso renewal?')

    await page.reload()
    await page.getByRole('listbox').waitFor()
    await expect.poll(() => rows(page).count()).toBe(2)
    expect(await page.getByTestId('chat-title').textContent()).toBe('Where is the Contoso renewal?')
    expect(await row(page, 'Where is the Contoso renewal?').getAttribute('aria-selected')).toBe('true')
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').textContent()).toContain('Contoso renews on 30 September')
  })
})
