/**
 * A fenced code block: a header with its language and a copy button, the code
 * in a scrolling `pre`, plain at first and coloured once the highlighter has
 * loaded (only for a closed fence, so a streaming block is not re-coloured per token).
 */
import { forwardRef, useEffect, useState, type CSSProperties, type HTMLAttributes } from 'react'
import { CopyButton } from '../copy-button'
import { CopyIcon } from '../icons'
import { useLabels } from '../labels'
import type { CodeBlockProps } from './render'
import { useMarkdownSettings, type HighlightedLine } from './highlight'

/**
 * The default code block of markdown answers (`data-state` `plain` or
 * `highlighted`). `className`, `style`, the other DOM props and the ref go to
 * its root `<div>`, so a host's own code block can wrap it.
 *
 * @example
 * <CodeBlock code={'const a = 1'} lang="ts" />
 * const Mine = (props: CodeBlockProps) => <CodeBlock {...props} className="my-code" />
 */
export const CodeBlock = forwardRef<HTMLDivElement, CodeBlockProps & Omit<HTMLAttributes<HTMLDivElement>, 'children'>>(function CodeBlock(
  { code, lang, open = false, focusable = true, ...rest },
  ref,
) {
  const labels = useLabels()
  const { highlight } = useMarkdownSettings()
  const [lines, setLines] = useState<{ code: string; lines: HighlightedLine[] } | undefined>(undefined)
  useEffect(() => {
    if (open || !lang || !highlight) return
    let live = true
    highlight(code, lang).then(
      (result) => { if (live && result) setLines({ code, lines: result }) },
      () => undefined,
    )
    return () => { live = false }
  }, [code, lang, open, highlight])
  const coloured = lines?.code === code ? lines.lines : undefined
  return (
    <div {...rest} ref={ref} data-weft="code-block" data-lang={lang} data-state={coloured ? 'highlighted' : 'plain'}>
      <div data-weft="code-header">
        <span data-weft="code-lang">{lang}</span>
        <CopyButton text={code} label={labels.copyCode} tabIndex={focusable ? undefined : -1}><CopyIcon /></CopyButton>
      </div>
      {/* Focusable, so a keyboard can scroll a long line. */}
      <pre tabIndex={focusable ? 0 : undefined}>
        <code>
          {coloured
            ? coloured.map((line, i) => (
                <span key={i} data-weft="code-line">
                  {line.map((token, j) => (
                    <span key={j} style={token.light || token.dark ? ({ '--weft-code-light': token.light, '--weft-code-dark': token.dark } as CSSProperties) : undefined}>
                      {token.content}
                    </span>
                  ))}
                  {i < coloured.length - 1 ? '\n' : ''}
                </span>
              ))
            : code}
        </code>
      </pre>
    </div>
  )
})
