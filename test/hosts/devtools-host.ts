/**
 * The developer's page from the packed tarball in a host's production build, in
 * Chromium against a stock AI SDK route: the README's first chat with voice
 * turned on the documented way (`VoiceSettingsProvider` with `weft/voice`'s Web
 * Speech adapters) and `weft/inspector`'s panel beside it. The answer streams,
 * the panel shows the request that started it and every frame it became, Save
 * recording hands over the same frames, and the browser's own speech services
 * (headless Chromium has neither a microphone nor a voice) fail in words the
 * page shows, never as a script error.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPage, startPreview, type HostPage, type Preview } from './preview'
import type { Host } from './scaffold'
import { QUESTIONS, startAiSdkRoute, type StockServer } from './servers'

const ANSWER = '[data-weft="turn"][data-role="assistant"]'
const WAIT = { timeout: 20_000, interval: 100 }

/**
 * The page a developer keeps open while building a chat: the README's first
 * chat, voice from docs/voice.md, and the inspector from docs/inspector.md.
 * The saved recording goes to `window.savedRecording` for the test to read.
 */
export const DEVTOOLS_APP = `import { AgentProvider, Chat, Composer, useAgentStream } from 'weft'
import { VoiceSettingsProvider } from 'weft/components'
import { createInspector, Inspector } from 'weft/inspector'
import { webSpeechDictation, webSpeechReadAloud } from 'weft/voice'
import 'weft/styles.css'

const inspector = createInspector()
const dictation = webSpeechDictation()
const readAloud = webSpeechReadAloud()

function Assistant() {
  const { send, stop } = useAgentStream({ url: '/api/chat', protocol: 'ui-message', inspector })
  return <Chat footer={<Composer send={send} stop={stop} />} />
}

export const App = () => (
  <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', height: '100vh' }}>
    <VoiceSettingsProvider dictation={dictation} readAloud={readAloud} lang="en-US">
      <AgentProvider><Assistant /></AgentProvider>
    </VoiceSettingsProvider>
    <Inspector
      inspector={inspector}
      download={false}
      onSaveRecording={(fixture) => { (window as unknown as { savedRecording?: unknown }).savedRecording = fixture }}
    />
  </div>
)
`

/**
 * The developer's page's scenarios, for a host the caller scaffolds; `build` builds `DEVTOOLS_APP` in it.
 *
 * @example
 * describeDevtoolsHost('with shiki', () => browser, () => buildDevtoolsApp(host), () => host)
 */
export function describeDevtoolsHost(label: string, browser: () => Browser, build: () => Promise<string>, hostDir: () => Host): void {
  describe(`${label}: a chat with voice and the inspector against an AI SDK route`, () => {
    let server: StockServer
    let preview: Preview | undefined
    const pages: HostPage[] = []

    beforeAll(async () => {
      server = await startAiSdkRoute()
      const outDir = await build()
      preview = await startPreview(hostDir().dir, outDir, server.url)
    }, 300_000)

    afterAll(async () => {
      for (const { context } of pages.splice(0)) await context.close()
      await preview?.close()
      await server?.close()
    })

    it('shows the turn\'s request and each frame it read, and Save recording hands over those frames', async () => {
      const opened = await openPage(browser(), preview!.url)
      pages.push(opened)
      const { page } = opened
      const panel = page.getByRole('region', { name: 'Agent inspector' })
      await panel.waitFor()
      await page.getByRole('textbox', { name: 'Message' }).fill(QUESTIONS.markdown)
      await page.getByRole('button', { name: 'Send' }).click()
      await expect.poll(() => page.locator(ANSWER).last().getAttribute('data-state').catch(() => null), { ...WAIT, message: 'the answer never ended' }).toBe('done')

      const request = panel.locator('[data-weft="wire-request"]')
      await expect.poll(async () => request.innerText(), WAIT).toContain('/api/chat')
      // The body as sent: the AI SDK request with the question in it.
      expect(await request.innerText()).toContain(QUESTIONS.markdown)
      const frames = panel.locator('[data-weft="wire-frames"]')
      await expect.poll(async () => Number(await frames.getAttribute('data-count')), { ...WAIT, message: 'the panel counted no frames' }).toBeGreaterThan(3)
      const counted = Number(await frames.getAttribute('data-count'))
      expect(await frames.locator('[data-weft="wire-frame"]').count()).toBe(counted)

      await panel.getByRole('button', { name: 'Save recording' }).click()
      const saved = await page.evaluate(() => (window as unknown as { savedRecording?: { protocol?: string; frames?: Array<{ data?: unknown }> } }).savedRecording)
      expect(saved?.protocol).toBe('ui-message')
      expect(saved?.frames).toHaveLength(counted)
      // Each frame's payload as it came (JSON events as objects, \`[DONE]\` as text), the answer's text among them.
      const types = saved!.frames!.map((frame) => (typeof frame.data === 'object' && frame.data !== null ? (frame.data as { type?: unknown }).type : frame.data))
      expect(types).toContain('text-delta')
      expect(types.at(-1)).toBe('[DONE]')
      // The server received the request the panel shows: one POST.
      expect(server.received.filter((r) => r.method === 'POST' && r.path === '/api/chat')).toHaveLength(1)
      expect.soft(opened.errors, 'pageerrors and console errors').toEqual([])
      expect.soft(opened.failed, 'responses with an error status').toEqual([])
    })

    it('turns the browser\'s refusals (no microphone, no voice) into words on the page, and the chat goes on', async () => {
      const opened = await openPage(browser(), preview!.url)
      pages.push(opened)
      const { page } = opened
      const dictate = page.getByRole('button', { name: 'Dictate' })
      await dictate.waitFor()
      await dictate.click()
      const composerStatus = page.locator('[data-weft="voice-status"]').first()
      await expect.poll(async () => (await composerStatus.innerText().catch(() => '')).trim(), { ...WAIT, message: 'dictation\'s failure was not shown' }).not.toBe('')
      expect(await composerStatus.getAttribute('role')).toBe('status')
      expect(await page.locator('[data-weft="composer"] [data-state="error"]').count()).toBeGreaterThanOrEqual(1)

      await page.getByRole('textbox', { name: 'Message' }).fill(QUESTIONS.markdown)
      await page.getByRole('button', { name: 'Send' }).click()
      await expect.poll(() => page.locator(ANSWER).last().getAttribute('data-state').catch(() => null), { ...WAIT, message: 'the answer never ended' }).toBe('done')
      const readAloud = page.locator(ANSWER).last().getByRole('button', { name: 'Read aloud' })
      await readAloud.click()
      // Headless Chromium has no voice: the read reports its failure beside the button, which is ready again.
      const readStatus = page.locator(ANSWER).last().locator('[data-weft="voice-status"]')
      await expect.poll(async () => (await readStatus.innerText().catch(() => '')).trim(), { ...WAIT, message: 'read aloud\'s failure was not shown' }).not.toBe('')
      expect(await readStatus.getAttribute('role')).toBe('status')
      expect(await page.locator(ANSWER).last().getByRole('button', { name: 'Read aloud' }).count()).toBe(1)
      expect(await page.locator(ANSWER).last().innerText()).toContain('Release plan')
      expect.soft(opened.errors, 'pageerrors and console errors').toEqual([])
    })
  })
}
