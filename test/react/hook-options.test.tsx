/**
 * Hook options reach the client only when a render commits: a render React
 * throws away (a transition that suspends, a render an error boundary catches,
 * StrictMode's second pass) leaves the client's options as they were, and the
 * options of the committed render are the ones the next send uses (checked on
 * the requests a real loopback server receives).
 */
import { act, cleanup, render } from '@testing-library/react'
import { Component, StrictMode, Suspense, startTransition, type ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AgentClient } from '../../src/core/client'
import { createAgentStore } from '../../src/core/store/store'
import { builtInProtocols } from '../../src/protocols/index'
import { useStoreClient } from '../../src/react/use-store-client'
import { startServer, type TestServer } from '../helpers/server'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(() => srv.close())
afterEach(() => cleanup())

const store = createAgentStore()
const path = (name: string) => `/mock/stream/vocion/plain?probe=${name}`
let client: AgentClient | undefined

/** A promise a render suspends on until it is opened. */
interface Gate {
  open: boolean
  promise: Promise<void>
  release(): void
}
function gate(): Gate {
  let release = () => {}
  const g: Gate = { open: false, promise: new Promise<void>((resolve) => (release = resolve)), release: () => {
    g.open = true
    release()
  } }
  return g
}

/** Uses the hook with `url`, then (when asked) suspends on `wait` or throws. */
function Probe({ url, wait, fail }: { url: string; wait?: Gate; fail?: boolean }) {
  client = useStoreClient(store, { url: srv.url + url, protocol: 'vocion', protocols: builtInProtocols })
  if (wait && !wait.open) throw wait.promise
  if (fail) throw new Error('this render is thrown away')
  return <p>{url}</p>
}

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? <p>failed</p> : this.props.children
  }
}

async function sendAndPath(): Promise<string> {
  const before = srv.requests.length
  await client!.send('hi')
  return srv.requests.slice(before).map((r) => r.path).join(',')
}

const tree = (probe: ReactNode) => (
  <StrictMode>
    <Boundary>
      <Suspense fallback={<p>waiting</p>}>{probe}</Suspense>
    </Boundary>
  </StrictMode>
)

describe('hook options are applied when a render commits', () => {
  it('a transition that suspends keeps the old options until it commits', async () => {
    const view = render(tree(<Probe url={path('a')} />))
    expect(client!.currentOptions.url).toBe(srv.url + path('a'))

    const wait = gate()
    act(() => startTransition(() => view.rerender(tree(<Probe url={path('b')} wait={wait} />))))
    // React rendered the hook with b, then threw that render away: a is still what the UI shows and what is sent.
    expect(view.getByText(path('a'))).toBeTruthy()
    expect(client!.currentOptions.url).toBe(srv.url + path('a'))
    expect(await sendAndPath()).toBe(path('a'))

    await act(async () => {
      wait.release()
      await wait.promise
    })
    expect(view.getByText(path('b'))).toBeTruthy()
    expect(client!.currentOptions.url).toBe(srv.url + path('b'))
    expect(await sendAndPath()).toBe(path('b'))
  })

  it('a render an error boundary catches changes nothing', async () => {
    const view = render(tree(<Probe url={path('c')} />))
    expect(client!.currentOptions.url).toBe(srv.url + path('c'))
    act(() => view.rerender(tree(<Probe url={path('d')} fail />)))
    expect(view.getByText('failed')).toBeTruthy()
    expect(client!.currentOptions.url).toBe(srv.url + path('c'))
    expect(await sendAndPath()).toBe(path('c'))
  })
})
