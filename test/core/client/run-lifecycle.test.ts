/**
 * The real client over real fetch on loopback, watched through its state
 * machine: every path a run takes (done, an error mid-stream, a dropped
 * connection the server never answers, stop, reconnect, giving up and retrying)
 * is the sequence of transitions the diagram allows, and the store's status
 * agrees with where the run ended.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createResumeRoutes } from '../../../mock/resume'
import { scenarios } from '../../../mock/scenarios/index'
import { startServer, type TestServer } from '../../helpers/server'

const moves = vi.hoisted(() => [] as string[])
vi.mock('../../../src/core/client/run-state', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/core/client/run-state')>()
  return {
    ...real,
    transition(run: { phase: import('../../../src/core/client/run-state').RunPhase }, to: import('../../../src/core/client/run-state').RunPhase) {
      const from = run.phase
      real.transition(run, to)
      moves.push(`${from}>${to}`)
    },
  }
})

let srv: TestServer
// The setup file already loaded the client; a fresh module graph is what sees the watched transition.
let AgentClient: typeof import('../../helpers/built-in-client').AgentClient
let createAgentStore: typeof import('../../../src/core/store/store').createAgentStore
let memoryStorage: typeof import('../../../src/core/resume/storage').memoryStorage
let syncScheduler: typeof import('../../../src/core/store/batcher').syncScheduler
beforeAll(async () => {
  srv = await startServer({ scenarios, routes: createResumeRoutes() })
  vi.resetModules()
  ;({ AgentClient } = await import('../../helpers/built-in-client'))
  ;({ createAgentStore } = await import('../../../src/core/store/store'))
  ;({ memoryStorage } = await import('../../../src/core/resume/storage'))
  ;({ syncScheduler } = await import('../../../src/core/store/batcher'))
})
afterAll(() => srv.close())
beforeEach(() => {
  moves.length = 0
})

const url = (path: string) => `${srv.url}${path}`

describe('the run lifecycle on the real client', () => {
  it('done: connecting, streaming, done', async () => {
    const store = createAgentStore()
    await new AgentClient(store, { url: url('/mock/stream/vocion/plain'), protocol: 'vocion', scheduler: syncScheduler }).send('hi')
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>done'])
    expect(store.getState().status).toBe('done')
  })

  it('an error the agent sends mid-stream ends the run in error, once, with onError called once', async () => {
    const store = createAgentStore()
    const errors: string[] = []
    const client = new AgentClient(store, {
      url: url('/mock/stream/vocion/error-mid-stream'), protocol: 'vocion', scheduler: syncScheduler, onError: (e) => errors.push(e.type),
    })
    await client.send('hi')
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>error'])
    expect(errors).toHaveLength(1)
    expect(store.getState().status).toBe('error')
    // A settled run stays settled: stop() after the end changes nothing.
    client.stop()
    expect(moves).toHaveLength(3)
    expect(store.getState().status).toBe('error')
  })

  it('a connection that goes silent, without a resume strategy, fails once: streaming, error', async () => {
    const store = createAgentStore()
    const errors: string[] = []
    const client = new AgentClient(store, {
      url: url('/mock/stream/vocion/answer?delay=400'), protocol: 'vocion', scheduler: syncScheduler, idleTimeoutMs: 100,
      onError: (e) => errors.push(e.type),
    })
    await client.send('hi')
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>error'])
    expect(errors).toEqual(['timeout'])
    expect(store.getState().status).toBe('error')
  })

  it('stop() mid-stream: streaming, aborted, and nothing after', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: url('/mock/stream/vocion/answer?delay=20'), protocol: 'vocion', scheduler: syncScheduler })
    const sending = client.send('hi')
    await new Promise<void>((resolve) => {
      const off = store.subscribe((s) => {
        if (s.cursor.eventCount >= 2) {
          off()
          resolve()
        }
      })
    })
    client.stop()
    await sending
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>aborted'])
    expect(store.getState().status).toBe('aborted')
  })

  it('stop() while the request is still being built: connecting, aborted', async () => {
    const store = createAgentStore()
    let release = () => {}
    const client = new AgentClient(store, {
      url: url('/mock/stream/vocion/plain'), protocol: 'vocion', scheduler: syncScheduler,
      source: { open: () => new Promise((resolve) => (release = () => resolve({ url: url('/mock/stream/vocion/plain') }))) },
    })
    const sending = client.send('hi')
    await Promise.resolve()
    client.stop()
    release()
    await sending
    expect(moves).toEqual(['idle>connecting', 'connecting>aborted'])
    expect(store.getState().status).toBe('aborted')
  })

  it('reconnect: a cut stream goes streaming, reconnecting, connecting, streaming, done', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: url('/mock/stream/vocion/answer?cut=6'), protocol: 'vocion', scheduler: syncScheduler,
      resume: {
        strategy: 'vocion', conversationKey: 'lifecycle', storage: memoryStorage(), resumeUrl: url('/mock/resume/vocion/answer'),
        backoff: { baseMs: 1, sleep: async () => true },
      },
    })
    await client.send('go')
    expect(moves).toEqual([
      'idle>connecting', 'connecting>streaming', 'streaming>reconnecting', 'reconnecting>connecting', 'connecting>streaming', 'streaming>done',
    ])
    expect(store.getState().status).toBe('done')
  })

  const parkingOptions = (key: string, resumeUrl: string) => ({
    // Read when called: the client's modules load in beforeAll.
    url: url('/mock/stream/vocion/answer?cut=6'), protocol: 'vocion' as const, scheduler: syncScheduler,
    resume: { strategy: 'vocion', conversationKey: key, storage: memoryStorage(), resumeUrl, maxRetries: 1, backoff: { baseMs: 1, sleep: async () => true } },
  })
  // Nothing listens on port 1: every reconnect is refused, so the run gives up after its one retry.
  const refusing = 'http://127.0.0.1:1/resume'

  it('giving up parks the run with its handle; retry() goes on in a new run to the end', async () => {
    const store = createAgentStore()
    const options = parkingOptions('parking', refusing)
    const client = new AgentClient(store, options)
    await client.send('go')
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>reconnecting', 'reconnecting>connecting', 'connecting>parked'])
    expect(store.getState().status).toBe('error')
    expect(client.busy).toBe(false)
    moves.length = 0
    client.setOptions({ ...options, resume: { ...options.resume, resumeUrl: url('/mock/resume/vocion/answer') } })
    await client.retry()
    expect(moves).toEqual(['idle>connecting', 'connecting>streaming', 'streaming>done'])
    expect(store.getState().status).toBe('done')
  })

  it('stop() on a parked run aborts it', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, parkingOptions('parking-stop', refusing))
    await client.send('go')
    expect(moves.at(-1)).toBe('connecting>parked')
    client.stop()
    expect(moves.at(-1)).toBe('parked>aborted')
    expect(store.getState().status).toBe('aborted')
  })
})
