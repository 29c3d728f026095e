/**
 * The scenarios every host build goes through, in Chromium against the stock
 * servers: a streamed markdown answer, an answer with math and a diagram, an
 * approval through the gate card, a reload after the answer and a reload in the
 * middle of one. One host app per test file (with or without the optional peers
 * shiki, KaTeX and Mermaid), built once for each
 * README snippet it takes (the first chat, the persisted chat) against each of
 * the AI SDK route and the AG-UI server.
 *
 * Checks that are independent of each other are soft, so one failing run
 * reports every difference at once.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, openPage, startPreview, type HostPage, type Preview } from './preview'
import { describeLangGraphHost } from './langgraph-host'
import { DEVTOOLS_APP, describeDevtoolsHost } from './devtools-host'
import { buildApp, buildCustomApp, buildLangGraphApp, scaffoldHost, seconds, tempDir, type Host, type ProtocolName, type SnippetName } from './scaffold'
import {
  APPROVED_ANSWER, QUESTIONS, SLOW_WORDS, runInputOf, startAgUiServer, startAiSdkRoute, uiMessagesOf, type Received, type StockServer,
} from './servers'

const TURN = '[data-weft="turn"]'
const ANSWER = `${TURN}[data-role="assistant"]`
/** How long a page gets to show what a step should show. */
const WAIT = { timeout: 20_000, interval: 100 }

/** What a page shows, for assertions and for a failure's message. */
interface Seen {
  turns: Array<{ role: string | null; state: string | null; text: string }>
  alerts: string[]
  body: string
}

async function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => ({
    turns: [...document.querySelectorAll('[data-weft="turn"]')].map((el) => ({
      role: el.getAttribute('data-role'), state: el.getAttribute('data-state'), text: (el as HTMLElement).innerText,
    })),
    alerts: [...document.querySelectorAll('[role="alert"]')].map((el) => (el as HTMLElement).innerText),
    body: document.body.innerText,
  }))
}

/** Sends `question` with the composer, as a person does: the textbox "Message", then "Send". */
async function send(page: Page, question: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(question)
  await page.getByRole('button', { name: 'Send' }).click()
}

/**
 * Waits until the last answer has ended (or the page shows an error), then
 * checks that it is not today's production-build failure, so that one reads
 * as itself rather than as a timeout.
 */
async function settled(page: Page, count: number): Promise<Seen> {
  let last: Seen | undefined
  await expect.poll(async () => {
    last = await seen(page)
    const answers = last.turns.filter((t) => t.role === 'assistant')
    const ended = answers.length >= count && ['done', 'error', 'aborted'].includes(answers.at(-1)!.state ?? '')
    return ended || last.alerts.length > 0 || last.body.includes('no protocol named')
  }, { ...WAIT, message: 'the answer never ended' }).toBe(true)
  expect(last!.body, 'the page names a protocol it does not know (the umbrella entry registered none)').not.toContain('no protocol named')
  return last!
}

/** The chat requests a stock server received since `from`. */
const chatPosts = (server: StockServer, from: number): Received[] => server.received.slice(from).filter((r) => r.method === 'POST' && r.path === '/api/chat')

/** The conversation id each protocol's request carries: the AI SDK's `id`, AG-UI's `threadId`. */
function conversationIdOf(protocol: ProtocolName, request: Received): unknown {
  return protocol === 'ui-message' ? (request.body as { id?: unknown }).id : runInputOf(request)?.threadId
}

/** Text alignment of the answer's text elements; the template centres `#root`, which must not reach the chat. */
async function centred(page: Page): Promise<string[]> {
  return page.locator(ANSWER).last().evaluate((turn) =>
    [...turn.querySelectorAll('h1, h2, h3, p, li, pre, code')]
      .filter((el) => getComputedStyle(el).textAlign === 'center')
      .map((el) => `<${el.tagName.toLowerCase()}> ${(el as HTMLElement).innerText.slice(0, 30)}`))
}

/**
 * What every scenario ends on: not today's "no protocol named", no error
 * banner, no script error, and no response with an error status beyond
 * `expectedFailures`. Soft, so each difference is reported.
 */
async function expectClean({ page, errors, failed }: HostPage, expectedFailures: unknown[] = []): Promise<void> {
  const now = await seen(page)
  expect.soft(now.body, 'the page names a protocol it does not know').not.toContain('no protocol named')
  expect.soft(now.alerts, 'error banners ([role="alert"])').toEqual([])
  expect.soft(errors, 'pageerrors and console errors').toEqual([])
  expect.soft(failed, 'responses with an error status').toEqual(expectedFailures)
}

/** Timings of one host, printed when its file ends. */
const timings: string[] = []

/**
 * Defines the suite for one host app: scaffolded and installed once, then each
 * build (each of `snippets` against each stock server) served by `vite preview` in turn.
 *
 * @example
 * describeHost({ shiki: true, snippets: ['first'] })
 */
export function describeHost({
  shiki, snippets = ['first', 'persisted'], protocols = ['ui-message', 'ag-ui'], langgraph = false, devtools = false,
}: { shiki: boolean; snippets?: readonly SnippetName[]; protocols?: readonly ProtocolName[]; langgraph?: boolean; devtools?: boolean }): void {
  const label = shiki ? 'with shiki' : 'without shiki'
  let browser: Browser
  let servers: Record<ProtocolName, StockServer>
  let host: Host
  let remove = () => {}
  const suiteStart = performance.now()
  /** Each build, started in turn as soon as the host is installed, so a build runs while the previous one's scenarios wait on the page. */
  const builds = new Map<string, Promise<{ outDir: string; seconds: number }>>()
  /** The last build queued: the builds share the host's src/App.tsx, so each waits for the one before. */
  let previous: Promise<unknown> = Promise.resolve()
  let installed: () => void = () => {}
  const ready = new Promise<void>((resolve) => (installed = resolve))
  const BUILDS = snippets.flatMap((name) => protocols.map((protocol) => [name, protocol] as const))

  beforeAll(async () => {
    // Chromium first: without it, fail before the minute of installing and building.
    browser = await launchChromium()
    servers = { 'ui-message': await startAiSdkRoute(), 'ag-ui': await startAgUiServer() }
    const temp = tempDir(shiki ? 'shiki' : 'plain')
    remove = temp.remove
    const start = performance.now()
    host = await scaffoldHost(temp.dir, shiki ? 'host-shiki' : 'host-plain', inject('weftTarball'), { shiki })
    timings.push(`scaffold + npm install: ${seconds(start)} s`)
    // The builds share the host's src/App.tsx, so they run one after another; a failed one fails only its own describe.
    installed()
    for (const [name, protocol] of BUILDS) {
      const build = previous.catch(() => undefined).then(async () => {
        const began = performance.now()
        const outDir = await buildApp(host, name, protocol)
        return { outDir, seconds: seconds(began) }
      })
      build.catch(() => undefined)
      builds.set(`${name}/${protocol}`, build)
      previous = build
    }
  }, 300_000)

  afterAll(async () => {
    await Promise.allSettled(builds.values())
    await browser?.close()
    await Promise.all(Object.values(servers ?? {}).map((server) => server.close()))
    remove()
    console.log(`hosts (${label}): ${[...timings, `whole file: ${seconds(suiteStart)} s`].join('; ')}`)
  })

  for (const [name, protocol] of BUILDS) describeBuild(name, protocol)
  if (langgraph) {
    describeLangGraphHost(label, () => browser, async (apiUrl) => {
      await ready
      const build = previous.catch(() => undefined).then(() => buildLangGraphApp(host, apiUrl))
      previous = build
      return build
    }, () => host)
  }
  if (devtools) {
    describeDevtoolsHost(label, () => browser, async () => {
      await ready
      const build = previous.catch(() => undefined).then(() => buildCustomApp(host, 'devtools', DEVTOOLS_APP))
      previous = build
      return build
    }, () => host)
  }

  function describeBuild(name: SnippetName, protocol: ProtocolName): void {
    const persisted = name === 'persisted'
    describe(`${label}: the README's ${persisted ? 'persisted chat' : 'first chat'} against ${protocol === 'ui-message' ? 'an AI SDK route' : 'an AG-UI server'}`, () => {
      let preview: Preview | undefined
      const pages: HostPage[] = []
      let scenariosStart = 0

      beforeAll(async () => {
        const waited = performance.now()
        const { outDir, seconds: built } = await builds.get(`${name}/${protocol}`)!
        timings.push(`${name}/${protocol} build ${built} s (waited ${seconds(waited)} s)`)
        preview = await startPreview(host.dir, outDir, servers[protocol].url)
        scenariosStart = performance.now()
      }, 300_000)

      afterAll(async () => {
        for (const { context } of pages.splice(0)) await context.close()
        await preview?.close()
        if (scenariosStart) timings.push(`${name}/${protocol} scenarios ${seconds(scenariosStart)} s`)
      })

      async function open(): Promise<HostPage> {
        const opened = await openPage(browser, preview!.url)
        pages.push(opened)
        return opened
      }

      it('streams a markdown answer: its heading, list and code block, in the chat\'s own alignment', async () => {
        const opened = await open()
        const { page } = opened
        await send(page, QUESTIONS.markdown)
        const result = await settled(page, 1)
        expect(result.turns.at(-1)).toMatchObject({ role: 'assistant', state: 'done' })
        const answer = page.locator(ANSWER).last()
        await expect.poll(() => answer.locator('h2').allInnerTexts()).toEqual(['Release plan'])
        expect(await answer.locator('li').allInnerTexts()).toEqual(['Freeze the branch', 'Run the checks', 'Tag and publish'])
        const code = answer.locator('[data-weft="code-block"]')
        expect(await code.count()).toBe(1)
        expect(await code.locator('code').innerText()).toContain('export function greet(name: string): string {')
        if (shiki) {
          // Coloured the documented way: tokens with their colours in a style.
          await expect.poll(() => code.getAttribute('data-state'), { ...WAIT, message: 'the code block was never highlighted' }).toBe('highlighted')
          const colours = await code.locator('code span[style]').evaluateAll((spans) => [...new Set(spans.map((span) => getComputedStyle(span).color))])
          expect.soft(colours.length, 'the colours the code tokens are drawn in (the spans carry --weft-code-* variables, which weft/styles.css applies)').toBeGreaterThan(1)
        } else {
          expect(await code.getAttribute('data-state')).toBe('plain')
          expect(await code.locator('code span[style]').count()).toBe(0)
        }
        expect.soft(await centred(page), 'answer text centred by the template\'s #root { text-align: center }').toEqual([])
        await expectClean(opened)
      })

      it(shiki ? 'draws math with KaTeX\'s stylesheet and fonts, and a Mermaid diagram, each fetched with the answer that needs it' : 'leaves math as text and a mermaid fence as code, and fetches neither library', async () => {
        const opened = await open()
        const { page } = opened
        const fetched = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((url) => /katex|mermaid/i.test(url)))
        await send(page, QUESTIONS.math)
        await settled(page, 1)
        const answer = page.locator(ANSWER).last()
        await expect.poll(() => answer.innerText(), WAIT).toContain('The plan costs $5 and $10 a month.')
        if (shiki) {
          const block = answer.locator('[data-weft="math-block"]')
          const diagram = answer.locator('[data-weft="diagram"]')
          await expect.poll(() => block.getAttribute('data-state'), { ...WAIT, message: 'the display math was never drawn' }).toBe('rendered')
          await expect.poll(() => answer.locator('[data-weft="math"]').first().getAttribute('data-state'), WAIT).toBe('rendered')
          await expect.poll(() => diagram.getAttribute('data-state'), { ...WAIT, message: 'the diagram was never drawn' }).toBe('rendered')
          expect(await block.locator('.katex-display').count()).toBe(1)
          // KaTeX's stylesheet came with the math chunk through the host's own build: its fonts are in use and load.
          expect(await block.locator('.katex').first().evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/KaTeX_Main/)
          await expect.poll(() => page.evaluate(() => [...document.fonts].some((face) => face.family.replace(/"/g, '') === 'KaTeX_Main' && face.status === 'loaded')), WAIT).toBe(true)
          expect(await diagram.locator('[data-weft="diagram-svg"] svg').count()).toBe(1)
          expect((await fetched()).length).toBeGreaterThan(0)
        } else {
          expect(await answer.locator('[data-weft="math"], [data-weft="math-block"], [data-weft="diagram"]').count()).toBe(0)
          expect(await answer.innerText()).toContain('$ax^2 + bx + c = 0$')
          expect(await answer.locator('[data-weft="code-block"][data-lang="mermaid"]').count()).toBe(1)
          expect(await fetched()).toEqual([])
        }
        await expectClean(opened)
      })

      it('answers an approval through the gate card, and the server receives it', async () => {
        const opened = await open()
        const { page } = opened
        const from = servers[protocol].received.length
        await send(page, QUESTIONS.approval)
        await settled(page, 1)
        const gate = page.locator('[data-weft="gate"]')
        await expect.poll(() => gate.getAttribute('data-state'), WAIT).toBe('pending')
        if (protocol === 'ui-message') {
          // A tool approval is a yes or no: the card's button "Approve".
          await gate.getByRole('button', { name: 'Approve' }).click()
        } else {
          // An AG-UI interrupt asks for an answer: "Your answer", then the card's "Submit".
          await gate.getByRole('textbox', { name: 'Your answer' }).fill('yes')
          await gate.getByRole('button', { name: 'Submit' }).click()
        }
        await expect.poll(async () => (await seen(page)).body, { ...WAIT, message: 'the continuation never appeared' }).toContain(APPROVED_ANSWER)
        const posts = chatPosts(servers[protocol], from)
        expect(posts).toHaveLength(2)
        if (protocol === 'ui-message') {
          const tool = uiMessagesOf(posts[1]!).at(-1)?.parts.find((part) => part.type === 'tool-deleteFile')
          expect(tool).toMatchObject({ state: 'approval-responded', approval: { approved: true } })
        } else {
          expect(runInputOf(posts[1]!)?.resume).toEqual([{ interruptId: expect.stringMatching(/^approve-/), status: 'resolved', payload: { value: 'yes' } }])
        }
        expect(await gate.getAttribute('data-state'), 'the answered gate').toMatch(/^(approved|answered)$/)
        await expectClean(opened)
      })

      it(persisted ? 'after a reload shows the same conversation, and the next question goes on in it' : 'after a reload starts empty, with no error', async () => {
        const opened = await open()
        const { page } = opened
        const from = servers[protocol].received.length
        await send(page, QUESTIONS.markdown)
        await settled(page, 1)
        await page.reload()
        if (persisted) {
          await expect.poll(async () => (await seen(page)).turns.map((t) => `${t.role}:${t.state}`), { ...WAIT, message: 'the conversation did not come back' })
            .toEqual(['user:done', 'assistant:done'])
          const back = await seen(page)
          expect(back.turns[0]!.text).toContain(QUESTIONS.markdown)
          expect(back.turns[1]!.text).toContain('Release plan')
          await send(page, `${QUESTIONS.markdown} again`)
          await settled(page, 2)
          const posts = chatPosts(servers[protocol], from)
          expect(posts).toHaveLength(2)
          expect(typeof conversationIdOf(protocol, posts[0]!)).toBe('string')
          expect(conversationIdOf(protocol, posts[1]!), 'the next question\'s conversation id').toBe(conversationIdOf(protocol, posts[0]!))
          const roles = protocol === 'ui-message' ? uiMessagesOf(posts[1]!).map((m) => m.role) : runInputOf(posts[1]!)?.messages.map((m) => m.role)
          expect(roles).toEqual(['user', 'assistant', 'user'])
        } else {
          await page.getByRole('textbox', { name: 'Message' }).waitFor()
          expect((await seen(page)).turns).toEqual([])
        }
        await expectClean(opened)
      })

      it(persisted ? 'after a reload mid-answer keeps the partial answer as interrupted, with no error and a way to retry' : 'after a reload mid-answer starts clean, with no error', async () => {
        const opened = await open()
        const { page } = opened
        await send(page, QUESTIONS.slow)
        // Part of the answer is on screen, and more is still coming.
        await expect.poll(async () => page.locator(ANSWER).last().innerText().catch(() => ''), { ...WAIT, message: 'the slow answer never started' }).toContain(SLOW_WORDS[4]!)
        const partial = await page.locator(ANSWER).last().innerText()
        expect(partial).not.toContain(SLOW_WORDS.at(-1)!)
        await page.reload()
        await page.getByRole('textbox', { name: 'Message' }).waitFor()
        if (persisted) {
          let after: Seen | undefined
          await expect.poll(async () => {
            after = await seen(page)
            const answer = after.turns.find((t) => t.role === 'assistant')
            return answer !== undefined && !['streaming', 'connecting', 'reconnecting'].includes(answer.state ?? '')
          }, { ...WAIT, message: 'the interrupted answer never settled after the reload' }).toBe(true)
          const answer = after!.turns.find((t) => t.role === 'assistant')!
          expect.soft(answer.text, 'the partial answer after the reload').toContain(SLOW_WORDS.slice(0, 5).join(' '))
          expect.soft(answer.state, 'the interrupted answer\'s data-state').toBe('aborted')
          expect.soft(await page.locator(ANSWER).getByRole('button', { name: /^(Retry|Regenerate)$/ }).count(), 'a Retry or Regenerate button on the interrupted answer').toBe(1)
        } else {
          expect((await seen(page)).turns).toEqual([])
        }
        // The resumable client asks its resume URL once after the reload. A stock server has no resume
        // endpoint: the AI SDK route 404s GET /api/chat/<id>/stream, the AG-UI server 405s GET /api/chat.
        const probe = protocol === 'ui-message' ? /^GET \/api\/chat\/[^/]+\/stream 404$/ : /^GET \/api\/chat 405$/
        await expectClean(opened, persisted ? [expect.stringMatching(probe)] : [])
      })
    })
  }
}
