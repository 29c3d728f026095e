/**
 * A request body as text for the inspector: what was sent, never read in a way
 * that would consume it (a stream is only named).
 */

/** Characters of a body kept; a longer one ends with how much was cut. */
const MAX_BODY = 100_000

/**
 * The body as text: a string as it is, form fields one per line (files by name,
 * size and type), a `Blob` or bytes by size.
 *
 * @example
 * describeBody('{"input":"Hi"}')               // '{"input":"Hi"}'
 * describeBody(new URLSearchParams({ q: '1' })) // 'q=1'
 */
export function describeBody(body: BodyInit): string {
  return cut(text(body))
}

function text(body: BodyInit): string {
  if (typeof body === 'string') return body
  if (body instanceof URLSearchParams) return body.toString()
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const lines: string[] = []
    body.forEach((value, name) => lines.push(`${name}: ${typeof value === 'string' ? value : blobText(value)}`))
    return lines.join('\n')
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob) return blobText(body)
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return `[${body.byteLength} bytes]`
  return '[stream]'
}

function blobText(blob: Blob): string {
  const name = typeof (blob as File).name === 'string' ? `${(blob as File).name}, ` : ''
  return `[${name}${blob.size} bytes${blob.type ? `, ${blob.type}` : ''}]`
}

function cut(value: string): string {
  return value.length > MAX_BODY ? `${value.slice(0, MAX_BODY)}… (${value.length - MAX_BODY} more characters)` : value
}
