/**
 * Ids the kit makes for itself (turns, user messages).
 */
let counter = 0

/**
 * A fresh id with a readable prefix, unique within the page and unlikely to collide across pages.
 *
 * @example
 * newId('turn') // 'turn-lq3k9x-1'
 */
export function newId(prefix: string): string {
  counter += 1
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID().slice(0, 8)
    : Math.random().toString(36).slice(2, 10)
  return `${prefix}-${random}-${counter}`
}
