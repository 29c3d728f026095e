/**
 * Short fingerprints of event data, so a replayed event can be recognised
 * without keeping the data itself.
 */

/**
 * A 53-bit hash of `text` with its length, as a short string. Two different
 * events colliding is far less likely than a server replaying the wrong point.
 *
 * @example
 * fingerprint('{"type":"response_delta","delta":"Hi"}') === fingerprint('{"type":"response_delta","delta":"Hi"}') // true
 */
export function fingerprint(text: string): string {
  // cyrb53: two 32-bit multiply-xor lanes mixed at the end.
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0)
  return `${hash.toString(36)}-${text.length.toString(36)}`
}
