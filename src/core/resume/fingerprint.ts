/**
 * Short fingerprints of event data, so a replayed event can be recognised
 * without keeping the data itself.
 */

/**
 * A 53-bit hash of an event's data (and its SSE event name, when it has one) with
 * the data's length, as a short opaque string: compare it, never read it. Two
 * different events colliding is far less likely than a server replaying the wrong point.
 *
 * @example
 * fingerprint('{"type":"response_delta","delta":"Hi"}') === fingerprint('{"type":"response_delta","delta":"Hi"}') // true
 * fingerprint('{}', 'message') !== fingerprint('{}') // true
 */
export function fingerprint(data: string, name = ''): string {
  // cyrb53: two 32-bit multiply-xor lanes mixed at the end. A name goes first with a
  // carriage return, which no SSE name or data can hold, read in place: joining it to
  // the data would copy the data.
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  if (name !== '') {
    for (let i = 0; i <= name.length; i++) {
      const c = i < name.length ? name.charCodeAt(i) : 0x0d
      h1 = Math.imul(h1 ^ c, 2654435761)
      h2 = Math.imul(h2 ^ c, 1597334677)
    }
  }
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  // The 53 bits, then the length, 14 bits per character from U+4E00 (below the
  // surrogates): a number's base-36 text cost four times the hash itself.
  const length = data.length
  return String.fromCharCode(
    0x4e00 + (h1 & 0x3fff), 0x4e00 + ((h1 >>> 14) & 0x3fff), 0x4e00 + ((h1 >>> 28) | ((h2 & 0x3ff) << 4)), 0x4e00 + ((h2 >>> 10) & 0x7ff),
    0x4e00 + (length & 0x3fff), 0x4e00 + ((length >>> 14) & 0x3fff), 0x4e00 + ((length >>> 28) & 0xf),
  )
}
