/**
 * One run of the client: a request, its reconnects and its end, with what it
 * folds through (the batcher, the decoder's memory) and what it resumes from
 * (the binding, the latest handle). The run driver, the persister and the
 * endings all work on this one record.
 */
import { createBatcher, defaultScheduler, type Batcher } from '../store/batcher'
import { toWeftError, type WeftError } from '../model/errors'
import type { Op } from '../model/ops'
import type { ResumeBinding } from '../resume/binding'
import type { TurnMemory } from '../resume/turn-memory'
import type { ResumeHandle } from '../resume/types'
import type { AgentStore } from '../store/store'
import type { RunTiming } from '../model/usage'
import type { RequestTrigger } from '../protocol/request'
import type { AgentClientOptions } from './options'
import { persist } from './resume-persister'
import { isSettled, type RunPhase } from './run-state'
import { stampEnding } from './timing'
import type { ClientToolRunner } from './tool-runner'

/** A run in flight (or just ended): everything its connections share. */
export interface ActiveRun {
  readonly store: AgentStore
  turnId: string
  /** Settles when the run does (its stream, reconnects and end included). */
  done?: Promise<void>
  /** Aborted only by a stop or a detach, each after the run settled: `isSettled(phase)` covers it. */
  controller: AbortController
  batcher: Batcher
  /** Where the run is (see `run-state.ts`); changed only through `transition`. */
  phase: RunPhase
  options: AgentClientOptions
  memory: TurnMemory
  resume?: ResumeBinding
  /** False once the handle was cleared: nothing may write it again. */
  keepHandle: boolean
  /** The latest handle (computed, or read from storage). */
  handle?: ResumeHandle
  savedText?: string
  /** What the current reconnect asked for, so its filter can align the replay. */
  requested?: { handle: ResumeHandle; fromStart: boolean }
  streamUrl?: string
  /** The run the request named (a source's `open` may), for `StreamSource.cancel` when the stream names none. */
  requestRunId?: string
  lastEventId?: string
  /** The store holds nothing of the turn: the first reconnect asks for all of it. */
  fromStart: boolean
  /** The turn exists in the store. */
  opened: boolean
  announced: boolean
  /** Reconnects in a row that brought nothing new. */
  failures: number
  /** The server's `retry:`. */
  retryMs?: number
  /** Ids of a continuation are scoped apart from the earlier runs of the same turn. */
  scope?: string
  /** Why the first request failed, if it did. */
  failure?: WeftError
  /** The stream ended and its last batch waits for the next frame: a stop then lets it finish. */
  finishing?: boolean
  /** The turn's runs as stamped so far, this run's last; absent for a run picked up after a reload, which stamps nothing. */
  stamps?: RunTiming[]
  /** Why the run was started, for the inspector; absent for an attach. */
  trigger?: RequestTrigger
  /** The error the run ended in, for the inspector. */
  endError?: WeftError
}

/** How one connection ended. */
export type Outcome =
  | { kind: 'aborted' }
  | { kind: 'finished'; reason: 'done' | 'eof' }
  | { kind: 'nothing' }
  | { kind: 'lost'; error: WeftError; progressed: boolean }
  | { kind: 'expired'; error: WeftError }
  | { kind: 'failed'; error: WeftError }

/** Where a new run starts from. */
export interface RunStart {
  turnId: string
  options: AgentClientOptions
  resume: ResumeBinding | undefined
  memory: TurnMemory
  opened: boolean
  fromStart: boolean
  handle?: ResumeHandle
}

/**
 * A new run, `idle`. Its batcher folds into the store, writes the handle once per
 * flushed batch (what the store shows is what it resumes from) and starts a
 * client tool as soon as its call's input is complete.
 */
export function createRun(store: AgentStore, tools: ClientToolRunner, start: RunStart): ActiveRun {
  const { turnId, options, resume, memory } = start
  const batcher = createBatcher((ops) => {
    store.getState().dispatch(stampEnding(run, ops))
    persist(run)
    if (!isSettled(run.phase)) tools.start(run.turnId, run.options.tools)
  }, options.scheduler ?? defaultScheduler(), (thrown) => {
    // The store took the batch (the fold never throws); a listener of the host's did.
    store.getState().dispatch([{ op: 'problem', turnId: run.turnId, error: toWeftError(thrown, 'unknown') }])
  })
  const run: ActiveRun = {
    store, turnId, options, resume, memory, batcher,
    controller: new AbortController(),
    phase: 'idle', keepHandle: resume !== undefined,
    handle: start.handle, fromStart: start.fromStart, opened: start.opened, announced: false, failures: 0,
  }
  return run
}

/** Fold ops into the run's store now, outside the batcher. */
export function dispatchNow(run: ActiveRun, ops: readonly Op[]): void {
  run.store.getState().dispatch(stampEnding(run, ops))
}
