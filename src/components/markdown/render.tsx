/**
 * marked tokens drawn as React elements by weft itself. Nothing is ever parsed
 * as HTML: raw HTML in an answer shows as text, every link and image URL goes
 * through `safeUrl`, and images load only from http(s) (data images when the
 * host allows them).
 */
import { memo, type ComponentType, type ReactNode } from 'react'
import type { Token, Tokens } from 'marked'
import type { Source } from '../../core/model/model'
import { safeUrl } from '../safe-url'
import { Citation, splitCitations } from '../citations'
import type { MathToken } from './math'
import type { MathProps } from './rich-views'

/**
 * Props of a code block component.
 *
 * @example
 * const Plain = ({ code, lang }: CodeBlockProps) => <pre data-lang={lang}>{code}</pre>
 */
export interface CodeBlockProps {
  code: string
  /** The fence's info string's first word, if any. */
  lang?: string
  /** True while the fence has not been closed yet. */
  open?: boolean
  /** False while the answer is hidden from assistive technology (streaming): nothing in it takes focus. */
  focusable?: boolean
}

/**
 * What drawing needs besides the tokens.
 *
 * @example
 * const context: RenderContext = { citations: new Map(), dataImages: false, CodeBlock: Plain }
 */
export interface RenderContext {
  /** Sources by their `[n]` marker. */
  citations: ReadonlyMap<number, Source | undefined>
  /** Accept `data:image/…` image sources. */
  dataImages: boolean
  CodeBlock: ComponentType<CodeBlockProps>
  /** Draws math tokens (present when math is on). */
  Math?: ComponentType<MathProps>
  /** Draws ```` ```mermaid ```` fences (present when diagrams are on); otherwise they are code. */
  Diagram?: ComponentType<CodeBlockProps>
}

function mathOf(token: Token, ctx: RenderContext, key: number | string, block: boolean): ReactNode {
  const math = token as unknown as MathToken
  if (!ctx.Math) return math.raw
  return <ctx.Math key={key} tex={math.text} raw={math.raw} display={math.display} block={block} open={math.open} />
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos|nbsp));/g
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** marked leaves character references as written; the common ones are read here. */
function decode(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED[name] ?? whole
    const code = dec ? Number(dec) : Number.parseInt(hex ?? '', 16)
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

function imageUrl(raw: string, dataImages: boolean): string | undefined {
  const url = safeUrl(raw, { image: dataImages })
  if (!url) return undefined
  if (url.startsWith('data:')) return url
  return /^https?:\/\//i.test(url) ? url : undefined
}

/** A text token's content: its inline tokens, or its text with the citations linked. */
function textOf(token: Tokens.Text, ctx: RenderContext, key: number | string): ReactNode {
  return token.tokens ? renderInline(token.tokens, ctx) : text(token.text, ctx, key)
}

function text(value: string, ctx: RenderContext, key: number | string): ReactNode {
  const plain = decode(value)
  if (ctx.citations.size === 0) return plain
  return splitCitations(plain, ctx.citations).map((part, i) =>
    typeof part === 'string' ? part : <Citation key={`${key}.${i}`} marker={part.marker} source={part.source} />,
  )
}

/**
 * Inline tokens as React nodes.
 *
 * @example
 * renderInline(paragraph.tokens, context)
 */
export function renderInline(tokens: readonly Token[] | undefined, ctx: RenderContext): ReactNode[] {
  if (!tokens) return []
  return tokens.map((token, i) => renderInlineToken(token, ctx, i))
}

function renderInlineToken(token: Token, ctx: RenderContext, key: number | string): ReactNode {
  switch (token.type) {
    case 'text':
      return <span key={key}>{textOf(token as Tokens.Text, ctx, key)}</span>
    case 'escape':
      return (token as Tokens.Escape).text
    case 'strong':
      return <strong key={key}>{renderInline((token as Tokens.Strong).tokens, ctx)}</strong>
    case 'em':
      return <em key={key}>{renderInline((token as Tokens.Em).tokens, ctx)}</em>
    case 'del':
      return <del key={key}>{renderInline((token as Tokens.Del).tokens, ctx)}</del>
    case 'codespan':
      return <code key={key}>{decode((token as Tokens.Codespan).text)}</code>
    case 'br':
      return <br key={key} />
    case 'link': {
      const link = token as Tokens.Link
      const href = safeUrl(link.href)
      const children = renderInline(link.tokens, ctx)
      if (!href) return <span key={key} data-weft="link-blocked">{children}</span>
      return (
        <a key={key} href={href} title={link.title ?? undefined} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      )
    }
    case 'image': {
      const image = token as Tokens.Image
      const src = imageUrl(image.href, ctx.dataImages)
      if (!src) return <span key={key} data-weft="image-blocked">{decode(image.text)}</span>
      return <img key={key} src={src} alt={decode(image.text)} title={image.title ?? undefined} loading="lazy" />
    }
    case 'inlineMath':
      return mathOf(token, ctx, key, false)
    case 'checkbox': {
      const checked = (token as Tokens.Checkbox).checked
      return <span key={key} data-weft="task-box" data-state={checked ? 'checked' : 'unchecked'}>{checked ? '☑' : '☐'} </span>
    }
    // Raw HTML (and anything unknown) is shown as the text it is.
    default:
      return 'raw' in token ? token.raw : null
  }
}

/**
 * One top-level block token as a React element.
 *
 * @example
 * renderBlock(token, context, 0)
 */
export function renderBlock(token: Token, ctx: RenderContext, key: number | string): ReactNode {
  switch (token.type) {
    case 'space':
    case 'def':
      return null
    case 'checkbox':
      return renderInlineToken(token, ctx, key)
    case 'paragraph':
      return <p key={key}>{renderInline((token as Tokens.Paragraph).tokens, ctx)}</p>
    case 'heading': {
      const heading = token as Tokens.Heading
      const Tag = `h${Math.min(Math.max(heading.depth, 1), 6)}` as 'h1'
      return <Tag key={key}>{renderInline(heading.tokens, ctx)}</Tag>
    }
    case 'hr':
      return <hr key={key} />
    case 'math':
      return mathOf(token, ctx, key, true)
    case 'blockquote':
      return <blockquote key={key}>{renderBlocks((token as Tokens.Blockquote).tokens, ctx)}</blockquote>
    case 'code': {
      const code = token as Tokens.Code
      const lang = code.lang?.trim().split(/\s+/)[0] || undefined
      const closed = /\n {0,3}(`{3,}|~{3,})[ \t]*\n?$/.test(code.raw) || code.codeBlockStyle === 'indented'
      if (ctx.Diagram && lang?.toLowerCase() === 'mermaid' && code.codeBlockStyle !== 'indented') return <ctx.Diagram key={key} code={code.text} lang={lang} open={!closed} />
      return <ctx.CodeBlock key={key} code={code.text} lang={lang} open={!closed} />
    }
    case 'list': {
      const list = token as Tokens.List
      const items = list.items.map((item, i) => (
        <li key={i} data-task={item.task || undefined}>
          {item.loose ? renderBlocks(item.tokens, ctx) : renderTight(item.tokens, ctx)}
        </li>
      ))
      if (list.ordered) {
        const start = typeof list.start === 'number' && list.start !== 1 ? list.start : undefined
        return <ol key={key} start={start}>{items}</ol>
      }
      return <ul key={key}>{items}</ul>
    }
    case 'table': {
      const table = token as Tokens.Table
      const align = (a: Tokens.TableCell['align']) => (a ? { textAlign: a } : undefined)
      return (
        <div key={key} data-weft="table-scroll">
          <table>
            <thead>
              <tr>
                {table.header.map((cell, i) => <th key={i} style={align(cell.align)}>{renderInline(cell.tokens, ctx)}</th>)}
              </tr>
            </thead>
            {table.rows.length > 0 && (
              <tbody>
                {table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, i) => <td key={i} style={align(cell.align)}>{renderInline(cell.tokens, ctx)}</td>)}
                  </tr>
                ))}
              </tbody>
            )}
          </table>
        </div>
      )
    }
    case 'text':
      return <p key={key}>{textOf(token as Tokens.Text, ctx, key)}</p>
    // A block of raw HTML is shown as its text, never parsed.
    case 'html':
      return <p key={key} data-weft="raw-html">{(token as Tokens.HTML).raw.replace(/\n+$/, '')}</p>
    default:
      return 'raw' in token ? <p key={key}>{token.raw}</p> : null
  }
}

function renderBlocks(tokens: readonly Token[], ctx: RenderContext): ReactNode[] {
  return tokens.map((token, i) => renderBlock(token, ctx, i))
}

/** In a tight list item, text runs inline (no paragraph around it). */
function renderTight(tokens: readonly Token[], ctx: RenderContext): ReactNode[] {
  return tokens.map((token, i) => (token.type === 'text' ? renderInlineToken(token, ctx, i) : renderBlock(token, ctx, i)))
}

/**
 * One top-level block, memoised on its token: a block that is finished keeps
 * its token object, so it is not drawn again while later text streams.
 *
 * @example
 * <MarkdownBlockView token={block.token} context={context} />
 */
export const MarkdownBlockView = memo(function MarkdownBlockView({ token, context }: { token: Token; context: RenderContext }) {
  return <>{renderBlock(token, context, 0)}</>
})
