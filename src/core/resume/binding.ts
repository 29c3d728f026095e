/**
 * What a client that resumes needs beyond one that does not: its strategy bound
 * to a conversation, the handle kept in storage, the reconnect's request and
 * replay filter, the backoff between reconnects and the history fallback.
 *
 * The client loads this module only when its options name `resume`, so a host
 * that never resumes does not ship it (`load-binding.ts`).
 */
import { toWeftError, weftError, WeftStreamError, type WeftError } from '../model/errors'
import { emptyState, type ProtocolName, type StreamCursor } from '../model/model'
import { readHistory } from '../protocol/history'
import { candidatesOf, resolveProtocol } from '../protocol/resolve'
import type { AgentClientOptions, ResumeOptions } from '../client/options'
import { RESUME_EXHAUSTED } from '../client/options'
import type { RequestPlan } from '../client/request-plan'
import { httpError } from '../transport/http-errors'
import type { SSEFrame } from '../transport/frames'
import type { FrameDecoder } from '../protocol/frame-decoder'
import { backoffDelay } from './backoff'
import { fingerprint } from './fingerprint'
import type { TurnLedger } from './ledger'
import { closeTurnMemory, findTurnMemory, openTurnMemory, type TurnMemory } from './turn-memory'
import { clearHandle, defaultResumeStorage, readHandle, writeHandle } from './storage'
import { resolveResumeStrategy } from './strategies/index'
import type { HistoryLoader, ReplayFilter, ReplayItem, ResumeHandle, ResumeStorage, ResumeStrategy } from './types'

const DEFAULT_MAX_RETRIES = 5

/** What the handle of a turn is computed from, as the client knows it. */
export interface HandleInput {
  turnId: string
  cursor: StreamCursor
  ledger: TurnLedger
  protocol: ProtocolName | undefined
  streamUrl: string | undefined
  previous: ResumeHandle | undefined
  /** The run's id scope, when it is a continuation (kept in the handle). */
  scope: string | undefined
}

/** A client's resume strategy, bound to one conversation and its storage. */
export class ResumeBinding {
  constructor(
    readonly strategy: ResumeStrategy,
    readonly key: string,
    readonly storage: ResumeStorage,
    readonly options: ResumeOptions,
  ) {}

  /** Reconnects in a row without progress before the run gives up. */
  get maxRetries(): number {
    return Math.max(0, this.options.maxRetries ?? DEFAULT_MAX_RETRIES)
  }

  /** A fresh ledger for the turn, kept per store so a remount finds it. */
  openMemory(owner: object, turnId: string): TurnMemory {
    return openTurnMemory(owner, turnId)
  }

  findMemory(owner: object, turnId: string): TurnMemory | undefined {
    return findTurnMemory(owner, turnId)
  }

  /**
   * The memory a re-attach reads into, and whether it asks for the whole turn.
   * `kept` is the store's cursor when the store holds the turn. A store that holds
   * the turn but whose page lost the memory (a saved copy) shows as many events as
   * its cursor counts, saved in the same commit as what it counts (else the
   * handle's count): a strategy that replays from the start has the new decoder
   * shown those first (`prime`); any other trusts the count.
   */
  memoryFor(owner: object, stored: ResumeHandle, kept: StreamCursor | undefined): { memory: TurnMemory; fromStart: boolean } {
    const found = kept && this.findMemory(owner, stored.turnId)
    if (found) return { memory: found, fromStart: false }
    const memory = this.openMemory(owner, stored.turnId)
    if (!kept) return { memory, fromStart: true }
    const shown = kept.turnId === stored.turnId && typeof kept.eventCount === 'number' && kept.eventCount >= 0 ? kept.eventCount : stored.count
    if (!this.strategy.replaysFromStart) {
      memory.ledger.seed(shown)
      return { memory, fromStart: false }
    }
    memory.primeUntil = shown
    return { memory, fromStart: true }
  }

  /** The turn is over: its stored handle and its ledger go. */
  forget(owner: object, turnId: string): void {
    clearHandle(this.storage, this.key)
    closeTurnMemory(owner, turnId)
  }

  /** The handle stored for the conversation, if it is this strategy's and well formed. */
  stored(): ResumeHandle | undefined {
    return readHandle(this.storage, this.key, this.strategy)
  }

  clear(): void {
    clearHandle(this.storage, this.key)
  }

  /** Store the handle; false when the storage refused it. */
  write(handle: ResumeHandle): boolean {
    return writeHandle(this.storage, this.key, handle) !== undefined
  }

  /** What the strategy knows of one frame, and its fingerprint for aligning a replay. */
  identify(frame: SSEFrame, event: unknown, json: boolean): ReplayItem {
    const identity = this.strategy.identify(frame, json ? event : undefined)
    return { frame, event, json, fingerprint: fingerprint(frame.data, frame.event), ...identity }
  }

  /** The handle for the turn as it stands, else the one it started from. */
  handle(input: HandleInput): ResumeHandle | undefined {
    const handle = this.strategy.handle({ ...input, conversationKey: this.key, resumeUrl: this.options.resumeUrl })
    return handle && input.scope !== undefined ? { ...handle, scope: input.scope } : handle ?? input.previous
  }

  /** The reconnect's request, with the client's headers under the strategy's. */
  request(handle: ResumeHandle, fromStart: boolean, options: AgentClientOptions): RequestPlan {
    const built = this.strategy.request(handle, { conversationKey: this.key, resumeUrl: this.options.resumeUrl, fromStart })
    const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
    new Headers(built.headers).forEach((value, name) => headers.set(name, value))
    return {
      url: built.url, method: built.method ?? 'GET', headers, body: built.body ?? null,
      credentials: options.credentials, lastEventId: built.lastEventId,
    }
  }

  /**
   * Show a new decoder one event a store restored across a reload already holds
   * (`TurnMemory.primeUntil`), folding nothing: what the decoder gathers is
   * dropped and the host's `onData` does not hear it, so only its knowledge of
   * the parts stays. False when the memory has nothing left to learn: fold the event.
   */
  prime(memory: TurnMemory, reader: FrameDecoder, item: ReplayItem): boolean {
    const until = memory.primeUntil
    if (until === undefined) return false
    if (memory.ledger.count >= until) {
      memory.primeUntil = undefined
      return false
    }
    memory.priming = true
    try {
      if (item.json) reader.parsed(item.event, item.frame)
      else reader.frame(item.frame)
      reader.flush()
    } finally {
      memory.priming = false
    }
    memory.ledger.record(item)
    return true
  }

  /** Drops what the store already holds from a replay, reporting what does not line up. */
  filter(ledger: TurnLedger, requested: { handle: ResumeHandle; fromStart: boolean }, report: (error: WeftError) => void): ReplayFilter {
    return this.strategy.dedupe(ledger, {
      handle: requested.handle,
      fromStart: requested.fromStart,
      report: (message) => report(weftError('protocol', message, { code: 'resume_mismatch' })),
    })
  }

  /** How long to wait before reconnect number `failures`, and the wait itself (false when aborted). */
  delay(failures: number, floorMs: number): number {
    return backoffDelay(failures, this.options.backoff, floorMs)
  }

  sleep(ms: number, signal: AbortSignal): Promise<boolean> {
    return (this.options.backoff?.sleep ?? wait)(ms, signal)
  }

  /** The error a run parks with once its reconnects ran out. */
  exhausted(last: WeftError): WeftError {
    const attempts = this.maxRetries
    const tries = attempts === 1 ? 'one reconnect' : `${attempts} reconnects`
    return weftError(last.type === 'timeout' ? 'timeout' : 'network', `The connection was lost and ${tries} failed: ${last.message}`, {
      code: RESUME_EXHAUSTED, retryable: true, status: last.status,
    })
  }

  /** The host's loader, else one that reads `historyUrl` with the turn's protocol's history reader. */
  historyLoader(options: AgentClientOptions, protocolOfTurn: () => ProtocolName | undefined): HistoryLoader | undefined {
    const { loadHistory, historyUrl: url } = this.options
    if (loadHistory || url === undefined) return loadHistory
    return async ({ conversationKey, handle, signal }) => {
      let data: unknown
      try {
        const response = await (options.fetch ?? fetch)(typeof url === 'function' ? url(conversationKey) : url, {
          headers: typeof options.headers === 'function' ? options.headers() : options.headers, credentials: options.credentials, signal,
        })
        if (!response.ok) throw new WeftStreamError(httpError(response, await response.text()))
        data = await response.json()
      } catch (thrown) {
        // A body that is not JSON is the server's fault, anything else the connection's.
        throw new WeftStreamError(toWeftError(thrown, thrown instanceof SyntaxError ? 'protocol' : 'network'))
      }
      // History replaces the conversation, so it is read as a whole, against nothing.
      const protocol = protocolOfTurn() ?? options.protocol ?? handle?.protocol ?? ''
      const ops = readHistory(resolveProtocol(protocol, candidatesOf(options)), data, emptyState())
      const refusal = ops.every((op) => op.op === 'problem') && ops[0]
      if (refusal) throw new WeftStreamError({ ...refusal.error, message: `history could not be read: ${refusal.error.message}` })
      return ops
    }
  }
}

/**
 * The options' resume strategy bound to their conversation, or why it cannot be
 * resolved (a send must never reject over it); nothing when `resume` is absent.
 *
 * @example
 * const { binding, error } = bindResume({ url: '/api/chat', protocol: 'yao', resume: { conversationKey: 'chat-1' } })
 */
export function bindResume(options: AgentClientOptions): { binding?: ResumeBinding; error?: WeftError } {
  const resume = options.resume
  if (!resume) return {}
  try {
    return { binding: new ResumeBinding(strategyOf(options, resume), resume.conversationKey, resume.storage ?? defaultResumeStorage(), resume) }
  } catch (thrown) {
    return { error: toWeftError(thrown, 'validation') }
  }
}

function strategyOf(options: AgentClientOptions, resume: ResumeOptions): ResumeStrategy {
  // A protocol given as a definition is a candidate too: `resume: 'ai-sdk'` needs no list then.
  const candidates = candidatesOf(options)
  if (resume.strategy !== undefined) return resolveResumeStrategy(resume.strategy, candidates)
  const own = options.protocol === undefined ? undefined : resolveProtocol(options.protocol, candidates).resume?.()
  if (own) return own
  throw new WeftStreamError(weftError('validation', 'resume needs a strategy: name one, or give the client a protocol that has one'))
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
