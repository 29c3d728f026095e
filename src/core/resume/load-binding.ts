/**
 * The resume machinery is loaded on demand: a client reaches `binding.ts` only
 * through this module's dynamic import, so bundlers split it into a chunk that a
 * host which never resumes neither ships nor fetches.
 */
import type { AgentClientOptions } from '../client/options'
import { toWeftError, type WeftError } from '../model/errors'
import type { ResumeBinding } from './binding'

/** The options' binding, or why there is none; empty when the options do not resume. */
export interface BoundResume {
  binding?: ResumeBinding
  error?: WeftError
}

type BindingModule = typeof import('./binding')

const NOT_RESUMING: BoundResume = {}
let loaded: BindingModule | undefined
let loading: Promise<BindingModule> | undefined

/**
 * Start loading the resume machinery, so the first send or attach does not wait for it.
 *
 * @example
 * if (options.resume) preloadResume()
 */
export function preloadResume(): Promise<BindingModule> {
  loading ??= import('./binding').then(
    (module) => (loaded = module),
    (thrown: unknown) => {
      // Where the runtime does not keep a failed import, the next send tries again.
      loading = undefined
      throw thrown
    },
  )
  return loading
}

/**
 * Bind the options' resume strategy: at once when the machinery is loaded (so a
 * send still opens its turn in the tick it is called), else once it has loaded.
 * Never rejects: a module that cannot be loaded is the binding's error.
 *
 * @example
 * const bound = resolveResume(options)
 * const { binding, error } = bound instanceof Promise ? await bound : bound
 */
export function resolveResume(options: AgentClientOptions): BoundResume | Promise<BoundResume> {
  if (!options.resume) return NOT_RESUMING
  if (loaded) return loaded.bindResume(options)
  return preloadResume().then(
    (module) => module.bindResume(options),
    (thrown: unknown) => {
      const error = toWeftError(thrown, 'network')
      return { error: { ...error, message: `resume could not be loaded: ${error.message}` } }
    },
  )
}
