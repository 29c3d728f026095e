/**
 * Math (KaTeX) and diagrams (Mermaid) in markdown, in Chromium. Off by default:
 * a `$` is text and a mermaid fence is code, and nothing of KaTeX or Mermaid is
 * fetched. With `weft/katex` and `weft/mermaid` handed in, each library is fetched
 * only when the first math or closed mermaid fence is drawn; math has KaTeX's
 * stylesheet and fonts; a block still streaming shows its source and is drawn
 * when it closes, without remounting what is above it; invalid sources and a
 * renderer that fails show the source with a short error; and nothing in the
 * source runs script.
 */
import '../../src/components/styles.css'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Markdown, MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import type { DiagramRenderer, MathRenderer } from '../../src/components/markdown/highlight'
import { katexMath } from 'weft/katex'
import { mermaidDiagrams } from 'weft/mermaid'

/** Resources this page fetched whose URL names the library (its lazy chunk, its modules, its fonts), the small entries excluded. */
const fetched = (name: RegExp) =>
  performance.getEntriesByType('resource').map((e) => e.name).filter((url) => name.test(url) && !/\/src\/(katex|mermaid)\/index\.ts/.test(url))

const KATEX = /katex/i
const MERMAID = /mermaid/i

declare global {
  interface Window { weftPwned?: number }
}

afterEach(() => { window.weftPwned = undefined })

const rich = (ui: React.ReactNode, { math = katexMath as MathRenderer | false, diagrams = mermaidDiagrams as DiagramRenderer | false } = {}) => (
  <MarkdownSettingsProvider highlight={false} math={math} diagrams={diagrams}>{ui}</MarkdownSettingsProvider>
)

const flowchart = '```mermaid\ngraph LR\n  Ask --> Answer\n```\n'

/** No element of `root` carries script: no script element, no on* attribute, no javascript: URL anywhere. */
function expectInert(root: Element) {
  expect(root.querySelectorAll('script, iframe, object, embed, foreignObject')).toHaveLength(0)
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      expect(attribute.name, `${element.tagName} ${attribute.name}`).not.toMatch(/^on/i)
      expect(attribute.value, `${element.tagName} ${attribute.name}`).not.toMatch(/^\s*javascript:/i)
    }
  }
  expect(window.weftPwned).toBeUndefined()
}

describe('off by default', () => {
  it('leaves $…$ as text and a mermaid fence as code, and fetches neither library', async () => {
    render(<MarkdownSettingsProvider highlight={false}><div data-testid="off"><Markdown text={`Euler: $e^{i\\pi} + 1 = 0$\n\n$$\nx^2\n$$\n\n${flowchart}`} /></div></MarkdownSettingsProvider>)
    const root = screen.getByTestId('off')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(root.querySelector('[data-weft="math"], [data-weft="math-block"], [data-weft="diagram"]')).toBeNull()
    expect(root.querySelector('p')!.textContent).toBe('Euler: $e^{i\\pi} + 1 = 0$')
    expect(root.querySelector('[data-weft="code-block"]')!.getAttribute('data-lang')).toBe('mermaid')
    expect(fetched(KATEX)).toEqual([])
    expect(fetched(MERMAID)).toEqual([])
  })
})

describe('weft/katex', () => {
  it('fetches KaTeX only with the first math, then draws inline and block math in KaTeX\'s fonts', async () => {
    render(rich(<Markdown text={'Prices: $5 and $10, no math.'} />))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(fetched(KATEX)).toEqual([])
    expect(document.querySelector('[data-weft="math"]')).toBeNull()

    render(rich(<div data-testid="math"><Markdown text={'Euler: $e^{i\\pi} + 1 = 0$, costs $5 and $10.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n'} /></div>))
    const root = screen.getByTestId('math')
    const inline = root.querySelector<HTMLElement>('[data-weft="math"]')!
    // The source shows until KaTeX has drawn it.
    expect(inline.textContent).toBe('$e^{i\\pi} + 1 = 0$')
    await waitFor(() => expect(inline.getAttribute('data-state')).toBe('rendered'), { timeout: 45_000 })
    const block = root.querySelector<HTMLElement>('[data-weft="math-block"]')!
    await waitFor(() => expect(block.getAttribute('data-state')).toBe('rendered'), { timeout: 45_000 })
    expect(fetched(KATEX).length).toBeGreaterThan(0)
    expect(inline.querySelector('.katex math annotation')!.textContent).toBe('e^{i\\pi} + 1 = 0')
    expect(block.querySelector('.katex-display .katex')).not.toBeNull()
    // The money stayed prose.
    expect(root.querySelector('p')!.textContent).toContain('costs $5 and $10.')
    // KaTeX's stylesheet came with the chunk: its fonts are in use and loaded.
    const main = block.querySelector<HTMLElement>('.katex')!
    expect(getComputedStyle(main).fontFamily).toMatch(/KaTeX_Main/)
    expect(getComputedStyle(block.querySelector('.katex-mathml')!).position).toBe('absolute')
    await document.fonts.ready
    await waitFor(() => expect([...document.fonts].some((face) => face.family.replace(/"/g, '') === 'KaTeX_Main' && face.status === 'loaded')).toBe(true), { timeout: 15_000 })
  })

  it('shows the source and KaTeX\'s message for invalid TeX, and the rest of the answer still draws', async () => {
    render(rich(<div data-testid="bad"><Markdown text={'Bad: $\\notacommand{x}$ here.\n\n$$\n\\frac{1}{\n$$\n\nAfter.'} /></div>))
    const root = screen.getByTestId('bad')
    const inline = root.querySelector<HTMLElement>('[data-weft="math"]')!
    const block = root.querySelector<HTMLElement>('[data-weft="math-block"]')!
    await waitFor(() => expect(block.getAttribute('data-state')).toBe('error'), { timeout: 45_000 })
    await waitFor(() => expect(inline.getAttribute('data-state')).toBe('error'))
    expect(inline.textContent).toBe('$\\notacommand{x}$')
    expect(inline.title).toMatch(/KaTeX parse error/)
    expect(block.querySelector('[data-weft="math-source"]')!.textContent).toBe('$$\n\\frac{1}{\n$$')
    expect(block.querySelector('[data-weft="math-error"]')!.textContent).toMatch(/KaTeX parse error/)
    expect([...root.querySelectorAll('p')].at(-1)!.textContent).toBe('After.')
  })

  it('runs nothing from the source: \\href and \\url to javascript:, HTML in \\text, \\html… and \\includegraphics stay inert', async () => {
    const attacks = [
      '$\\href{javascript:window.weftPwned=1}{click}$',
      '$\\url{javascript:window.weftPwned=2}$',
      '$\\text{<img src=x onerror="window.weftPwned=3">}$',
      '$\\htmlData{onclick=window.weftPwned=4}{x}$',
      '$\\includegraphics{javascript:window.weftPwned=5}$',
      '$<script>window.weftPwned=6</script>$',
    ]
    render(rich(<div data-testid="evil"><Markdown text={attacks.join(' and ')} /></div>))
    const root = screen.getByTestId('evil')
    await waitFor(() => expect([...root.querySelectorAll('[data-weft="math"]')].every((m) => m.getAttribute('data-state') === 'rendered' || m.getAttribute('data-state') === 'error')).toBe(true), { timeout: 45_000 })
    expect(root.querySelectorAll('[data-weft="math"]')).toHaveLength(attacks.length)
    expect(root.querySelectorAll('a, img')).toHaveLength(0)
    expectInert(root)
  })

  it('shows the source and an error when the renderer fails to load, and the message still draws', async () => {
    const failing: MathRenderer = async () => { throw new Error('The math renderer could not be loaded.') }
    render(rich(<div data-testid="fail"><Markdown text={'Before $x^2$ after.\n\n$$\ny\n$$\n'} /></div>, { math: failing }))
    const block = screen.getByTestId('fail').querySelector<HTMLElement>('[data-weft="math-block"]')!
    await waitFor(() => expect(block.getAttribute('data-state')).toBe('error'))
    expect(block.querySelector('[data-weft="math-error"]')!.textContent).toBe('The math renderer could not be loaded.')
    expect(block.querySelector('[data-weft="math-source"]')!.textContent).toBe('$$\ny\n$$')
    expect(screen.getByTestId('fail').querySelector('p')!.textContent).toBe('Before $x^2$ after.')
  })
})

describe('weft/mermaid', () => {
  it('fetches Mermaid only with the first closed fence and draws the diagram as sanitized SVG', async () => {
    render(rich(<Markdown text={'```ts\nconst a = 1\n```\n'} />))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(fetched(MERMAID)).toEqual([])

    render(rich(<div data-testid="diagram"><Markdown text={`A flow:\n\n${flowchart}`} /></div>))
    const diagram = screen.getByTestId('diagram').querySelector<HTMLElement>('[data-weft="diagram"]')!
    // Its source, as code, until the diagram is drawn.
    expect(diagram.querySelector('code')!.textContent).toBe('graph LR\n  Ask --> Answer')
    await waitFor(() => expect(diagram.getAttribute('data-state')).toBe('rendered'), { timeout: 60_000 })
    expect(fetched(MERMAID).length).toBeGreaterThan(0)
    const svg = diagram.querySelector('svg')!
    expect(svg.textContent).toContain('Ask')
    expect(svg.textContent).toContain('Answer')
    expect(svg.getBoundingClientRect().width).toBeGreaterThan(50)
    expectInert(diagram)
  })

  it('runs nothing from the source: click callbacks, javascript: links, HTML labels, a directive asking for the loose level', async () => {
    const source = [
      '```mermaid',
      '%%{init: {"securityLevel": "loose", "flowchart": {"htmlLabels": true}}}%%',
      'graph TD',
      '  A["<img src=x onerror=window.weftPwned=1>"] --> B["<script>window.weftPwned=2</script>"]',
      '  B --> C[Go]',
      '  click A callback "Tooltip"',
      '  click B "javascript:window.weftPwned=3" "link"',
      '  click C href "javascript:window.weftPwned=4"',
      '```',
      '',
    ].join('\n')
    ;(window as unknown as { callback: () => void }).callback = () => { window.weftPwned = 5 }
    render(rich(<div data-testid="evil-diagram"><Markdown text={source} /></div>))
    const diagram = screen.getByTestId('evil-diagram').querySelector<HTMLElement>('[data-weft="diagram"]')!
    await waitFor(() => expect(['rendered', 'error']).toContain(diagram.getAttribute('data-state')), { timeout: 60_000 })
    for (const node of diagram.querySelectorAll('svg g')) node.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(diagram.getAttribute('data-state')).toBe('rendered')
    // Mermaid wraps a node with a click in an <a>; the sanitizer leaves it no URL.
    expect(diagram.querySelectorAll('img, [href], [*|href]')).toHaveLength(0)
    // What is left of the HTML in a label (Mermaid's strict level cleans it first) is text.
    const labels = [...diagram.querySelectorAll('svg text')].map((t) => t.textContent).join(' ')
    expect(labels).toContain('Go')
    expect(labels).not.toMatch(/onerror|weftPwned/)
    expectInert(diagram)
    expect(document.querySelectorAll('body > script, img[src="x"]')).toHaveLength(0)
    // The diagram's directive did not lower the level for the next one.
    const { default: mermaid } = await import('mermaid')
    expect(mermaid.mermaidAPI.getConfig().securityLevel).toBe('strict')
  })

  it('draws the diagram in the scheme around it, and again when that scheme changes, keeping the old drawing meanwhile', async () => {
    render(rich(<div data-testid="themed" data-theme="light"><Markdown text={'```mermaid\ngraph LR\n  Light --> Dark\n```\n'} /></div>))
    const holder = screen.getByTestId('themed')
    const diagram = holder.querySelector<HTMLElement>('[data-weft="diagram"]')!
    const fill = () => getComputedStyle(diagram.querySelector('[data-weft="diagram-svg"] svg .node rect, [data-weft="diagram-svg"] svg .node polygon')!).fill
    await waitFor(() => expect(diagram.getAttribute('data-state')).toBe('rendered'), { timeout: 60_000 })
    const light = fill()
    // Every state and every source block the diagram shows on the way.
    const seenStates: string[] = []
    let sourceShown = false
    const watcher = new MutationObserver(() => {
      seenStates.push(diagram.getAttribute('data-state') ?? '')
      sourceShown ||= diagram.querySelector('[data-weft="code-block"]') !== null
    })
    watcher.observe(diagram, { attributes: true, childList: true, subtree: true })
    holder.setAttribute('data-theme', 'dark')
    await waitFor(() => expect(fill()).not.toBe(light), { timeout: 30_000 })
    watcher.disconnect()
    // The light drawing stayed until the dark one was ready: never the source in between.
    expect(seenStates.length).toBeGreaterThan(0)
    expect(seenStates.every((state) => state === 'rendered')).toBe(true)
    expect(sourceShown).toBe(false)
    holder.setAttribute('data-theme', 'light')
    await waitFor(() => expect(fill()).toBe(light), { timeout: 30_000 })
  })

  it('shows the source and Mermaid\'s message for an invalid diagram', async () => {
    render(rich(<div data-testid="bad-diagram"><Markdown text={'```mermaid\ngraph LR\n  A -->\n  ((( nope\n```\n\nAfter.'} /></div>))
    const root = screen.getByTestId('bad-diagram')
    const diagram = root.querySelector<HTMLElement>('[data-weft="diagram"]')!
    await waitFor(() => expect(diagram.getAttribute('data-state')).toBe('error'), { timeout: 60_000 })
    expect(diagram.querySelector('code')!.textContent).toBe('graph LR\n  A -->\n  ((( nope')
    expect(diagram.querySelector('[data-weft="diagram-error"]')!.textContent!.length).toBeGreaterThan(0)
    expect(diagram.querySelector('[data-weft="diagram-svg"]')).toBeNull()
    expect(root.querySelector('[data-weft="markdown"] > p')!.textContent).toBe('After.')
  })
})

describe('streaming', () => {
  it('shows a $$ block and a mermaid fence as their source until they close, then draws them, keeping every block above', async () => {
    const answer = 'Here is the integral:\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\nAnd the flow:\n\n```mermaid\ngraph LR\n  Ask --> Answer\n```\n\nDone.'
    const { container, rerender } = render(rich(<Markdown text="" streaming />))
    const markdown = () => container.querySelector('[data-weft="markdown"]')!
    let intro: Element | undefined
    let mathBlock: Element | undefined
    let sawOpenMath = false
    let sawOpenDiagram = false
    const mathClose = answer.indexOf('$$\n', answer.indexOf('\\frac')) + 2
    const fenceClose = answer.indexOf('```\n', answer.indexOf('Ask')) + 3
    // Token by token (a few characters at a time).
    for (let end = 1; end <= answer.length; end += 3) {
      const text = answer.slice(0, end)
      rerender(rich(<Markdown text={text} streaming />))
      intro ??= markdown().querySelector('p') ?? undefined
      if (intro) expect(markdown().querySelector('p')).toBe(intro)
      const math = markdown().querySelector('[data-weft="math-block"]')
      if (math && end < mathClose) {
        // Open: its source, never half-drawn math.
        expect(math.getAttribute('data-state')).toBe('pending')
        expect(math.querySelector('.katex')).toBeNull()
        expect(math.querySelector('[data-weft="math-source"]')!.textContent).toBe(text.slice(text.indexOf('$$')).replace(/\n+$/, ''))
        sawOpenMath = true
      }
      if (math) {
        mathBlock ??= math
        expect(math).toBe(mathBlock)
      }
      const diagram = markdown().querySelector('[data-weft="diagram"]')
      if (diagram && end < fenceClose) {
        expect(diagram.getAttribute('data-state')).toBe('pending')
        expect(diagram.querySelector('[data-weft="diagram-svg"]')).toBeNull()
        sawOpenDiagram = true
      }
    }
    rerender(rich(<Markdown text={answer} streaming={false} />))
    expect(sawOpenMath && sawOpenDiagram).toBe(true)
    await waitFor(() => expect(markdown().querySelector('[data-weft="math-block"]')!.getAttribute('data-state')).toBe('rendered'), { timeout: 45_000 })
    await waitFor(() => expect(markdown().querySelector('[data-weft="diagram"]')!.getAttribute('data-state')).toBe('rendered'), { timeout: 60_000 })
    // Nothing drawn above was remounted on the way.
    expect(markdown().querySelector('p')).toBe(intro)
    expect(markdown().querySelector('[data-weft="math-block"]')).toBe(mathBlock)
    expect(markdown().querySelector('[data-weft="math-block"] .katex-display')).not.toBeNull()
    expect(markdown().querySelector('[data-weft="diagram"] svg')).not.toBeNull()
  })
})
