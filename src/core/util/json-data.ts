/**
 * JSON data, and JSON Patch (RFC 6902) that keeps it so. What a server sends as
 * state is JSON: `null`, booleans, finite numbers, strings, arrays and plain
 * objects of them. A JavaScript object brings more along (its prototype's
 * members, functions, getters, class instances, cycles), and none of that may
 * reach the store, which must stay serialisable and structured-cloneable.
 */
// The default export works both in Node's ESM loader (CJS main) and in bundlers.
import jsonPatch from 'fast-json-patch'
import { isJsonData } from './is-json-data'
import { isSafeKey } from './record'

export { isJsonData }

/**
 * Why a JSON Patch was not applied. The document was not changed.
 *
 * @example
 * try { patchJsonData({}, [{ op: 'copy', from: '/constructor', path: '/f' }]) } catch (e) { e instanceof JsonPatchRefused } // true
 */
export class JsonPatchRefused extends Error {
  override name = 'JsonPatchRefused'
}

const OPERATIONS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test'])

/**
 * Apply an RFC 6902 patch to a JSON copy of `document`, all or nothing, and
 * return the patched copy (`document` itself is never changed). Stricter than
 * `fast-json-patch` alone, which walks a pointer with plain property reads: a
 * patch is refused whole (`JsonPatchRefused`) when an operation
 *
 * - names, in `from` or `path`, anything but the document's own data: an
 *   inherited member (`/constructor`, `/toString`, `/a/hasOwnProperty`), an
 *   array's `length`, an index out of range, a location that does not exist
 *   (an `add` may name a new last key or index, or `-`);
 * - names a key that could reach a prototype (`__proto__`, `constructor`,
 *   `prototype`), even one the document has;
 * - brings a `value` that is not JSON data (`isJsonData`);
 * - moves a value into itself, is not one of the six operations, or fails as
 *   RFC 6902 says (a failed `test`).
 *
 * The copy is JSON, every pointer reaches only its own data, and every value
 * brought in is JSON, so what comes back is JSON data.
 *
 * @example
 * patchJsonData({ n: 1 }, [{ op: 'replace', path: '/n', value: 2 }])         // { n: 2 }
 * patchJsonData({ n: 1 }, [{ op: 'copy', from: '/constructor', path: '/f' }]) // throws JsonPatchRefused
 */
export function patchJsonData(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new JsonPatchRefused('a JSON Patch is an array of operations')
  let doc = jsonPatch.deepClone(document) as unknown
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index] as unknown
    const refused = refusal(doc, operation)
    if (refused) throw new JsonPatchRefused(`operation ${index}${opName(operation)}: ${refused}`)
    try {
      doc = jsonPatch.applyOperation(doc, operation as never, true, true, true, index).newDocument
    } catch (thrown) {
      const message = thrown instanceof Error ? (thrown.message.split('\n')[0] ?? thrown.name) : String(thrown)
      throw new JsonPatchRefused(`operation ${index}${opName(operation)}: ${message}`)
    }
  }
  return doc
}

function opName(operation: unknown): string {
  const op = isObject(operation) ? operation.op : undefined
  return typeof op === 'string' && OPERATIONS.has(op) ? ` (${op})` : ''
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Why the operation may not be applied to `doc`, or `undefined` when it may. */
function refusal(doc: unknown, operation: unknown): string | undefined {
  if (!isObject(operation) || typeof operation.op !== 'string' || !OPERATIONS.has(operation.op)) {
    return 'not a JSON Patch operation (add, remove, replace, move, copy or test)'
  }
  const { op, path, from } = operation
  if (typeof path !== 'string') return '"path" is not a JSON Pointer'
  if (op === 'move' || op === 'copy') {
    if (typeof from !== 'string') return '"from" is not a JSON Pointer'
    const reason = unreachable(doc, from, false)
    if (reason) return `"from" ${reason}`
    if (op === 'move' && (from === '' ? path !== '' : path.startsWith(`${from}/`))) return `"${from}" cannot move into itself ("${path}")`
  }
  const reason = unreachable(doc, path, op === 'add' || op === 'move' || op === 'copy')
  if (reason) return `"path" ${reason}`
  if ((op === 'add' || op === 'replace' || op === 'test') && !isJsonData(operation.value)) return '"value" is not JSON data'
  return undefined
}

/** An array index as RFC 6901 writes it: digits, no leading zero. */
const INDEX = /^(0|[1-9][0-9]*)$/

/**
 * Why `pointer` does not name the document's own data, or `undefined` when it
 * does. With `creates`, its last token may name a new key, a new index at the
 * end, or `-`.
 */
function unreachable(doc: unknown, pointer: string, creates: boolean): string | undefined {
  if (pointer === '') return undefined
  if (!pointer.startsWith('/')) return `"${pointer}" is not a JSON Pointer`
  const tokens = pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
  let at: unknown = doc
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string
    const last = i === tokens.length - 1
    if (!isSafeKey(token)) return `"${pointer}" names "${token}", which may not be written`
    if (Array.isArray(at)) {
      const index = INDEX.test(token) ? Number(token) : token === '-' && last && creates ? at.length : -1
      if (index < 0 || index > at.length || (index === at.length && !(last && creates))) {
        return `"${pointer}" names "${token}", which is not an index of the array there`
      }
      at = at[index]
    } else if (isObject(at)) {
      const owned = Object.prototype.hasOwnProperty.call(at, token)
      if (!owned && !(last && creates)) return `"${pointer}" names "${token}", which the object there does not have`
      at = owned ? at[token] : undefined
    } else {
      return `"${pointer}" goes through a value that is not an object or an array`
    }
  }
  return undefined
}
