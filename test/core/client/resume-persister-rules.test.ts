/**
 * The resume persister on its own, exactly: the handle it computes (and the
 * protocol it names: the stream's, else the client's, else the stored one), when
 * it writes the handle (only when it changed, never after the turn was
 * forgotten), the reconnect request and its `fromStart`, the replay filter, and
 * the history loader it hands the turn's protocol to. A strategy that records
 * what it is asked stands in for a protocol's, so each value is compared whole.
 */
import { describe, expect, it } from 'vitest'
import { createRun, type ActiveRun } from '../../../src/core/client/run'
import { currentHandle, forget, historyLoader, persist, replayFilter, resumeRequest } from '../../../src/core/client/resume-persister'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { ClientToolRunner } from '../../../src/core/client/tool-runner'
import { WeftStreamError } from '../../../src/core/model/errors'
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder'
import { ResumeBinding } from '../../../src/core/resume/binding'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { findTurnMemory, openTurnMemory } from '../../../src/core/resume/turn-memory'
import type { ResumeHandle, ResumeState, ResumeStorage, ResumeStrategy } from '../../../src/core/resume/types'
import { createAgentStore } from '../../../src/core/store/store'
import { builtInProtocols } from '../../../src/protocols/index'

const URL = 'http://agent.invalid/api/chat'

interface Recorded {
  handles: ResumeState[]
  requests: Array<{ handle: ResumeHandle; fromStart: boolean }>
  dedupes: Array<{ count: number; handle: ResumeHandle; fromStart: boolean }>
  writes: string[]
  removes: number
}

/** A strategy whose handle is the turn id, the count and the protocol it was handed. */
function recordingStrategy(seen: Recorded): ResumeStrategy {
  return {
    name: 'recording',
    replaysFromStart: true,
    identify: () => ({ counted: true }),
    handle: (state) => {
      seen.handles.push(state)
      return { strategy: 'recording', turnId: state.turnId, count: state.ledger.count, ...(state.protocol ? { protocol: state.protocol } : {}) }
    },
    request: (handle, context) => {
      seen.requests.push({ handle, fromStart: context.fromStart })
      return { url: `${URL}/resume`, headers: { 'x-from-start': String(context.fromStart) } }
    },
    dedupe: (ledger, context) => {
      seen.dedupes.push({ count: ledger.count, handle: context.handle, fromStart: context.fromStart })
      context.report('out of line')
      return { push: (item) => [item], end: () => [], settled: false }
    },
    revive: (value) => value as unknown as ResumeHandle,
  }
}

function setup(options: { protocol?: AgentClientOptions['protocol']; resumable?: boolean; fromStart?: boolean; handle?: ResumeHandle; historyUrl?: string } = {}) {
  const seen: Recorded = { handles: [], requests: [], dedupes: [], writes: [], removes: 0 }
  const inner = memoryStorage()
  const storage: ResumeStorage = {
    getItem: (key) => inner.getItem(key),
    setItem: (key, value) => {
      seen.writes.push(value)
      inner.setItem(key, value)
    },
    removeItem: (key) => {
      seen.removes += 1
      inner.removeItem(key)
    },
  }
  const store = createAgentStore()
  const resumeOptions = { conversationKey: 'c1', storage, ...(options.historyUrl ? { historyUrl: options.historyUrl } : {}) }
  const clientOptions: AgentClientOptions = {
    url: URL, protocols: builtInProtocols, resume: resumeOptions,
    ...(options.protocol ? { protocol: options.protocol } : {}),
  }
  const binding = options.resumable === false ? undefined : new ResumeBinding(recordingStrategy(seen), 'c1', storage, resumeOptions)
  const memory = openTurnMemory(store, 't1')
  const run = createRun(store, new ClientToolRunner(store), {
    turnId: 't1', options: clientOptions, resume: binding, memory, opened: true, fromStart: options.fromStart ?? false, handle: options.handle,
  })
  return { seen, store, run, storage: inner, memory }
}

const stored = (storage: ResumeStorage) => {
  const text = storage.getItem(resumeStorageKey('c1'))
  return text === null ? null : (JSON.parse(text) as { handle: ResumeHandle }).handle
}

const reader = (run: ActiveRun, protocol: string) =>
  new FrameDecoder({ turnId: run.turnId, protocol, protocols: builtInProtocols })

describe('the handle', () => {
  it('none without a binding, and nothing is written or asked', () => {
    const { run, seen } = setup({ resumable: false })
    expect(currentHandle(run)).toBeUndefined()
    persist(run)
    expect(seen.writes).toEqual([])
    expect(historyLoader(run)).toBeUndefined()
    expect(replayFilter(run)).toBeUndefined()
  })

  it("names the protocol the stream is read as, before the client's and the stored handle's", () => {
    const { run, seen } = setup({ protocol: 'ag-ui', handle: { strategy: 'recording', turnId: 't1', count: 0, protocol: 'yao' } })
    run.memory.reader = reader(run, 'ui-message')
    expect(currentHandle(run)).toEqual({ strategy: 'recording', turnId: 't1', count: 0, protocol: 'ui-message' })
    expect(seen.handles.map((h) => h.protocol)).toEqual(['ui-message'])
  })

  it("names the client's protocol while no stream was read, before the stored handle's", () => {
    const { run } = setup({ protocol: 'ag-ui', handle: { strategy: 'recording', turnId: 't1', count: 0, protocol: 'yao' } })
    expect(currentHandle(run)?.protocol).toBe('ag-ui')
  })

  it('keeps the stored handle\'s protocol when neither the stream nor the client names one', () => {
    const { run, seen } = setup({ handle: { strategy: 'recording', turnId: 't1', count: 0, protocol: 'yao' } })
    expect(currentHandle(run)).toEqual({ strategy: 'recording', turnId: 't1', count: 0, protocol: 'yao' })
    expect(seen.handles[0]).toMatchObject({ turnId: 't1', protocol: 'yao', streamUrl: undefined, previous: { protocol: 'yao' } })
  })

  it('is computed from the turn, the ledger, the stream URL and the handle before it, and becomes the run\'s', () => {
    const { run, seen, store } = setup({ protocol: 'ui-message' })
    run.streamUrl = `${URL}?turn=1`
    const first = currentHandle(run)
    expect(run.handle).toBe(first)
    currentHandle(run)
    expect(seen.handles).toHaveLength(2)
    expect(seen.handles[1]).toEqual({
      turnId: 't1', cursor: store.getState().cursor, ledger: run.memory.ledger, protocol: 'ui-message',
      streamUrl: `${URL}?turn=1`, previous: first, conversationKey: 'c1', resumeUrl: undefined,
    })
  })
})

describe('writing the handle', () => {
  it('writes once per change: the same handle twice is one write, a new count another', () => {
    const { run, seen, storage } = setup({ protocol: 'ui-message' })
    persist(run)
    persist(run)
    expect(seen.writes).toHaveLength(1)
    expect(stored(storage)).toEqual({ strategy: 'recording', turnId: 't1', count: 0, protocol: 'ui-message' })
    run.memory.ledger.seed(2)
    persist(run)
    expect(seen.writes).toHaveLength(2)
    expect(stored(storage)).toEqual({ strategy: 'recording', turnId: 't1', count: 2, protocol: 'ui-message' })
  })

  it('a write the storage refuses is tried again at the next persist', () => {
    const { run, seen } = setup({ protocol: 'ui-message' })
    const binding = run.resume!
    let refuse = true
    const write = binding.write.bind(binding)
    binding.write = (handle) => (refuse ? false : write(handle))
    persist(run)
    expect(run.savedText).toBeUndefined()
    refuse = false
    persist(run)
    expect(seen.writes).toHaveLength(1)
    expect(run.savedText).toBe(JSON.stringify(run.handle))
  })

  it('nothing while the strategy has no handle yet', () => {
    const { run, seen } = setup()
    run.resume!.strategy.handle = () => undefined
    persist(run)
    expect(seen.writes).toEqual([])
    expect(run.savedText).toBeUndefined()
  })

  it('forget clears the stored handle and the turn\'s memory, and no later persist writes it again', () => {
    const { run, seen, storage, store } = setup({ protocol: 'ui-message' })
    persist(run)
    expect(stored(storage)).not.toBeNull()
    expect(run.keepHandle).toBe(true)
    forget(run)
    expect(run.keepHandle).toBe(false)
    expect(stored(storage)).toBeNull()
    expect(findTurnMemory(store, 't1')).toBeUndefined()
    run.memory.ledger.seed(1)
    persist(run)
    expect(seen.writes).toHaveLength(1)
    expect(stored(storage)).toBeNull()
  })

  it('a batch the run flushes after the turn was forgotten writes no handle', () => {
    const { run, storage } = setup({ protocol: 'ui-message' })
    run.batcher.push([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    run.batcher.flush()
    expect(stored(storage)).not.toBeNull()
    forget(run)
    run.memory.ledger.seed(3)
    run.batcher.push([{ op: 'turn.update', turnId: 't1', protocol: 'ui-message' }])
    run.batcher.flush()
    expect(stored(storage)).toBeNull()
  })
})

describe('the reconnect request', () => {
  it('asks from the start only for a turn the store does not hold and nothing was folded of yet', () => {
    const { run, seen } = setup({ protocol: 'ui-message', fromStart: true })
    const request = resumeRequest(run)
    expect(request).toMatchObject({ url: `${URL}/resume`, method: 'GET', body: null })
    expect(new Headers(request.headers).get('x-from-start')).toBe('true')
    expect(seen.requests).toEqual([{ handle: { strategy: 'recording', turnId: 't1', count: 0, protocol: 'ui-message' }, fromStart: true }])
    expect(run.requested).toEqual({ handle: seen.requests[0]!.handle, fromStart: true })

    run.memory.ledger.seed(2)
    resumeRequest(run)
    expect(seen.requests[1]!.fromStart).toBe(false)
    expect(run.requested?.fromStart).toBe(false)
  })

  it('never from the start for a turn the store holds', () => {
    const { run, seen } = setup({ protocol: 'ui-message', fromStart: false })
    resumeRequest(run)
    expect(seen.requests.map((r) => r.fromStart)).toEqual([false])
  })

  it('without a binding there is no stream to resume: a validation error that is not retried', () => {
    const { run } = setup({ resumable: false })
    let thrown: unknown
    try {
      resumeRequest(run)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(WeftStreamError)
    expect((thrown as WeftStreamError).info).toMatchObject({ type: 'validation', message: 'there is no stream to resume', retryable: false })
    expect(run.requested).toBeUndefined()
  })

  it('with a binding but no handle yet: the same error', () => {
    const { run } = setup()
    run.resume!.strategy.handle = () => undefined
    expect(() => resumeRequest(run)).toThrow('there is no stream to resume')
  })
})

describe('the replay filter', () => {
  it('none before a reconnect was requested; after it, the strategy\'s, over the ledger and what was asked, reporting on the turn', () => {
    const { run, seen, store } = setup({ protocol: 'ui-message', fromStart: true })
    expect(replayFilter(run)).toBeUndefined()
    expect(seen.dedupes).toEqual([])
    resumeRequest(run)
    expect(replayFilter(run)).toBeDefined()
    expect(seen.dedupes).toEqual([{ count: 0, handle: run.requested!.handle, fromStart: true }])
    run.batcher.push([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    run.batcher.flush()
    const problems = store.getState().turns.t1!.problems
    expect(problems.map((p) => ({ type: p.type, code: p.code, message: p.message }))).toEqual([{ type: 'protocol', code: 'resume_mismatch', message: 'out of line' }])
  })
})

describe('the history loader', () => {
  it("is handed the protocol the turn's stream is read as, asked when history is read", async () => {
    const { run } = setup({ historyUrl: `${URL}/history` })
    const asked: Array<string | undefined> = []
    const binding = run.resume!
    const original = binding.historyLoader.bind(binding)
    binding.historyLoader = (options, protocolOfTurn) => {
      asked.push(protocolOfTurn())
      return original(options, protocolOfTurn)
    }
    expect(historyLoader(run)).toBeTypeOf('function')
    run.memory.reader = reader(run, 'ag-ui')
    historyLoader(run)
    expect(asked).toEqual([undefined, 'ag-ui'])
  })
})
