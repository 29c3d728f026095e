/**
 * Files a person attaches: checked against the host's limits before anything is
 * sent, then turned into message parts (a data URL, or the host's upload URL).
 */
import { weftError, type WeftError } from '../model/errors'

/**
 * Limits on what a user may attach.
 *
 * @example
 * const limits: AttachmentLimits = { accept: ['image/*', 'application/pdf'], maxSize: 5_000_000, maxCount: 4 }
 */
export interface AttachmentLimits {
  /** Media types, `type/*` wildcards allowed. */
  accept?: readonly string[]
  /** Bytes per file. */
  maxSize?: number
  maxCount?: number
}

/**
 * A file as a message part: `url` is a data URL or what the host's upload returned.
 *
 * @example
 * const part: FilePart = { url: 'data:text/plain;base64,aGk=', mediaType: 'text/plain', filename: 'hi.txt' }
 */
export interface FilePart {
  url: string
  mediaType: string
  filename?: string
}
/**
 * Check files against the host's limits before anything is sent.
 *
 * @example
 * checkFiles([file], { maxSize: 1_000_000 }) // undefined, or a validation error
 */
export function checkFiles(files: readonly Blob[], limits: AttachmentLimits | undefined): WeftError | undefined {
  if (!limits) return undefined
  if (limits.maxCount !== undefined && files.length > limits.maxCount) {
    return weftError('validation', `at most ${limits.maxCount} file${limits.maxCount === 1 ? '' : 's'} can be attached`, { code: 'attachment_count', retryable: false })
  }
  for (const file of files) {
    const name = 'name' in file && typeof file.name === 'string' ? file.name : 'the file'
    if (limits.maxSize !== undefined && file.size > limits.maxSize) {
      return weftError('validation', `${name} is larger than ${limits.maxSize} bytes`, { code: 'attachment_size', retryable: false })
    }
    if (limits.accept && !limits.accept.some((pattern) => mediaTypeMatches(file.type, pattern))) {
      return weftError('validation', `${name} is of a type that cannot be attached (${file.type || 'unknown'})`, { code: 'attachment_type', retryable: false })
    }
  }
  return undefined
}

/**
 * Whether a media type matches a pattern such as `image/*`.
 *
 * @example
 * mediaTypeMatches('image/png', 'image/*') // true
 */
export function mediaTypeMatches(type: string, pattern: string): boolean {
  const t = type.toLowerCase()
  const p = pattern.trim().toLowerCase()
  if (p === '*/*' || p === '*') return true
  if (p.endsWith('/*')) return t.startsWith(p.slice(0, -1))
  return t === p
}

/**
 * A file as a message part: a data URL, or the URL the host's `upload` returns.
 *
 * @example
 * await toFilePart(new File(['hi'], 'hi.txt', { type: 'text/plain' })) // { url: 'data:text/plain;base64,aGk=', ... }
 */
export async function toFilePart(file: Blob, upload?: (file: Blob) => Promise<string>): Promise<FilePart> {
  const mediaType = file.type || 'application/octet-stream'
  const filename = 'name' in file && typeof file.name === 'string' && file.name !== '' ? file.name : undefined
  const url = upload ? await upload(file) : `data:${mediaType};base64,${base64(new Uint8Array(await file.arrayBuffer()))}`
  return { url, mediaType, ...(filename ? { filename } : {}) }
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  // Chunks keep the argument list of fromCharCode short on large files.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
