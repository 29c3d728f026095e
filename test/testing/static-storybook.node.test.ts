/**
 * `build-storybook`, served as plain static files (no mock server behind them):
 * the stories still stream, because Mock Service Worker answers their requests.
 * Checked in the system Chromium.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium'
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png',
}

let outDir: string
let server: Server
let origin: string
let browser: Browser
/** Every path the static server was asked for. */
const served: string[] = []

/** A static file server and nothing else: unknown paths are 404, as on any static host. */
function serveStatic(dir: string): Promise<Server> {
  const srv = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    served.push(path)
    const file = normalize(join(dir, path === '/' ? 'index.html' : path))
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    res.end(readFileSync(file))
  })
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)))
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'weft-storybook-'))
  const build = spawnSync(process.execPath, [join(root, 'node_modules/storybook/dist/bin/dispatcher.js'), 'build', '-o', outDir, '--quiet'], {
    cwd: root, encoding: 'utf8', timeout: 300_000, env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1', CI: '1' },
  })
  if (build.status !== 0) throw new Error(`build-storybook failed:\n${build.stdout}\n${build.stderr}`)
  server = await serveStatic(outDir)
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
}, 400_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

/** Opens one story in the static build; its play function sends, and the page streams. */
async function openStory(id: string) {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`)
  return { page, errors }
}

describe('the static Storybook build', () => {
  it('ships the service worker script', () => {
    expect(readFileSync(join(outDir, 'mockServiceWorker.js'), 'utf8')).toContain('Mock Service Worker')
  })

  it('streams a protocol story from /mock/stream with no mock server behind it', async () => {
    const { page, errors } = await openStory('protocols-vocion--answer')
    await page.waitForSelector('[data-weft="status-bar"][data-state="done"]', { timeout: 60_000 })
    const text = await page.textContent('[data-weft="turn"][data-role="assistant"] [data-type="text"]')
    expect(text).toBe('Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.')
    expect(await page.locator('[data-weft="source"]').count()).toBe(2)
    expect(errors).toEqual([])
    // The stream never reached the network: the worker answered it.
    expect(served.filter((p) => p.startsWith('/mock/'))).toEqual([])
    await page.close()
  }, 120_000)

  it('resumes a dropped Vocion stream through the resume route the worker serves', async () => {
    const { page, errors } = await openStory('streams-resume--dropped-connection')
    await page.waitForSelector('[data-testid="status"]:text-is("done")', { timeout: 60_000 })
    const history = await page.locator('[data-testid="status-history"] li').allTextContents()
    expect(history).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done'])
    expect(await page.textContent('[data-weft="turn"][data-role="assistant"] [data-type="text"]')).toBe(
      'Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.',
    )
    expect(errors).toEqual([])
    expect(served.filter((p) => p.startsWith('/mock/'))).toEqual([])
    await page.close()
  }, 120_000)

  it('streams a story whose handlers are agentHandlers on the host’s own endpoint', async () => {
    const { page, errors } = await openStory('testing-msw-handlers--random-splits')
    await page.waitForSelector('[data-testid="status"]:text-is("done")', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="turn-assistant"]')).toMatch(/^Paragraph 1: the café’s ledger for week 1 balances — 収支は一致しています\. /)
    expect(errors).toEqual([])
    expect(served.filter((p) => p.startsWith('/api/'))).toEqual([])
    await page.close()
  }, 120_000)

  it('streams a withAgent story whose connection drops and resumes, through the decorator’s own fetch', async () => {
    const { page, errors } = await openStory('testing-withagent-decorator--drop-at-four-resumes-yao')
    await page.waitForSelector('[data-weft-agent-stage][data-turns-ended="1"]:not([data-status="streaming"]):not([data-status="reconnecting"])', { timeout: 60_000 })
    const stage = page.locator('[data-weft-agent-stage]')
    expect(await stage.getAttribute('data-status')).toBe('done')
    // The first connection, dropped at frame 4, and the reconnect that got the rest.
    expect(await stage.getAttribute('data-requests')).toBe('2')
    expect(await page.textContent('[data-testid="turn-assistant"]')).toBe('Hello World!')
    expect(errors).toEqual([])
    await page.close()
  }, 120_000)

  it('plays a Loop story: a Vocion gate approved, its answer posted to the gate’s own URL, the turn goes on', async () => {
    const { page, errors } = await openStory('conversation-loop--vocion-approval')
    await page.waitForSelector('[data-weft="gate"][data-state="approved"]', { timeout: 60_000 })
    await page.waitForSelector('[data-weft="turn"][data-role="assistant"] [data-type="text"]:has-text("Done: the report is deleted.")', { timeout: 60_000 })
    await page.waitForSelector('[data-weft="status-bar"][data-state="done"]', { timeout: 60_000 })
    expect(errors).toEqual([])
    // The loop agent and the gate's answer were both answered by the worker.
    expect(served.filter((p) => p.startsWith('/api/') || p.startsWith('/mock/'))).toEqual([])
    await page.close()
  }, 120_000)

  it('plays a Loop story: an AI SDK chat regenerated and edited, each request answered from what it carried', async () => {
    const { page, errors } = await openStory('conversation-loop--ui-message-branches')
    // The edited question reaches the agent, which quotes it back in a third answer.
    await page.waitForSelector('[data-weft="turn"][data-role="assistant"] [data-type="text"]:has-text("to “hi there”")', { timeout: 60_000 })
    await page.waitForSelector('[data-weft="status-bar"][data-state="done"]', { timeout: 60_000 })
    const answers = await page.locator('[data-weft="turn"][data-role="assistant"] [data-type="text"]').allTextContents()
    expect(answers.at(-1)).toMatch(/^Answer #\d+ to “hi there”\.$/)
    expect(errors).toEqual([])
    expect(served.filter((p) => p.startsWith('/api/') || p.startsWith('/mock/'))).toEqual([])
    await page.close()
  }, 120_000)
})
