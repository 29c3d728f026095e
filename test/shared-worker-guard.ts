// The Node projects share one module graph per worker (`isolate: false`), so a file that leaves a
// global changed (fake timers, a stubbed fetch, a spy restored after the timers it wrapped) breaks
// whichever file the worker runs next, and only in some orders. This makes the leaking file fail.
import { afterAll } from 'vitest'

const WATCHED = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'queueMicrotask', 'Date', 'fetch', 'requestAnimationFrame', 'cancelAnimationFrame', 'document', 'sessionStorage', 'localStorage'] as const

type Snapshot = Record<(typeof WATCHED)[number], unknown>
const key = Symbol.for('weft.test.globals')
const holder = globalThis as unknown as Record<symbol, Snapshot | undefined>
// The first file in a worker sees the globals as Node made them; later files compare against that.
const original: Snapshot = holder[key] ??= Object.fromEntries(WATCHED.map((name) => [name, Reflect.get(globalThis, name)])) as Snapshot

afterAll(() => {
  const changed = WATCHED.filter((name) => Reflect.get(globalThis, name) !== original[name])
  for (const name of changed) {
    if (original[name] === undefined) Reflect.deleteProperty(globalThis, name)
    else Reflect.set(globalThis, name, original[name])
  }
  if (changed.length > 0) throw new Error(`this file left global ${changed.join(', ')} changed; the next file in the worker would have seen it`)
})
