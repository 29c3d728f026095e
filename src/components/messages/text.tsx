import { forwardRef, Fragment, useMemo, type Ref } from 'react'
import { partProps } from '../../core/model/parts'
import { Citation, citationMarkers, splitCitations, useCitationMap } from '../citations'
import { Markdown } from '../markdown/markdown'
import type { MessagePartProps } from '../renderers'

export { citationMarkers }

/**
 * Plain text (never markup), with `[n]` markers linked to the turn's sources.
 * Paragraphs split on blank lines, lines on newlines. While the text streams it
 * is `aria-busy`, so the transcript's live region waits and announces it once,
 * finished; the same node stays when it finishes. `className`, `style`, the other DOM
 * props and the ref go to its `<div>` (`data-state` is the message's status).
 *
 * @example
 * <RendererProvider renderers={{ text: TextMessage }} />
 */
export const TextMessage = forwardRef<HTMLElement, MessagePartProps>(function TextMessage({ message, ...rest }, ref) {
  const { content } = partProps(message, 'text')
  const streaming = message.status === 'streaming'
  const markers = useMemo(() => citationMarkers(content), [content])
  const byMarker = useCitationMap(message.turnId, markers)
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="text" data-state={message.status} aria-busy={streaming || undefined}>
      {content.split(/\n{2,}/).map((paragraph, p) => (
        <p key={p}>
          {paragraph.split('\n').map((line, l) => (
            <Fragment key={l}>
              {l > 0 && <br />}
              {splitCitations(line, byMarker).map((part, i) =>
                typeof part === 'string' ? part : <Citation key={i} marker={part.marker} source={part.source} />,
              )}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  )
})

/**
 * The default text renderer: an assistant's text as markdown (see `Markdown`),
 * a person's own words as plain text, the way they typed them. `aria-busy`
 * while it streams, so it is announced once, finished; its end redraws only
 * the blocks it changed (no remount). `className`, `style`, the other DOM props and the ref go to
 * its `<div>`, as `TextMessage`'s.
 *
 * @example
 * <RendererProvider renderers={{ text: MarkdownMessage }} />
 */
export const MarkdownMessage = forwardRef<HTMLElement, MessagePartProps>(function MarkdownMessage(props, ref) {
  const { message, ...rest } = props
  if (message.role === 'user') return <TextMessage {...props} ref={ref} />
  const streaming = message.status === 'streaming'
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="text" data-state={message.status} aria-busy={streaming || undefined}>
      <Markdown text={partProps(message, 'text').content} streaming={streaming} turnId={message.turnId} />
    </div>
  )
})
