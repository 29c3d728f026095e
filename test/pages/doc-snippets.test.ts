/**
 * The README's first chat and its persisted chat (and the same in
 * docs/conversations.md) run as copied: each block is bundled as it stands, with
 * nothing registered beside it (the entries it imports are all it gets), served
 * by Node on a loopback origin whose `/api/chat` is a stock AI SDK route
 * (`streamText` over the SDK's mock model, every request through
 * `validateUIMessages` and `convertToModelMessages`), and used in the system
 * Chromium: type, Send, read the answer. The Yao and Vocion host samples of
 * docs/yao.md and docs/vocion.md run the same way against routes that answer in
 * those protocols, and the bodies they send are the ones the docs describe.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { convertToModelMessages, simulateReadableStream, streamText, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { build, type Plugin } from 'esbuild'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWebServer, type WebServer } from '../helpers/web-server'
import { messageRecord } from '../../src/core/model/message-table'

const root = fileURLToPath(new URL('../..', import.meta.url))
const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium'

/** The ```tsx block of a document that contains `marker`. */
function snippet(doc: string, marker: string): string {
  const blocks = [...readFileSync(`${root}/${doc}`, 'utf8').matchAll(/^```tsx\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
  const found = blocks.filter((code) => code.includes(marker))
  if (found.length !== 1) throw new Error(`${doc}: expected one tsx block with ${marker}, found ${found.length}`)
  return found[0]!
}

const SNIPPETS = {
  'readme-first': snippet('README.md', 'AgentProvider><Assistant'),
  'readme-persisted': snippet('README.md', 'createConversations'),
  'conversations-persisted': snippet('docs/conversations.md', 'createConversations'),
  'yao-host': snippet('docs/yao.md', 'assistant_id'),
  // The sample defines the rail; the page below mounts it.
  'vocion-rail': `${snippet('docs/vocion.md', 'function Rail')}\nexport { Rail }\n`,
}

/** How each page mounts its sample: as a host's main module would. The samples' own host functions are stubs. */
const MOUNTS: Record<keyof typeof SNIPPETS, string> = {
  'readme-first': `import { App } from 'snippet:readme-first'\nconst ui = <App />`,
  'readme-persisted': `import { App } from 'snippet:readme-persisted'\nconst ui = <App />`,
  'conversations-persisted': `import { App } from 'snippet:conversations-persisted'\nconst ui = <App />`,
  'yao-host': `import App from 'snippet:yao-host'\nglobalThis.getToken = () => 'token-1'\nconst ui = <App />`,
  'vocion-rail': `import { AgentProvider } from 'weft/react'\nimport { Rail } from 'snippet:vocion-rail'\nglobalThis.openReview = () => {}\nconst ui = <AgentProvider><Rail conversationId="c-1" /></AgentProvider>`,
}

/** The public names, as the package maps them, pointed at the sources. */
const entries: Plugin = {
  name: 'weft-entries',
  setup(b) {
    b.onResolve({ filter: /^weft(\/.*)?$/ }, ({ path }) => {
      const sub = path.slice('weft'.length)
      if (sub === '/styles.css') return { path: `${root}/src/components/styles.css` }
      if (sub === '') return { path: `${root}/src/index.ts` }
      if (sub.startsWith('/protocols/')) return { path: `${root}/src${sub}/index.ts` }
      return { path: `${root}/src${sub}/index.ts` }
    })
    b.onResolve({ filter: /^snippet:/ }, ({ path }) => ({ path: path.slice('snippet:'.length), namespace: 'snippet' }))
    b.onLoad({ filter: /.*/, namespace: 'snippet' }, ({ path }) => ({
      contents: SNIPPETS[path as keyof typeof SNIPPETS], loader: 'tsx', resolveDir: root,
    }))
  },
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
let browser: Browser
let server: WebServer
const files = new Map<string, string>()
const posts: Array<{ id?: unknown; messages?: Array<{ role: string }> }> = []
/** What the Yao and Vocion routes received. */
const others: Array<{ path: string; authorization: string | null; body: unknown }> = []

const sse = (events: unknown[]) => new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })

beforeAll(async () => {
  const entryPoints = Object.fromEntries(Object.keys(SNIPPETS).map((name) => [name, `page:${name}`]))
  const bundle = await build({
    entryPoints, absWorkingDir: root, outdir: 'snippets-out', bundle: true, write: false, format: 'esm', target: 'es2022',
    jsx: 'automatic', logLevel: 'silent', define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [
      {
        name: 'pages',
        setup(b) {
          // Each page mounts the snippet's App, as a host's main module would.
          b.onResolve({ filter: /^page:/ }, ({ path }) => ({ path: path.slice('page:'.length), namespace: 'page' }))
          b.onLoad({ filter: /.*/, namespace: 'page' }, ({ path }) => ({
            contents: `import { createRoot } from 'react-dom/client'\n${MOUNTS[path as keyof typeof SNIPPETS]}\ncreateRoot(document.getElementById('root')).render(ui)\n`,
            loader: 'tsx', resolveDir: root,
          }))
        },
      },
      entries,
    ],
  })
  for (const file of bundle.outputFiles) files.set(`/${file.path.split('/').pop()}`, file.text)

  server = await startWebServer(async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/chat' && request.method === 'POST') {
      const body = (await request.json()) as { id?: unknown; messages?: unknown }
      posts.push(body as (typeof posts)[number])
      // What a stock route does with a body that is not a chat request: the SDK refuses it.
      const messages = await validateUIMessages({ messages: body.messages })
      const question = messages.at(-1)?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? ''
      const model = new MockLanguageModelV3({
        doStream: async () => ({
          stream: simulateReadableStream({
            chunkDelayInMs: null,
            chunks: [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: `You asked: ${question}.` },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ],
          }),
        }),
      })
      const result = streamText({ model, messages: await convertToModelMessages(messages) })
      return result.toUIMessageStreamResponse({ originalMessages: messages })
    }
    if (pathname === '/api/agent/chat' || pathname === '/rpc/agent/stream') {
      others.push({ path: pathname, authorization: request.headers.get('authorization'), body: await request.json() })
      if (pathname === '/rpc/agent/stream') {
        return sse([{ type: 'stream_meta', streamId: 's1' }, { type: 'answering' }, { type: 'response_delta', delta: 'Vocion says hi.' }, { type: 'done', response: 'Vocion says hi.' }])
      }
      return sse([
        { chunk_id: 'C1', type: 'event', props: { event: 'stream_start', data: { request_id: 'r1', chat_id: 'x' } } },
        { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'Sunny in Paris.' } },
        { chunk_id: 'C3', type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } },
      ])
    }
    // The resumable route with no active stream (AI SDK `resumable-stream`): nothing to resume.
    if (/^\/api\/chat\/[^/]+\/stream$/.test(pathname) && request.method === 'GET') return new Response(null, { status: 204 })
    const file = files.get(pathname)
    if (file !== undefined) return new Response(file, { headers: { 'content-type': pathname.endsWith('.css') ? 'text/css' : 'text/javascript' } })
    const name = pathname.slice(1)
    if (!(name in SNIPPETS)) return new Response('not found', { status: 404 })
    const css = files.has(`/${name}.css`) ? `<link rel="stylesheet" href="/${name}.css">` : ''
    return new Response(`<!doctype html><html lang="en"><head><title>snippet</title>${css}</head><body><div id="root"></div><script type="module" src="/${name}.js"></script></body></html>`, {
      headers: { 'content-type': 'text/html' },
    })
  })
  browser = await chromium.launch({
    executablePath, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function open(name: keyof typeof SNIPPETS): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${server.url}/${name}`)
  return { page, errors, close: () => context.close() }
}

async function ask(page: Page, question: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(question)
  await page.getByRole('button', { name: 'Send' }).click()
  await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').last().textContent(), { timeout: 20_000 })
    .toContain(`You asked: ${question}.`)
}

describe('the README snippets, as copied, against a stock AI SDK route', { timeout: 120_000 }, () => {
  it('the first chat: a question and its answer, then a second with the whole conversation', async () => {
    const { page, errors, close } = await open('readme-first')
    posts.length = 0
    await ask(page, 'Hello')
    await ask(page, 'And then?')
    expect(posts.map((p) => p.messages?.map((m) => m.role))).toEqual([['user'], ['user', 'assistant', 'user']])
    expect(await page.locator('[role="alert"]').count()).toBe(0)
    expect(errors).toEqual([])
    await close()
  })

  for (const name of ['readme-persisted', 'conversations-persisted'] as const) {
    it(`the persisted chat (${name}): an answer, and after a reload the same conversation under the same chat id`, async () => {
      const { page, errors, close } = await open(name)
      posts.length = 0
      await ask(page, 'Plan a trip')
      await page.reload()
      await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').last().textContent(), { timeout: 20_000 })
        .toContain('You asked: Plan a trip.')
      await ask(page, 'In May')
      expect(posts).toHaveLength(2)
      expect(typeof posts[0]!.id).toBe('string')
      expect(posts[1]!.id).toBe(posts[0]!.id)
      expect(posts[1]!.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
      expect(errors).toEqual([])
      await close()
    })
  }
})

describe('the protocol pages\' host samples, as copied', { timeout: 120_000 }, () => {
  it('docs/yao.md: Yao\'s own request with the assistant added, the token in the header', async () => {
    const { page, errors, close } = await open('yao-host')
    others.length = 0
    await page.getByRole('button', { name: 'Ask' }).click()
    await expect.poll(() => page.getByRole('log').textContent(), { timeout: 20_000 }).toContain('Sunny in Paris.')
    expect(others).toEqual([{
      path: '/api/agent/chat', authorization: 'Bearer token-1',
      body: { chat_id: expect.any(String), messages: [{ role: 'user', content: 'What is the weather in Paris?' }], assistant_id: 'mohe' },
    }])
    expect(errors).toEqual([])
    await close()
  })

  it('docs/vocion.md: the rail sends Vocion\'s own { conversationId, messages } and shows the answer', async () => {
    const { page, errors, close } = await open('vocion-rail')
    others.length = 0
    await page.getByRole('textbox', { name: 'Message' }).fill('Is the renewal on track?')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect.poll(() => page.locator('[data-weft="turn"][data-role="assistant"]').last().textContent(), { timeout: 20_000 })
      .toContain('Vocion says hi.')
    expect(others).toEqual([{
      path: '/rpc/agent/stream', authorization: null,
      body: { conversationId: 'c-1', messages: [{ role: 'user', content: 'Is the renewal on track?' }] },
    }])
    expect(errors).toEqual([])
    await close()
  })
})
