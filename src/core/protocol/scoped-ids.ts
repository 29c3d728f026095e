/**
 * Stream-scoped ids. A protocol whose ids restart per request (Yao's `M1`) or
 * that leaves some things unnamed puts every id it writes under the stream's
 * `DecodeContext.scope`, so a second answer never merges into the first.
 */

/**
 * The ids of one stream, under its scope.
 *
 * @example
 * const ids: IdScope = createIdScope(context.scope)
 */
export interface IdScope {
  /** The wire's id under the scope, `<prefix>/<id>`: the same string each time for the same id. */
  id(wireId: string): string
  /** A new id for something the wire gives no id: `<scope>/<kind>-<n>`, counted across the stream. */
  fresh(kind: string): string
  /**
   * The wire's ids start over (a new request on the same connection): later ids
   * sit under `<scope>/r<n>` (`r2`, `r3`, …), so they never land on the earlier ones.
   */
  restart(): void
  /** What `id` prefixes now: the scope, or `<scope>/r<n>` after a restart. */
  readonly prefix: string
}

/**
 * The ids of one stream, under `scope` (a decoder's `DecodeContext.scope`).
 * Streams name the same few ids thousands of times, so each scoped string is made once.
 *
 * @example
 * const ids = createIdScope('t1')
 * ids.id('M1')        // 't1/M1'
 * ids.fresh('text')   // 't1/text-1'
 * ids.restart()
 * ids.id('M1')        // 't1/r2/M1'
 */
export function createIdScope(scope: string): IdScope {
  const made = new Map<string, string>()
  let prefix = scope
  let requests = 1
  let counter = 0
  return {
    id(wireId) {
      let out = made.get(wireId)
      if (out === undefined) made.set(wireId, (out = `${prefix}/${wireId}`))
      return out
    },
    fresh: (kind) => `${scope}/${kind}-${++counter}`,
    restart() {
      requests += 1
      prefix = `${scope}/r${requests}`
      made.clear()
    },
    get prefix() {
      return prefix
    },
  }
}
