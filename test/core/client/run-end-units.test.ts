/**
 * Every ending of a run, called on a run directly and compared whole: what the
 * store shows (the turn, the stream's status and error), where the run's phase
 * goes, whether its signal is aborted, what becomes of the stored handle, and
 * what the host hears (`onError`, `onFinish`, its source's `cancel`).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions, ResumeOptions } from '../../../src/core/client/options'
import { createRun, type ActiveRun } from '../../../src/core/client/run'
import { abort, complete, detach, endInError, expire, nothingLeft, park } from '../../../src/core/client/run-end'
import { persist } from '../../../src/core/client/resume-persister'
import { transition } from '../../../src/core/client/run-state'
import { ClientToolRunner } from '../../../src/core/client/tool-runner'
import { RESUME_EXPIRED } from '../../../src/core/client/options'
import { weftError, type WeftError } from '../../../src/core/model/errors'
import type { Op } from '../../../src/core/model/ops'
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder'
import { ResumeBinding } from '../../../src/core/resume/binding'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { openTurnMemory } from '../../../src/core/resume/turn-memory'
import type { HistoryContext, HistoryResult } from '../../../src/core/resume/types'
import { createAgentStore } from '../../../src/core/store/store'
import { aiSdkResume } from '../../../src/protocols/ui-message/index'
import { builtInProtocols } from '../../../src/protocols/index'

const URL = 'http://agent.invalid/api/chat'
const LOST = weftError('network', 'connection reset')

interface Setup {
  resumable?: boolean
  opened?: boolean
  reader?: boolean
  loadHistory?: (context: HistoryContext) => Promise<HistoryResult>
  source?: AgentClientOptions['source']
}

function setup(s: Setup = {}) {
  const { resumable = true, opened = true } = s
  const store = createAgentStore()
  const storage = memoryStorage()
  const errors: WeftError[] = []
  const finished: string[] = []
  const history: HistoryContext[] = []
  const resume: ResumeOptions = {
    conversationKey: 'c1', storage,
    ...(s.loadHistory ? { loadHistory: (context: HistoryContext) => (history.push(context), s.loadHistory!(context)) } : {}),
  }
  const options: AgentClientOptions = {
    url: URL, protocol: 'ui-message', protocols: builtInProtocols, fetch: (async () => new Response('')) as typeof fetch,
    onError: (error) => void errors.push(error), onFinish: (turnId) => void finished.push(turnId),
    ...(resumable ? { resume } : {}), ...(s.source ? { source: s.source } : {}),
  }
  const binding = resumable ? new ResumeBinding(aiSdkResume(), 'c1', storage, resume) : undefined
  const memory = openTurnMemory(store, 't1')
  if (opened) store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant', protocol: 'ui-message' }])
  const run = createRun(store, new ClientToolRunner(store), { turnId: 't1', options, resume: binding, memory, opened, fromStart: false })
  run.streamUrl = URL
  if (s.reader) memory.reader = new FrameDecoder({ turnId: 't1', protocol: 'ui-message', protocols: builtInProtocols })
  transition(run, 'connecting')
  transition(run, 'streaming')
  const stored = () => storage.getItem(resumeStorageKey('c1'))
  const view = () => {
    const state = store.getState()
    const turn = state.turns.t1
    return { status: state.status, error: state.error, turn: turn && { status: turn.status, error: turn.error, problems: turn.problems } }
  }
  return { store, run, errors, finished, history, stored, view }
}

/** Feed the run's reader UI message chunks, as the connection does. */
function read(run: ActiveRun, ...chunks: unknown[]): void {
  for (const chunk of chunks) run.batcher.push(run.memory.reader!.parsed(chunk, { data: JSON.stringify(chunk) }))
  run.batcher.flush()
}
const started = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]

describe('abort: a stop', () => {
  it('ends the turn and the stream aborted, forgets the handle, aborts the signal, and says it stopped something', () => {
    const { run, stored, view, errors } = setup()
    persist(run)
    expect(stored()).not.toBeNull()
    expect(abort(run)).toBe(true)
    expect(run.phase).toBe('aborted')
    expect(run.controller.signal.aborted).toBe(true)
    expect(view()).toEqual({ status: 'aborted', error: undefined, turn: { status: 'aborted', error: undefined, problems: [] } })
    expect(stored()).toBeNull()
    expect(errors).toEqual([])
  })

  it('of a run whose turn never opened: only the stream shows it, no turn appears', () => {
    const { run, store } = setup({ opened: false })
    expect(abort(run)).toBe(true)
    expect(store.getState().turnIds).toEqual([])
    expect(store.getState().status).toBe('aborted')
  })

  it('folds what was queued first, then ends the turn', () => {
    const { run, store } = setup()
    run.batcher.push([{ op: 'turn.update', turnId: 't1', runId: 'r1' }])
    abort(run)
    expect(store.getState().turns.t1).toMatchObject({ runId: 'r1', status: 'aborted' })
  })

  it('of a parked run ends it aborted; of a run that ended there is nothing to stop', () => {
    const parked = setup()
    park(parked.run, LOST)
    expect(abort(parked.run)).toBe(true)
    expect(parked.run.phase).toBe('aborted')
    expect(parked.store.getState().status).toBe('aborted')

    const ended = setup()
    transition(ended.run, 'done')
    const before = ended.store.getState()
    expect(abort(ended.run)).toBe(false)
    expect(ended.store.getState()).toBe(before)
    expect(ended.run.controller.signal.aborted).toBe(false)
  })

  it('of a run whose stream had ended lets it finish: the queued end is folded, the run is not stopped', async () => {
    const { run, store, finished } = setup()
    const completing = complete(run, 'done')
    expect(abort(run)).toBe(true)
    await completing
    expect(run.phase).toBe('done')
    expect(run.controller.signal.aborted).toBe(false)
    expect(store.getState().turns.t1!.status).toBe('done')
    expect(finished).toEqual(['t1'])
  })

  it("tells the host's source to cancel: the turn's run id before the request's, and none when neither has one", async () => {
    const cancels: unknown[] = []
    const source: AgentClientOptions['source'] = { open: async () => ({ url: URL }), cancel: (context) => void cancels.push(context) }
    const named = setup({ source })
    named.run.requestRunId = 'request-run'
    named.store.getState().dispatch([{ op: 'turn.update', turnId: 't1', runId: 'turn-run' }])
    abort(named.run)
    const fromRequest = setup({ source })
    fromRequest.run.requestRunId = 'request-run'
    abort(fromRequest.run)
    const anonymous = setup({ source })
    abort(anonymous.run)
    expect(cancels).toEqual([])
    await Promise.resolve()
    await Promise.resolve()
    const fetchOf = (r: ActiveRun) => r.options.fetch
    expect(cancels).toEqual([
      { turnId: 't1', runId: 'turn-run', fetch: fetchOf(named.run) },
      { turnId: 't1', runId: 'request-run', fetch: fetchOf(fromRequest.run) },
      { turnId: 't1', fetch: fetchOf(anonymous.run) },
    ])
    expect(Object.keys(cancels[2] as object)).toEqual(['turnId', 'fetch'])
  })
})

describe('detach: letting go without stopping', () => {
  it('folds what came, writes the handle, parks the run and closes its connection; the turn stays open', () => {
    const { run, store, stored, errors } = setup()
    run.batcher.push([{ op: 'turn.update', turnId: 't1', runId: 'r1' }])
    detach(run)
    expect(run.phase).toBe('parked')
    expect(run.controller.signal.aborted).toBe(true)
    expect(store.getState().turns.t1).toMatchObject({ runId: 'r1', status: 'streaming' })
    expect(JSON.parse(stored()!)).toMatchObject({ handle: { strategy: 'ai-sdk', turnId: 't1', url: URL } })
    expect(errors).toEqual([])
  })

  it('of a run that ended does nothing', () => {
    const { run, stored } = setup()
    transition(run, 'error')
    detach(run)
    expect(run.phase).toBe('error')
    expect(run.controller.signal.aborted).toBe(false)
    expect(stored()).toBeNull()
  })

  it('of a run whose last batch settles it: the run ends done, nothing is parked or kept', async () => {
    const { run, stored } = setup()
    const completing = complete(run, 'done')
    detach(run)
    await completing
    expect(run.phase).toBe('done')
    expect(run.controller.signal.aborted).toBe(false)
    expect(stored()).toBeNull()
  })
})

describe('endInError', () => {
  const error = weftError('network', 'gone', { status: 502 })

  it("keep (a park): the handle is written, the run parks, the turn stays open, the stream shows the error, the host hears it once", () => {
    const { run, stored, view, errors } = setup()
    endInError(run, error, { handle: 'keep', closeTurn: false })
    expect(run.phase).toBe('parked')
    expect(stored()).not.toBeNull()
    expect(view()).toEqual({ status: 'error', error, turn: { status: 'streaming', error: undefined, problems: [] } })
    expect(errors).toEqual([error])
  })

  it('forget, closing the turn: the handle goes, the turn ends in the error', () => {
    const { run, stored, view, errors } = setup()
    persist(run)
    endInError(run, error, { handle: 'forget', closeTurn: true })
    expect(run.phase).toBe('error')
    expect(stored()).toBeNull()
    expect(view()).toEqual({ status: 'error', error, turn: { status: 'error', error, problems: [] } })
    expect(errors).toEqual([error])
  })

  it('leave: the stored handle is neither written nor cleared', () => {
    const { run, stored } = setup()
    persist(run)
    const before = stored()
    run.memory.ledger.seed(4)
    endInError(run, error, { handle: 'leave', closeTurn: true })
    expect(stored()).toBe(before)
    const empty = setup()
    endInError(empty.run, error, { handle: 'leave', closeTurn: false })
    expect(empty.stored()).toBeNull()
  })

  it('closing a turn that never opened adds none', () => {
    const { run, store } = setup({ opened: false })
    endInError(run, error, { handle: 'leave', closeTurn: true })
    expect(store.getState().turnIds).toEqual([])
    expect(store.getState().error).toEqual(error)
  })
})

describe('complete: the stream ended', () => {
  it('without a reader: the turn is finished done, then the run; onFinish hears the turn; the handle goes', async () => {
    const { run, view, finished, stored } = setup()
    persist(run)
    await complete(run, 'eof')
    expect(run.phase).toBe('done')
    expect(view()).toEqual({ status: 'done', error: undefined, turn: { status: 'done', error: undefined, problems: [] } })
    expect(finished).toEqual(['t1'])
    expect(stored()).toBeNull()
  })

  it("a turn the agent ended in error without saying why: the stream shows an unknown error, the handle goes, onFinish is not called", async () => {
    const { run, store, errors, finished, stored } = setup({ reader: true })
    read(run, { type: 'start', messageId: 'm1' }, { type: 'finish' })
    persist(run)
    store.getState().dispatch([{ op: 'turn.finish', turnId: 't1', status: 'error' }])
    expect(store.getState().turns.t1!.status).toBe('error')
    expect(store.getState().turns.t1!.error).toBeUndefined()
    await complete(run, 'done')
    const expected = { type: 'unknown', message: 'the agent reported an error', retryable: false }
    expect(run.phase).toBe('error')
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toMatchObject(expected)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject(expected)
    expect(finished).toEqual([])
    expect(stored()).toBeNull()
  })

  it('a turn the agent ended aborted: the run ends aborted, onFinish is not called', async () => {
    const { run, store, view, finished, stored } = setup({ reader: true })
    read(run, { type: 'start', messageId: 'm1' }, { type: 'finish' })
    persist(run)
    store.getState().dispatch([{ op: 'turn.finish', turnId: 't1', status: 'aborted' }])
    await complete(run, 'done')
    expect(run.phase).toBe('aborted')
    expect(view()).toEqual({ status: 'aborted', error: undefined, turn: { status: 'aborted', error: undefined, problems: [] } })
    expect(finished).toEqual([])
    expect(stored()).toBeNull()
  })

  it("with a reader: the decoder's own end closes the turn (cut short at eof, whole at done)", async () => {
    const cut = setup({ reader: true })
    read(cut.run, ...started)
    await complete(cut.run, 'eof')
    expect(cut.view().turn).toEqual({ status: 'aborted', error: undefined, problems: [expect.objectContaining({ code: 'truncated' })] })
    const whole = setup({ reader: true })
    read(whole.run, ...started, { type: 'text-end', id: 't' }, { type: 'finish' })
    await complete(whole.run, 'done')
    expect(whole.view().turn).toEqual({ status: 'done', error: undefined, problems: [] })
  })

  it('of a run that never opened its turn: the stream goes back to idle, nothing shows, the handle goes', async () => {
    const { run, store, stored, finished } = setup({ opened: false })
    persist(run)
    await complete(run, 'done')
    expect(run.phase).toBe('done')
    expect(store.getState().status).toBe('idle')
    expect(store.getState().turnIds).toEqual([])
    expect(stored()).toBeNull()
    expect(finished).toEqual([])
  })
})

describe('expire: no stream to resume', () => {
  it('a server that said so (a status): the turn is interrupted with the reason as a problem, the handle goes', async () => {
    const { run, view, stored, errors } = setup()
    persist(run)
    await expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
    const reason = { type: 'validation', message: 'HTTP 404', status: 404, code: RESUME_EXPIRED, retryable: false }
    expect(run.phase).toBe('aborted')
    expect(view()).toEqual({ status: 'aborted', error: undefined, turn: { status: 'aborted', error: undefined, problems: [reason] } })
    expect(stored()).toBeNull()
    expect(errors).toEqual([])
  })

  it('a turn that never opened: only the stream shows the interruption', async () => {
    const { run, store } = setup({ opened: false })
    await expire(run, weftError('validation', 'HTTP 410', { status: 410 }))
    expect(store.getState().turnIds).toEqual([])
    expect(store.getState().status).toBe('aborted')
  })

  it('no server answered (no status): the turn and the stream end in the expiry, the host hears it', async () => {
    const { run, view, stored, errors } = setup()
    persist(run)
    await expire(run, weftError('validation', 'cannot be replayed', { retryable: true }))
    const error = { type: 'validation', message: 'cannot be replayed', code: RESUME_EXPIRED, retryable: false }
    expect(run.phase).toBe('error')
    expect(view()).toEqual({ status: 'error', error, turn: { status: 'error', error, problems: [] } })
    expect(errors).toEqual([error])
    expect(stored()).toBeNull()
  })
})

describe('history in place of the stream', () => {
  const later: Op[] = [{ op: 'turn.open', turnId: 'h1', role: 'user' }]

  it("expired: the loader hears the conversation, the handle, why and the run's signal; the history replaces the store", async () => {
    const ops: Op[] = [{ op: 'turn.open', turnId: 'h1', role: 'user' }, { op: 'turn.finish', turnId: 'h1', status: 'done' }]
    const { run, store, history, stored } = setup({ loadHistory: async () => ops })
    persist(run)
    const handle = run.handle
    await expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
    expect(history).toEqual([{ conversationKey: 'c1', handle, reason: 'expired', signal: run.controller.signal }])
    expect(run.phase).toBe('done')
    expect(store.getState().turnIds).toEqual(['h1'])
    expect(store.getState().status).toBe('done')
    expect(stored()).toBeNull()
  })

  it('nothing left, with a reader that did not end: the loader hears the stream ended; an empty history keeps what arrived, cut short', async () => {
    const { run, history, view } = setup({ reader: true, loadHistory: async () => [] })
    read(run, ...started)
    await nothingLeft(run)
    expect(history.map((h) => h.reason)).toEqual(['ended'])
    expect(run.phase).toBe('aborted')
    expect(view()).toMatchObject({ status: 'aborted', turn: { status: 'aborted' } })
  })

  it('nothing left, with a reader that ended: no history is asked, the turn completes', async () => {
    const { run, history, view, finished } = setup({ reader: true, loadHistory: async () => [] })
    read(run, ...started, { type: 'text-end', id: 't' }, { type: 'finish' })
    await nothingLeft(run)
    expect(history).toEqual([])
    expect(view().turn?.status).toBe('done')
    expect(finished).toEqual(['t1'])
  })

  it('an empty history for a turn without a reader: the turn is finished done', async () => {
    const { run, view } = setup({ loadHistory: async () => undefined })
    await expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
    expect(run.phase).toBe('done')
    expect(view()).toEqual({ status: 'done', error: undefined, turn: { status: 'done', error: undefined, problems: [] } })
  })

  it('an empty history for a run that never opened its turn: the stream shows the expiry, the host hears it', async () => {
    const { run, store, errors } = setup({ opened: false, loadHistory: async () => [] })
    await expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
    const error = { type: 'validation', message: 'HTTP 404', status: 404, code: RESUME_EXPIRED, retryable: false }
    expect(run.phase).toBe('error')
    expect(store.getState().turnIds).toEqual([])
    expect(store.getState().error).toEqual(error)
    expect(errors).toEqual([error])
  })

  it('a loader that throws: the turn and the stream end in its error', async () => {
    const { run, view, errors } = setup({ loadHistory: async () => Promise.reject(new Error('history is down')) })
    await expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
    expect(run.phase).toBe('error')
    const state = view()
    expect(state.status).toBe('error')
    expect(state.error).toMatchObject({ type: 'unknown', message: 'history is down' })
    expect(state.turn).toMatchObject({ status: 'error', error: state.error })
    expect(errors).toEqual([state.error])
  })

  it('a stop while history loads: whatever the loader answers or throws afterwards changes nothing', async () => {
    for (const answer of [async () => later, async () => Promise.reject(new Error('late'))]) {
      let release!: () => void
      const gate = new Promise<void>((resolve) => (release = resolve))
      const { run, store, errors } = setup({ loadHistory: async () => (await gate, answer()) })
      const expiring = expire(run, weftError('validation', 'HTTP 404', { status: 404 }))
      await Promise.resolve()
      abort(run)
      const stopped = store.getState()
      release()
      await expiring
      expect(run.phase).toBe('aborted')
      expect(store.getState()).toBe(stopped)
      expect(errors).toEqual([])
    }
  })
})
