/**
 * Code colours in a real browser. Without a highlighter handed in, code stays
 * plain and nothing of shiki is fetched (the components never name it, so a host
 * without the optional peer builds). With `weft/shiki`'s highlighter, shiki is
 * fetched only when the first closed code fence is drawn, the fence shows as
 * plain code until then, and afterwards its tokens carry shiki's colours. An
 * unterminated fence (an answer still streaming) stays plain.
 */
import '../../src/components/styles.css'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Markdown, MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { shikiHighlighter } from 'weft/shiki'
import { renderWith, storeWith } from './support'

/** Scripts this page has fetched whose URL names shiki (the lazy chunk and its languages and themes), not the small entry imported above. */
const shikiFetched = () => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => /shiki/i.test(name) && !/\/src\/shiki\/index\.ts/.test(name))

const fence = '```ts\nconst answer: number = 42\nexport function ask() { return answer }\n```\n'

const withShiki = (ui: React.ReactNode) => <MarkdownSettingsProvider highlight={shikiHighlighter}>{ui}</MarkdownSettingsProvider>

describe('code without a highlighter', () => {
  it('stays plain and fetches nothing of shiki, a closed fence included', async () => {
    renderWith(storeWith([]), <div data-testid="default"><Markdown text={`Here it is:\n\n${fence}`} /></div>)
    const block = screen.getByTestId('default').querySelector<HTMLElement>('[data-weft="code-block"]')!
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(block.getAttribute('data-state')).toBe('plain')
    expect(block.querySelector('code')?.textContent).toBe('const answer: number = 42\nexport function ask() { return answer }')
    expect(shikiFetched()).toEqual([])
  })
})

describe('weft/shiki\'s lazy highlighter', () => {
  it('loads shiki on the first closed fence and colours it; nothing of shiki is fetched before', async () => {
    // The markdown renderer and the highlighter are imported (above) and an answer without code drawn: still no shiki.
    renderWith(storeWith([]), withShiki(<Markdown text={'No code here, just **words**.'} />))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(shikiFetched()).toEqual([])

    renderWith(storeWith([]), withShiki(<div data-testid="code"><Markdown text={`Here it is:\n\n${fence}`} /></div>))
    const block = screen.getByTestId('code').querySelector<HTMLElement>('[data-weft="code-block"]')!
    // The plain fallback is there at once, the code readable as it is.
    expect(block.querySelector('code')?.textContent).toBe('const answer: number = 42\nexport function ask() { return answer }')

    await waitFor(() => expect(block.getAttribute('data-state')).toBe('highlighted'), { timeout: 45_000 })
    expect(shikiFetched().length).toBeGreaterThan(0)
    const keyword = [...block.querySelectorAll<HTMLElement>('[data-weft="code-line"] span')].find((span) => span.textContent === 'const')!
    expect(keyword.style.getPropertyValue('--weft-code-light')).toMatch(/^#[0-9a-f]{6}$/i)
    expect(keyword.style.getPropertyValue('--weft-code-dark')).toMatch(/^#[0-9a-f]{6}$/i)
    // The stylesheet draws the token in its light colour, not the text colour.
    const text = getComputedStyle(block.querySelector('pre')!).color
    expect(getComputedStyle(keyword).color).not.toBe(text)
    expect(block.querySelector('code')?.textContent).toBe('const answer: number = 42\nexport function ask() { return answer }')
  })

  it('leaves an unterminated fence plain while it streams', async () => {
    renderWith(storeWith([]), withShiki(<div data-testid="open"><Markdown text={'```ts\nconst partial = '} streaming /></div>))
    const block = screen.getByTestId('open').querySelector<HTMLElement>('[data-weft="code-block"]')!
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(block.getAttribute('data-state')).toBe('plain')
    expect(block.querySelector('[data-weft="code-line"]')).toBeNull()
  })
})
