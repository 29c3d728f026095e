import { forwardRef, type Ref } from 'react'
import { formatJson, recordOf } from '../format'
import { useLabels } from '../labels'
import type { MessagePartProps } from '../renderers'

/** Past this many fields the rest is in the raw JSON only. */
const FIELDS = 12
/** A value's line is cut past this many characters. */
const VALUE_CHARS = 120

const isPlain = (item: unknown) => ['string', 'number', 'boolean'].includes(typeof item)

/** One field's value on one line: text as it is, a list of words joined, a flat object as `key: value`, anything else as compact JSON. */
function fieldText(value: unknown): string {
  let text: string
  const record = recordOf(value)
  if (value === null || value === undefined) text = '—'
  else if (record && Object.values(record).every(isPlain)) text = Object.entries(record).map(([key, item]) => `${key}: ${String(item)}`).join(', ')
  else if (typeof value === 'string') text = value
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value)
  else if (Array.isArray(value) && value.every(isPlain)) text = value.join(', ')
  else {
    try {
      text = JSON.stringify(value) ?? String(value)
    } catch {
      text = String(value)
    }
  }
  text = text.replace(/\s+/g, ' ').trim()
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text
}

/**
 * The fallback, and the default for `data-<name>` parts: a compact card with the
 * part's type and its fields as a key/value list (`data-weft="data-fields"`), one
 * line each, with the whole value as JSON folded behind a disclosure
 * (`data-weft="data-raw"`, the `rawJson` label). A data part shows its `data`,
 * any other type its props; a value that is not an object shows as one line.
 * Every value is drawn as text. A host's renderer for the type (or `data-*`)
 * replaces it. `className`, `style`, the other DOM props and the ref go to its `<div>`.
 *
 * @example
 * <RendererProvider fallback={DataMessage} />
 */
export const DataMessage = forwardRef<HTMLElement, MessagePartProps>(function DataMessage({ message, ...rest }, ref) {
  const labels = useLabels()
  const shown = message.type.startsWith('data-') && 'data' in message.props ? message.props.data : message.props
  const record = recordOf(shown)
  const fields = record ? Object.entries(record).slice(0, FIELDS) : shown === undefined ? [] : [['', shown] as const]
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="data" data-type={message.type} data-state={message.status}>
      <span data-weft="data-type">{message.type}</span>
      {fields.length > 0 && (
        <dl data-weft="data-fields">
          {fields.map(([key, value], i) => (
            <div key={i}>
              {key !== '' && <dt>{key}</dt>}
              <dd>{fieldText(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <details data-weft="data-raw">
        <summary>{labels.rawJson}</summary>
        <pre tabIndex={0}>{formatJson(shown)}</pre>
      </details>
    </div>
  )
})
