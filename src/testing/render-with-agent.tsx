/**
 * Render a host's component under an agent provider for Testing Library: a
 * store per call, a synchronous scheduler, a mock `fetch`, and `finished()`.
 */
import { act, render, type RenderOptions, type RenderResult } from '@testing-library/react'
import type { ReactElement, ReactNode } from 'react'
import { syncScheduler } from '../core/store/batcher'
import type { AgentClientOptions } from '../core/client'
import type { AgentState } from '../core/model/model'
import type { Op } from '../core/model/ops'
import { createAgentStore, snapshot, type AgentStore } from '../core/store/store'
import type { ProtocolDefinition } from '../core/protocol/types'
import { AgentProvider } from '../umbrella/providers'
import type { FixtureProtocol } from './frames'
import { mockFetch, type MockFetch, type MockRoute, type RouteAnswer } from './mock-fetch'
import type { StreamResponseOptions } from './stream-response'
import { markTurnEndsSeen, waitForTurnEnd, type TurnEndOptions } from './turn-end'

/**
 * Options of `renderWithAgent`.
 *
 * @example
 * const options: RenderWithAgentOptions = { stream: fixtures.vocion.answer, streamOptions: { chunking: 'random', seed: 4 } }
 */
export interface RenderWithAgentOptions {
  /** Start from this state, or from these ops folded into an empty one. */
  state?: AgentState | readonly Op[]
  /** What every request the component makes is answered with (a fixture, bare events, a `Response` or a function). */
  stream?: RouteAnswer | readonly RouteAnswer[]
  /** Answer by method and URL instead (see `mockFetch`); `stream` is then the fallback for any other request. */
  routes?: Record<string, RouteAnswer | readonly RouteAnswer[]> | readonly MockRoute[]
  /** The protocol the hooks use unless the component names one (also the framing of bare events). */
  protocol?: FixtureProtocol
  /** The protocols the hooks speak (default: the built-ins); a host protocol needs its definition here. */
  protocols?: readonly ProtocolDefinition[]
  /** How fixtures are streamed: pace, chunking, seed, `cutAt`. Default: instant, one chunk per frame. */
  streamOptions?: StreamResponseOptions
  /** More client defaults for the hooks below (the component's own options still win). */
  clientDefaults?: Partial<AgentClientOptions>
  /** Passed to Testing Library's `render` (a `wrapper` sits inside the agent provider). */
  renderOptions?: Omit<RenderOptions, 'queries'>
}

/**
 * What `renderWithAgent` returns: Testing Library's result plus the agent's handles.
 *
 * @example
 * const { store, fetch, finished } = renderWithAgent(<Chat />, { stream: fixtures.yao['simple-text'] })
 */
export type AgentRenderResult = RenderResult & {
  /** This render's own store. */
  store: AgentStore
  /** The mock `fetch` every hook below uses; `fetch.calls` holds what was sent. */
  fetch: MockFetch
  /** The model now, without the store's functions. */
  state(): AgentState
  /** Apply ops to the store inside `act`. */
  dispatch(ops: readonly Op[]): void
  /** Resolves when the next turn has ended (each call waits for a new one) and React has rendered it. */
  finished(options?: TurnEndOptions): Promise<AgentState>
}

/**
 * Renders `ui` under an `AgentProvider` with its own store, a synchronous
 * scheduler and a mock `fetch`, so `useAgentStream` inside the host's component
 * talks to the fixture instead of a server. Uses only Testing Library and React:
 * it runs under Vitest (jsdom or browser mode) and Jest alike.
 *
 * @example
 * const { finished } = renderWithAgent(<Chat />, { stream: fixtures.vocion.answer })
 * await userEvent.click(screen.getByRole('button', { name: 'Send' }))
 * await finished()
 * expect(screen.getByText(/Contoso renews/)).toBeTruthy()
 */
export function renderWithAgent(ui: ReactElement, options: RenderWithAgentOptions = {}): AgentRenderResult {
  const store = createAgentStore(Array.isArray(options.state) ? {} : { initialState: options.state as AgentState | undefined })
  if (Array.isArray(options.state)) store.getState().dispatch(options.state as readonly Op[])
  // Turns the starting state already holds are not what `finished()` waits for.
  markTurnEndsSeen(store)

  const routes: MockRoute[] = options.routes
    ? Array.isArray(options.routes)
      ? [...(options.routes as readonly MockRoute[])]
      : Object.entries(options.routes as Record<string, RouteAnswer | readonly RouteAnswer[]>).map(([key, answer]) => routeOf(key, answer))
    : []
  if (options.stream !== undefined) routes.push({ url: /.*/, answer: options.stream })
  const streamDefaults: StreamResponseOptions = { ...(options.protocol ? { protocol: options.protocol } : {}), ...options.streamOptions }
  const fetch = mockFetch(routes, streamDefaults)

  const clientDefaults: Partial<AgentClientOptions> = {
    fetch: fetch as typeof globalThis.fetch,
    scheduler: syncScheduler,
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...options.clientDefaults,
  }
  const Outer = options.renderOptions?.wrapper
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <AgentProvider store={store} clientDefaults={clientDefaults} protocols={options.protocols}>
      {Outer ? <Outer>{children}</Outer> : children}
    </AgentProvider>
  )
  const result = render(ui, { ...options.renderOptions, wrapper: Wrapper })

  return Object.assign(result, {
    store,
    fetch,
    state: () => snapshot(store.getState()),
    dispatch(ops: readonly Op[]) {
      act(() => store.getState().dispatch(ops))
    },
    async finished(turnEnd?: TurnEndOptions) {
      let state: AgentState | undefined
      await act(async () => {
        state = await waitForTurnEnd(store, turnEnd)
      })
      return state!
    },
  })
}

function routeOf(key: string, answer: RouteAnswer | readonly RouteAnswer[]): MockRoute {
  const m = /^([A-Z]+)\s+(.+)$/.exec(key.trim())
  return m ? { method: m[1], url: m[2]!, answer } : { url: key.trim(), answer }
}
