import '../../src/components/styles.css'
import { afterEach, describe, expect, it } from 'vitest'
import { cdp } from 'vitest/browser'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { Transcript } from '../../src/components/transcript'
import { renderWith, storeWith } from './support'

/** Chromium's own media emulation: what a person who asked for less motion gets. */
async function emulateReducedMotion(value: 'reduce' | 'no-preference') {
  await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value }] })
}

afterEach(() => emulateReducedMotion('no-preference'))

function draw() {
  const store = storeWith([
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.put', turnId: 't1', messageId: 'tool', type: 'tool', status: 'done', props: { toolCallId: 'c1', name: 'get_weather', state: 'output-available', input: { city: 'Paris' }, output: { tempC: 18 } } },
    { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: 'It is **18 °C** and' },
  ])
  const { container } = renderWith(store, <MarkdownSettingsProvider highlight={false}><Transcript.Root /></MarkdownSettingsProvider>)
  const last = container.querySelector('[data-weft="message"][data-state="streaming"] [data-weft="markdown"] > :last-child')!
  const chevron = container.querySelector('[data-weft="tool-header"]')!
  return { caret: getComputedStyle(last, '::after'), chevron: getComputedStyle(chevron, '::after') }
}

describe('reduced motion', () => {
  it('blinks the caret and turns the chevron by default', async () => {
    await emulateReducedMotion('no-preference')
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).toBe(false)
    const { caret, chevron } = draw()
    expect(caret.content).toBe('"▍"')
    expect(caret.animationName).toBe('weft-blink')
    expect(chevron.transitionProperty).toBe('transform')
  })

  it('stops the caret and the chevron when the person asks for less motion', async () => {
    await emulateReducedMotion('reduce')
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).toBe(true)
    const { caret, chevron } = draw()
    // The caret still shows, still.
    expect(caret.content).toBe('"▍"')
    expect(caret.animationName).toBe('none')
    expect(Number.parseFloat(chevron.transitionDuration)).toBe(0)
  })
})
