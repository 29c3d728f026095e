import { forwardRef } from 'react'
import { partProps } from '../../core/model/parts'
import { useLabels } from '../labels'
import type { MessageLeafProps } from '../renderers'
import { safeUrl } from '../safe-url'
import { drawPart } from '../slot'

/**
 * A file or an image. An image shows inline, any other file as a link; a URL
 * with an unsafe scheme (`javascript:`, `data:` other than an image, …) is
 * never rendered as a link or image, only its name is shown (`data-kind`
 * `image`, `link` or `blocked`). `className`, `style`, the other DOM props and
 * the ref go to its element; with `asChild` the host's element gets them (and
 * the name inside, for a link or a blocked file).
 *
 * @example
 * <RendererProvider renderers={{ file: FileMessage, image: FileMessage }} />
 */
export const FileMessage = forwardRef<HTMLElement, MessageLeafProps>(function FileMessage({ message, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const { url, mediaType, filename: name, alt } = partProps(message, 'file')
  const image = message.type === 'image' || mediaType?.startsWith('image/') === true
  const own = { ...rest, 'data-weft': 'file', 'data-state': message.status }
  const src = image ? safeUrl(url, { image: true }) : undefined
  if (src) return drawPart('img', asChild, children, { ...own, 'data-kind': 'image', src, alt: alt || name || labels.image }, ref, null)
  const href = image ? undefined : safeUrl(url)
  if (href) return drawPart('a', asChild, children, { ...own, 'data-kind': 'link', 'data-media-type': mediaType, href, target: '_blank', rel: 'noopener noreferrer' }, ref, name || href)
  return drawPart('span', asChild, children, { ...own, 'data-kind': 'blocked', 'data-media-type': mediaType }, ref, <>{name || (image ? labels.image : labels.file)} {labels.linkNotShown}</>)
})
