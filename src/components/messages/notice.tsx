import { forwardRef } from 'react'
import { partProps } from '../../core/model/parts'
import type { MessageLeafProps } from '../renderers'
import { drawPart } from '../slot'

/**
 * A notice from the agent (`props.text`, `props.level`: info, warning, …, as
 * `data-level`). `className`, `style`, the other DOM props and the ref go to its
 * `<p>`; `asChild` draws the host's element with the text inside.
 *
 * @example
 * <RendererProvider renderers={{ notice: NoticeMessage }} />
 */
export const NoticeMessage = forwardRef<HTMLElement, MessageLeafProps>(function NoticeMessage({ message, asChild, children, ...rest }, ref) {
  const { text, level } = partProps(message, 'notice')
  return drawPart('p', asChild, children, { ...rest, 'data-weft': 'notice', 'data-state': message.status, 'data-level': level ?? 'info' }, ref, text)
})
