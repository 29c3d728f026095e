/**
 * Markdown answers, drawn by weft from marked's block tokens.
 */
import { forwardRef, memo, useMemo, useRef, type HTMLAttributes, type ReactNode } from 'react'
import type { Token } from 'marked'
import type { Source } from '../../core/model/model'
import { NONE } from '../format'
import { citationMarkers, useCitationMap } from '../citations'
import { groupsOf, MarkdownBlocks, type MarkdownBlock, type MarkdownBlockList } from './blocks'
import { CodeBlock } from './code-block'
import { MarkdownSettingsContext, useMarkdownSettings, type MarkdownSettings } from './highlight'
import { MarkdownBlockView, type RenderContext } from './render'
import { DiagramView, MathView } from './rich-views'

/**
 * Props of `Markdown`.
 *
 * @example
 * <Markdown text={answer} streaming turnId={turnId} />
 */
export interface MarkdownProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The markdown source. */
  text: string
  /** While true, the unfinished last block is drawn as its finished form. */
  streaming?: boolean
  /** The turn whose sources `[n]` markers link to. */
  turnId?: string
}

const markersOf = new WeakMap<Token, number[]>()

function blockMarkers(block: MarkdownBlock): number[] {
  let known = markersOf.get(block.token)
  if (!known) {
    known = citationMarkers(block.token.raw)
    markersOf.set(block.token, known)
  }
  return known
}

/**
 * GitHub-flavoured markdown (headings, lists, task lists, tables, quotes,
 * emphasis, links, code), safe by construction: no HTML is ever parsed (raw
 * HTML shows as text), every URL passes `safeUrl`, images load from http(s)
 * only. While `streaming`, finished blocks are kept and memoised and only the
 * last one is parsed again per token; an unterminated fence, list, table, link
 * or emphasis shows as its finished form.
 *
 * @example
 * <Markdown text={'## Weather\n\n**18 °C**, light rain [1]'} turnId={turnId} />
 */
export const Markdown = forwardRef<HTMLDivElement, MarkdownProps>(function Markdown({ text, streaming = false, turnId, ...rest }, ref) {
  const math = Boolean(useMarkdownSettings().math)
  const parser = useRef<MarkdownBlocks | undefined>(undefined)
  // Turning math on or off reads the text again, with or without its tokens.
  if (parser.current?.math !== math) parser.current = MarkdownBlocks.forText(text, { math })
  const blocks = useMemo(() => parser.current!.update(text, streaming), [text, streaming, math])
  return (
    <div {...rest} ref={ref} data-weft="markdown">
      {turnId ? <CitedBlocks blocks={blocks} turnId={turnId} /> : <Blocks blocks={blocks} citations={NO_CITATIONS} />}
    </div>
  )
})

const NO_CITATIONS: ReadonlyMap<number, Source | undefined> = new Map()
const doneMarkers = new WeakMap<readonly MarkdownBlock[], number[]>()

function markersOfList({ done, live }: MarkdownBlockList): string {
  let known = doneMarkers.get(done)
  if (!known) {
    known = [...new Set(done.flatMap(blockMarkers))]
    doneMarkers.set(done, known)
  }
  return [...new Set([...known, ...live.flatMap(blockMarkers)])].join(',')
}

/** Blocks whose `[n]` markers link to the turn's sources (this part needs the store). */
function CitedBlocks({ blocks, turnId }: { blocks: MarkdownBlockList; turnId: string }) {
  const markerKey = markersOfList(blocks)
  const markers = useMemo(() => (markerKey ? markerKey.split(',').map(Number) : NONE), [markerKey])
  const citations = useCitationMap(turnId, markers)
  return <Blocks blocks={blocks} citations={citations} />
}

function Blocks({ blocks, citations }: { blocks: MarkdownBlockList; citations: ReadonlyMap<number, Source | undefined> }) {
  const { dataImages, math, diagrams } = useMarkdownSettings()
  const hasMath = Boolean(math)
  const hasDiagrams = Boolean(diagrams)
  // Nothing here depends on whether the answer still streams: its end draws again only the blocks it changed.
  const context = useMemo<RenderContext>(
    () => ({ citations, dataImages, CodeBlock, Math: hasMath ? MathView : undefined, Diagram: hasDiagrams ? DiagramView : undefined }),
    [citations, dataImages, hasMath, hasDiagrams],
  )
  // Open blocks sit in the same groups as closed ones, so a block that closes keeps its element (no remount).
  const groups = useRef<ReadonlyArray<readonly MarkdownBlock[]>>([])
  groups.current = groupsOf(blocks.live.length > 0 ? blocks.done.concat(blocks.live) : blocks.done, groups.current)
  return <>{groups.current.map((group) => <BlockGroup key={group[0]!.key} blocks={group} context={context} />)}</>
}

/**
 * A group of blocks, drawn again only when one of its blocks changes (or the
 * sources do): per token that is the group holding the open block, so a token
 * costs the same at the 1,000th block as at the 10th (see `groupsOf`).
 */
const BlockGroup = memo(function BlockGroup({ blocks, context }: { blocks: readonly MarkdownBlock[]; context: RenderContext }) {
  return <>{blocks.map((block) => <MarkdownBlockView key={block.key} token={block.token} context={context} />)}</>
})

/**
 * Props of `MarkdownSettingsProvider`.
 *
 * @example
 * const props: MarkdownSettingsProviderProps = { highlight: false }
 */
export interface MarkdownSettingsProviderProps extends Partial<MarkdownSettings> {
  children?: ReactNode
}

/**
 * Sets how markdown below it is drawn: the highlighter (`false` for plain
 * code), whether `data:` images are accepted, and the math and diagram renderers
 * (off unless given: `katexMath` from `weft/katex`, `mermaidDiagrams` from `weft/mermaid`).
 *
 * @example
 * <MarkdownSettingsProvider dataImages highlight={myHighlighter}>
 *   <Transcript.Root />
 * </MarkdownSettingsProvider>
 */
export function MarkdownSettingsProvider({ children, highlight, dataImages, math, diagrams }: MarkdownSettingsProviderProps) {
  const outer = useMarkdownSettings()
  const value = useMemo<MarkdownSettings>(
    () => ({
      highlight: highlight ?? outer.highlight,
      dataImages: dataImages ?? outer.dataImages,
      math: math ?? outer.math ?? false,
      diagrams: diagrams ?? outer.diagrams ?? false,
    }),
    [outer, highlight, dataImages, math, diagrams],
  )
  return <MarkdownSettingsContext.Provider value={value}>{children}</MarkdownSettingsContext.Provider>
}
