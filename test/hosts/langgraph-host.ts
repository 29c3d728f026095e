/**
 * The LangGraph page's host (docs/langgraph.md, as written) from the packed
 * tarball in a host's production build, in Chromium against the real LangGraph
 * server: a tool-calling answer streams, the thread list is the server's
 * threads, and after a reload the conversation comes back from the server's
 * history and the next question goes on in the same thread.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LangGraphServer, startLangGraphServer } from '../../scripts/langgraph-server.mjs'
import { openPage, startPreview, type HostPage, type Preview } from './preview'
import type { Host } from './scaffold'

const TURN = '[data-weft="turn"]'
const WAIT = { timeout: 20_000, interval: 100 }

interface Turns {
  roles: string[]
  states: string[]
  texts: string[]
}

async function turns(hostPage: HostPage): Promise<Turns> {
  return hostPage.page.evaluate((selector) => {
    const all = [...document.querySelectorAll(selector)]
    return {
      roles: all.map((el) => el.getAttribute('data-role') ?? ''),
      states: all.map((el) => el.getAttribute('data-state') ?? ''),
      texts: all.map((el) => (el as HTMLElement).innerText),
    }
  }, TURN)
}

async function ask(hostPage: HostPage, question: string, answers: number): Promise<Turns> {
  const { page } = hostPage
  await page.getByRole('textbox', { name: 'Message' }).fill(question)
  await page.getByRole('button', { name: 'Send' }).click()
  let last: Turns | undefined
  await expect.poll(async () => {
    last = await turns(hostPage)
    return last.roles.filter((r) => r === 'assistant').length >= answers && ['done', 'error', 'aborted'].includes(last.states.at(-1) ?? '')
  }, { ...WAIT, message: 'the answer never ended' }).toBe(true)
  return last!
}

async function thread(server: LangGraphServer, threadId: string): Promise<{ values: { messages: Array<{ type: string; content: unknown }> } }> {
  return (await fetch(`${server.url}/threads/${threadId}/state`)).json()
}

/**
 * The LangGraph host's scenarios, for a host the caller scaffolds; `build` builds it against the server's URL.
 *
 * @example
 * describeLangGraphHost('without shiki', () => browser, (apiUrl) => buildLangGraphApp(host, apiUrl))
 */
export function describeLangGraphHost(label: string, browser: () => Browser, build: (apiUrl: string) => Promise<string>, hostDir: () => Host): void {
  describe(`${label}: the LangGraph page's host against the real LangGraph server`, () => {
    let server: LangGraphServer
    let preview: Preview | undefined
    const pages: HostPage[] = []

    beforeAll(async () => {
      server = await startLangGraphServer()
      const outDir = await build(server.url)
      preview = await startPreview(hostDir().dir, outDir, server.url)
    }, 300_000)

    afterAll(async () => {
      for (const { context } of pages.splice(0)) await context.close()
      await preview?.close()
      await server?.stop()
    })

    it('streams a tool-calling answer into a thread of its own, and after a reload shows it again from the server and goes on in it', async () => {
      const opened = await openPage(browser(), preview!.url)
      pages.push(opened)
      const first = await ask(opened, 'What is the weather in Paris?', 1)
      expect(first.states).toEqual(['done', 'done'])
      expect(first.texts[1]).toContain('Let me look up the weather.')
      expect(first.texts[1]).toContain('get_weather')
      expect(first.texts[1]).toContain('It is sunny in Paris, 21 degrees.')
      // The conversation is a thread on the server, named by the conversation's id.
      const threads = await (await fetch(`${server.url}/threads/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json() as Array<{ thread_id: string }>
      expect(threads).toHaveLength(1)
      const threadId = threads[0]!.thread_id
      expect((await thread(server, threadId)).values.messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai'])

      await opened.page.reload()
      await expect.poll(async () => (await turns(opened)).texts.join('\n'), { ...WAIT, message: 'the conversation did not come back from the server' })
        .toContain('It is sunny in Paris, 21 degrees.')
      expect(await opened.page.getByText('What is the weather in Paris?').count()).toBeGreaterThanOrEqual(1)
      const next = await ask(opened, 'Thanks', 2)
      expect(next.states.at(-1)).toBe('done')
      const after = (await thread(server, threadId)).values.messages
      expect(after.filter((m) => m.type === 'human').map((m) => m.content)).toEqual(['What is the weather in Paris?', 'Thanks'])
      expect.soft(opened.errors, 'pageerrors and console errors').toEqual([])
      expect.soft(opened.failed, 'responses with an error status').toEqual([])
    })
  })
}
