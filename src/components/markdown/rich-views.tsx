/**
 * Math and diagrams in markdown answers: drawn by the host's renderer (`weft/katex`,
 * `weft/mermaid`) once their source has closed, shown as their source until then,
 * and as their source with a short error when the renderer fails or refuses it.
 * Results are kept per renderer and source, so a view drawn again (a paragraph
 * that grows around its math, a turn remounted by the virtual list) shows the
 * finished math at once instead of its source for a frame.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { CodeBlock } from './code-block'
import { useMarkdownSettings, type DiagramTheme } from './highlight'

type Outcome = { markup: string } | { error: string }

const results = new WeakMap<object, Map<string, Outcome>>()
const MAX_KEPT = 200

function kept(renderer: object): Map<string, Outcome> {
  let map = results.get(renderer)
  if (!map) {
    map = new Map()
    results.set(renderer, map)
  }
  return map
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error)
}

/** The outcome of `run` for `key`, from the kept results at once or once it settles; nothing while `skip`. */
function useMarkup(renderer: object | false | undefined, key: string, skip: boolean, run: () => Promise<string>): Outcome | undefined {
  const known = renderer ? kept(renderer).get(key) : undefined
  const [settled, setSettled] = useState<{ key: string; outcome: Outcome } | undefined>(undefined)
  useEffect(() => {
    if (!renderer || skip || known) return
    let live = true
    const done = (outcome: Outcome) => {
      const map = kept(renderer)
      if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!)
      map.set(key, outcome)
      if (live) setSettled({ key, outcome })
    }
    run().then((markup) => done({ markup }), (error: unknown) => done({ error: messageOf(error) }))
    return () => { live = false }
    // `run` is a new function per draw; `key` says what it runs.
  }, [renderer, key, skip, known]) // eslint-disable-line react-hooks/exhaustive-deps
  if (skip || !renderer) return undefined
  return known ?? (settled?.key === key ? settled.outcome : undefined)
}

/**
 * Props of the math view.
 *
 * @example
 * const props: MathProps = { tex: 'x^2', raw: '$x^2$', display: false }
 */
export interface MathProps {
  /** The TeX between the delimiters. */
  tex: string
  /** The source as written, delimiters included: what shows until the math is drawn. */
  raw: string
  /** Display style: a block, or `$$…$$` in a line. */
  display: boolean
  /** A block of its own (`$$` or `\\[` starting a line), drawn as a `div`; otherwise it runs in its line. */
  block?: boolean
  /** The block's closing delimiter has not arrived yet. */
  open?: boolean
}

/**
 * Math, drawn by the `math` renderer of the markdown settings (`data-state`
 * `pending` while its block is open, `loading`, `rendered` or `error`).
 *
 * @example
 * <MathView tex={'e^{i\\pi} + 1 = 0'} raw={'$e^{i\\pi} + 1 = 0$'} display={false} />
 */
export function MathView({ tex, raw, display, block = false, open = false }: MathProps) {
  const { math } = useMarkdownSettings()
  const outcome = useMarkup(math, `${display ? 'D' : 'I'}${tex}`, open, () => (math ? math(tex, display) : Promise.reject(new Error('no math renderer'))))
  const state = open ? 'pending' : !outcome ? 'loading' : 'markup' in outcome ? 'rendered' : 'error'
  const error = outcome && 'error' in outcome ? outcome.error : undefined
  const source = raw.replace(/\n+$/, '')
  if (block) {
    return (
      <div data-weft="math-block" data-state={state}>
        {outcome && 'markup' in outcome
          ? <div data-weft="math-markup" dangerouslySetInnerHTML={{ __html: outcome.markup }} />
          : <pre data-weft="math-source"><code>{source}</code></pre>}
        {error !== undefined && <p data-weft="math-error" role="note">{error}</p>}
      </div>
    )
  }
  return (
    <span data-weft="math" data-display={display ? 'block' : 'inline'} data-state={state} title={error}>
      {outcome && 'markup' in outcome ? <span data-weft="math-markup" dangerouslySetInnerHTML={{ __html: outcome.markup }} /> : <code data-weft="math-source">{source}</code>}
    </span>
  )
}

/** The element whose `data-theme` (or `.dark` / `.light`) sets the scheme where `element` is, if any. */
function themeHolder(element: Element | null): Element | null {
  return element?.closest('[data-theme], .dark, .light') ?? null
}

/** The colour scheme in force where `element` is: its nearest `data-theme` (or `.dark` / `.light`), else the system's. */
function themeAt(element: Element | null): DiagramTheme {
  const holder = themeHolder(element)
  if (holder) {
    const theme = holder.getAttribute('data-theme')
    if (theme === 'dark' || theme === 'light') return theme
    return holder.classList.contains('dark') ? 'dark' : 'light'
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/**
 * The scheme where `root` is, followed as it changes: the attributes of the element
 * that sets it, else the system's preference. Only diagrams need this (their colours
 * are baked into the SVG); everything else follows the page's custom properties.
 */
function useThemeAt(root: RefObject<Element | null>): DiagramTheme | undefined {
  const [theme, setTheme] = useState<DiagramTheme | undefined>(undefined)
  useLayoutEffect(() => {
    const update = () => setTheme(themeAt(root.current))
    update()
    const holder = themeHolder(root.current)
    if (holder && typeof MutationObserver === 'function') {
      const observer = new MutationObserver(update)
      observer.observe(holder, { attributes: true, attributeFilter: ['data-theme', 'class'] })
      return () => observer.disconnect()
    }
    if (typeof matchMedia !== 'function') return undefined
    const query = matchMedia('(prefers-color-scheme: dark)')
    query.addEventListener('change', update)
    return () => query.removeEventListener('change', update)
  }, [root])
  return theme
}

/**
 * Props of the diagram view.
 *
 * @example
 * const props: DiagramProps = { code: 'graph LR; A-->B', lang: 'mermaid' }
 */
export interface DiagramProps {
  code: string
  lang?: string
  /** The fence has not closed yet. */
  open?: boolean
  focusable?: boolean
}

/**
 * A ```` ```mermaid ```` fence, drawn by the `diagrams` renderer of the markdown
 * settings once the fence has closed (`data-state` `pending`, `loading`,
 * `rendered` or `error`); until then, and when it fails, its source is a code block.
 *
 * @example
 * <DiagramView code={'graph LR\n  A --> B'} lang="mermaid" />
 */
export function DiagramView({ code, lang, open = false, focusable }: DiagramProps) {
  const { diagrams } = useMarkdownSettings()
  const root = useRef<HTMLDivElement>(null)
  const theme = useThemeAt(root)
  const outcome = useMarkup(diagrams, `${theme}\n${code}`, open || !theme, () => (diagrams && theme ? diagrams(code, theme) : Promise.reject(new Error('no diagram renderer'))))
  // While the diagram is drawn again in a new scheme, the old drawing stays rather than its source.
  const shown = useRef<{ code: string; markup: string } | undefined>(undefined)
  if (outcome && 'markup' in outcome) shown.current = { code, markup: outcome.markup }
  const markup = outcome ? ('markup' in outcome ? outcome.markup : undefined) : shown.current?.code === code && !open ? shown.current.markup : undefined
  const state = open ? 'pending' : markup !== undefined ? 'rendered' : !outcome ? 'loading' : 'error'
  return (
    <div ref={root} data-weft="diagram" data-state={state}>
      {markup !== undefined
        ? <div data-weft="diagram-svg" dangerouslySetInnerHTML={{ __html: markup }} />
        : <CodeBlock code={code} lang={lang} open focusable={focusable} />}
      {outcome && 'error' in outcome && <p data-weft="diagram-error" role="note">{outcome.error}</p>}
    </div>
  )
}
