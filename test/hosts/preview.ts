/**
 * Serving a built host app with the host's own `vite preview` and driving it in
 * the system Chromium. The preview runs as its own process from the host's
 * node_modules, as `npm run preview` would, with the chat server it proxies
 * `/api` to in `CHAT_SERVER` (read by the host's `vite.config.ts`).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** A running `vite preview`. */
export interface Preview {
  url: string
  close(): Promise<void>
}

/**
 * `vite preview` of `outDir` on a free loopback port. Resolves once it prints
 * its URL; fails with its output if it exits or says nothing within 30 s.
 *
 * @example
 * const preview = await startPreview(host.dir, 'dist-first-ui-message', route.url)
 */
export function startPreview(hostDir: string, outDir: string, chatServer: string): Promise<Preview> {
  const child = spawn(process.execPath, [join(hostDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview', '--outDir', outDir, '--port', '0', '--strictPort', '--host', '127.0.0.1'], {
    cwd: hostDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CHAT_SERVER: chatServer, NO_COLOR: '1' },
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void close()
      reject(new Error(`vite preview printed no URL in 30 s:\n${output}`))
    }, 30_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output.replace(/\u001b\[[0-9;]*m/g, ''))?.[0]
      if (url) {
        clearTimeout(timer)
        resolve({ url, close })
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`vite preview exited (${code}) before serving:\n${output}`))
    })
  })
}

/** The system Chromium: `CHROMIUM_PATH`, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium'

/**
 * Launches the system Chromium, headless, with nothing that phones home. Fails
 * at once with what to install when there is none, rather than after the
 * hosts are built.
 *
 * @example
 * const browser = await launchChromium()
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`no Chromium at ${chromiumPath}: install Debian's chromium package (node scripts/ensure-chromium.mjs) or set CHROMIUM_PATH`)
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    timeout: 60_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

/** A page in a fresh browser context (its own IndexedDB and storage), and what went wrong in it. */
export interface HostPage {
  page: Page
  context: BrowserContext
  /** Uncaught errors and console errors from the page's scripts, in order. */
  errors: string[]
  /** Responses with an HTTP error status (`GET /api/chat/… 404`), which the browser also logs to the console. */
  failed: string[]
}

/** The line Chromium logs for a response with an error status; such responses are listed in `failed` instead. */
const FAILED_LOAD = 'Failed to load resource: the server responded with a status of'

/**
 * Opens `url` in a new context and collects uncaught errors, console errors
 * and failed responses, which every scenario asserts on.
 *
 * @example
 * const { page, errors, failed } = await openPage(browser, preview.url)
 */
export async function openPage(browser: Browser, url: string): Promise<HostPage> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  const failed: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith(FAILED_LOAD)) errors.push(`console.error: ${message.text()}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`)
  })
  await page.goto(url)
  return { page, context, errors, failed }
}
