/**
 * The bar under an answer: copy (as text or as markdown), feedback thumbs,
 * regenerate and edit when the host handles them, and a slot for a branch picker.
 */
import { forwardRef, useState, type HTMLAttributes, type ReactNode } from 'react'
import { useAgentSelector } from '../react/selectors'
import { useWeftCallbacks } from './callbacks'
import { CopyButton } from './copy-button'
import { asText, own } from './format'
import { useLabels } from './labels'
import { markdownToText } from './markdown/plain'
import { speakableText } from './markdown/speakable'
import { useTurnIdFrom } from './turn-context'
import { ThumbDownIcon, ThumbUpIcon } from './icons'
import { messageIn } from '../core/model/message-table'
import { ReadAloudButton } from './voice'

/**
 * Props of `MessageActions`.
 *
 * @example
 * <MessageActions turnId={turnId}><BranchPicker turnId={turnId} /></MessageActions>
 */
export interface MessageActionsProps extends HTMLAttributes<HTMLDivElement> {
  /** Default: the enclosing turn. */
  turnId?: string
  /** The branch-picker slot (or anything else), before the buttons. */
  children?: ReactNode
}

/** The markdown of a turn's text messages, in order. */
function useTurnMarkdown(turnId: string | undefined): string {
  return useAgentSelector((s) => {
    const turn = turnId ? own(s.turns, turnId) : undefined
    if (!turn) return ''
    const parts: string[] = []
    for (const id of turn.messageIds) {
      const message = messageIn(s.messages, id)
      if (message?.type === 'text') parts.push(asText(message.props.content))
    }
    return parts.filter(Boolean).join('\n\n')
  })
}

/**
 * Actions on one answer (`role="toolbar"`). Copy puts the answer on the
 * clipboard as plain text, "Copy as Markdown" as its markdown source. The
 * thumbs report to `onFeedback` and show which was pressed (`aria-pressed`).
 * Regenerate and Edit appear only when the host passes `onRegenerate` and
 * `onEdit`; nothing is shown that would do nothing. "Read aloud" appears when
 * voice is on (`VoiceSettingsProvider`'s `readAloud`): it reads the answer's
 * text without its code blocks and citation markers, and is Stop while it
 * speaks. Hidden while the turn streams.
 *
 * @example
 * <WeftCallbacksProvider onFeedback={(turnId, rating) => track(turnId, rating)} onRegenerate={(id) => client.regenerate(id)}>
 *   <MessageActions turnId={turnId} />
 * </WeftCallbacksProvider>
 */
export const MessageActions = forwardRef<HTMLDivElement, MessageActionsProps>(function MessageActions({ turnId: explicit, children, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const status = useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.status : undefined))
  const markdown = useTurnMarkdown(turnId)
  const { onFeedback, onRegenerate, onEdit } = useWeftCallbacks()
  const [rating, setRating] = useState<'up' | 'down' | undefined>(undefined)
  if (!turnId || status === undefined || status === 'streaming') return null
  const rate = (value: 'up' | 'down') => {
    const next = rating === value ? undefined : value
    setRating(next)
    onFeedback?.(turnId, next)
  }
  return (
    <div role="toolbar" aria-label={labels.messageActions} {...rest} ref={ref} data-weft="message-actions">
      {children}
      {markdown !== '' && <CopyButton text={() => markdownToText(markdown)} label={labels.copy} />}
      {markdown !== '' && <CopyButton text={markdown} label={labels.copyMarkdown} data-format="markdown" />}
      {markdown !== '' && <ReadAloudButton id={turnId} text={() => speakableText(markdown)} />}
      {onFeedback && (
        <>
          <button type="button" data-weft="feedback" data-rating="up" aria-pressed={rating === 'up'} aria-label={labels.goodAnswer} title={labels.goodAnswer} onClick={() => rate('up')}><ThumbUpIcon /></button>
          <button type="button" data-weft="feedback" data-rating="down" aria-pressed={rating === 'down'} aria-label={labels.badAnswer} title={labels.badAnswer} onClick={() => rate('down')}><ThumbDownIcon /></button>
        </>
      )}
      {onRegenerate && <button type="button" data-weft="regenerate" onClick={() => onRegenerate(turnId)}>{labels.regenerate}</button>}
      {onEdit && <button type="button" data-weft="edit" onClick={() => onEdit(turnId)}>{labels.edit}</button>}
    </div>
  )
})
