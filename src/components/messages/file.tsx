import { partProps } from '../../core/parts'
import { useLabels } from '../labels'
import type { MessageRendererProps } from '../renderers'
import { safeUrl } from '../safe-url'

/**
 * A file or an image. An image shows inline, any other file as a link; a URL
 * with an unsafe scheme (`javascript:`, `data:` other than an image, …) is
 * never rendered as a link or image, only its name is shown.
 *
 * @example
 * <RendererProvider renderers={{ file: FileMessage, image: FileMessage }} />
 */
export function FileMessage({ message }: MessageRendererProps) {
  const labels = useLabels()
  const { url, mediaType, filename: name, alt } = partProps(message, 'file')
  const image = message.type === 'image' || mediaType?.startsWith('image/') === true
  if (image) {
    const src = safeUrl(url, { image: true })
    if (src) return <img data-weft="file" data-kind="image" src={src} alt={alt || name || labels.image} />
  } else {
    const href = safeUrl(url)
    if (href) {
      return (
        <a data-weft="file" data-kind="link" data-media-type={mediaType} href={href} target="_blank" rel="noopener noreferrer">
          {name || href}
        </a>
      )
    }
  }
  return (
    <span data-weft="file" data-kind="blocked" data-media-type={mediaType}>
      {name || (image ? labels.image : labels.file)} {labels.linkNotShown}
    </span>
  )
}
