/**
 * The resume machinery is a chunk of its own: a client loads it only when its
 * options resume, a client that does not resume works while it cannot be loaded
 * at all, one that does gets a typed error (never a rejection) when it fails to
 * load, and once it is loaded a send still opens its turn in the tick it is called.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtures } from '../../../src/testing/fixtures'
import { mockFetch } from '../../../src/testing/mock-fetch'

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src')
const BINDING = '../../../src/core/resume/binding'

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** A fresh module graph, so the loader's cache and the mock below apply. */
async function freshClient() {
  vi.resetModules()
  const { AgentClient } = await import('../../helpers/built-in-client')
  const { createAgentStore } = await import('../../../src/core/store/store')
  const { syncScheduler } = await import('../../../src/core/store/batcher')
  const { memoryStorage } = await import('../../../src/core/resume/storage')
  const { preloadResume } = await import('../../../src/core/resume/load-binding')
  return { AgentClient, createAgentStore, syncScheduler, memoryStorage, preloadResume }
}

afterEach(() => {
  vi.doUnmock(BINDING)
  vi.resetModules()
})

describe('loading the resume machinery', () => {
  it('no module imports it as a value: only the loader reaches it, and only through import()', () => {
    const valueImports = files(src).filter((file) =>
      /(?:^|\n)\s*import\s+(?!type\b)[^'"]*from\s+['"][^'"]*\/binding['"]/.test(readFileSync(file, 'utf8')),
    )
    expect(valueImports).toEqual([])
    expect(readFileSync(join(src, 'core/resume/load-binding.ts'), 'utf8')).toMatch(/import\('\.\/binding'\)/)
  })

  it('a client that does not resume streams while the machinery cannot be loaded', async () => {
    vi.doMock(BINDING, () => {
      throw new Error('the chunk is not there')
    })
    const { AgentClient, createAgentStore, syncScheduler } = await freshClient()
    const store = createAgentStore()
    const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain })
    const client = new AgentClient(store, { url: '/api/agent', protocol: 'vocion', fetch, scheduler: syncScheduler })
    await client.send('Hello')
    expect(store.getState().status).toBe('done')
    expect(store.getState().error).toBeUndefined()
    client.stop()
    expect(await client.attach()).toBe(false)
  })

  it('a resuming client whose machinery fails to load ends the send in a typed error and sends nothing', async () => {
    vi.doMock(BINDING, () => {
      throw new Error('the chunk is not there')
    })
    const { AgentClient, createAgentStore, syncScheduler, memoryStorage } = await freshClient()
    const store = createAgentStore()
    const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain })
    const storage = memoryStorage()
    const client = new AgentClient(store, {
      url: '/api/agent', protocol: 'vocion', fetch, scheduler: syncScheduler,
      resume: { conversationKey: 'chat-1', resumeUrl: '/api/agent/resume', storage },
    })
    const errors: unknown[] = []
    client.setOptions({ ...client.currentOptions, onError: (error) => errors.push(error) })
    await expect(client.send('Hello')).resolves.toBeUndefined()
    const failed = store.getState()
    expect(failed.status).toBe('error')
    expect(failed.error).toMatchObject({ type: 'network' })
    expect(failed.error?.message).toMatch(/^resume could not be loaded: \S/)
    expect(errors).toHaveLength(1)
    expect(fetch.calls).toHaveLength(0)
  })

  it('once loaded, a resuming send opens its turn in the tick it is called', async () => {
    const { AgentClient, createAgentStore, syncScheduler, memoryStorage, preloadResume } = await freshClient()
    const store = createAgentStore()
    const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain })
    const client = new AgentClient(store, {
      url: '/api/agent', protocol: 'vocion', fetch, scheduler: syncScheduler,
      resume: { conversationKey: 'chat-2', resumeUrl: '/api/agent/resume', storage: memoryStorage() },
    })
    await preloadResume()
    const sent = client.send('Hello')
    const opened = store.getState()
    expect(opened.turnIds).toHaveLength(2)
    expect(opened.status).toBe('connecting')
    await sent
    expect(store.getState().status).toBe('done')
  })
})
