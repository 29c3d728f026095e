/**
 * weft/testing/storybook: a decorator that puts a story under an agent provider
 * whose requests stream a fixture, controls to pick the stream, and a play
 * helper that waits for the turn to end.
 */
import { useEffect, useState, type ComponentType, type ReactElement } from 'react'
import type { AgentClientOptions } from '../core/client'
import type { StreamStatus } from '../core/model'
import { memoryStorage } from '../core/resume/storage'
import { createAgentStore, type AgentStore } from '../core/store'
import { AgentProvider } from '../react/provider'
import { fixtures, getFixture, situations } from './fixtures'
import type { AgentFixture, FixtureProtocol } from './frames'
import { mockFetch, type RouteAnswer } from './mock-fetch'
import { BUILT_IN_PROTOCOLS, isBuiltInProtocol } from './protocols'
import { RESUME_STRATEGY, resumeReply } from './resume-replies'
import { streamResponse, type Pace } from './stream-response'

/**
 * What `withAgent` streams. Each field is also a story arg (`agentScenario`,
 * `agentProtocol`, `agentPace`, `agentDropAt`, `agentResume`, `agentTheme`), so the controls change it.
 *
 * @example
 * const options: WithAgentOptions = { protocol: 'vocion', scenario: 'hitl', pace: 30 }
 */
export interface WithAgentOptions {
  /** A shipped fixture's name, or a fixture of the host's own. Default `plain`. */
  scenario?: string | AgentFixture
  /** Default `vocion` (or the fixture's own). */
  protocol?: FixtureProtocol
  /** Milliseconds per frame, `tokens`, `recorded` or `instant`. Default 30. */
  pace?: Pace
  /** Drop the connection after this many frames (0 or less: never). */
  dropAt?: number
  /**
   * After a drop, reconnect the protocol's way and get the rest (default true):
   * Vocion's `id`/`after`, Yao's `since`, the AI SDK's replay, AG-UI's `Last-Event-ID`.
   * False: the turn ends in the network error.
   */
  resume?: boolean
  /** Sets `data-theme` and `color-scheme` on the wrapper. */
  theme?: 'light' | 'dark'
  /** More client defaults for the hooks below. */
  clientDefaults?: Partial<AgentClientOptions>
}

/** The story args the decorator reads, all optional. */
export interface AgentArgs {
  agentScenario?: string
  agentProtocol?: FixtureProtocol
  agentPace?: number | 'tokens' | 'instant' | 'recorded'
  agentDropAt?: number
  agentResume?: boolean
  agentTheme?: 'light' | 'dark'
}

/**
 * Controls for the decorator's args: a scenario picker (every shipped fixture), the
 * protocol, the pace, a "drop the connection at k" slider and whether the client
 * resumes after the drop.
 *
 * @example
 * const meta = { component: Chat, decorators: [withAgent()], argTypes: agentArgTypes }
 */
export const agentArgTypes = {
  agentScenario: {
    name: 'Scenario',
    control: 'select',
    options: [...new Set(Object.values(fixtures).flatMap((byName) => Object.keys(byName)))].sort(),
    description: 'A shipped fixture of the chosen protocol',
    table: { category: 'Agent stream' },
  },
  agentProtocol: { name: 'Protocol', control: 'inline-radio', options: BUILT_IN_PROTOCOLS, table: { category: 'Agent stream' } },
  agentPace: { name: 'Pace (ms per frame)', control: { type: 'range', min: 0, max: 300, step: 10 }, table: { category: 'Agent stream' } },
  agentDropAt: {
    name: 'Drop the connection at frame',
    control: { type: 'range', min: 0, max: 60, step: 1 },
    description: '0: never',
    table: { category: 'Agent stream' },
  },
  agentResume: {
    name: 'Resume after the drop',
    control: 'boolean',
    description: 'Reconnect the protocol\'s way and get the rest of the stream',
    table: { category: 'Agent stream' },
  },
  agentTheme: { name: 'Theme', control: 'inline-radio', options: ['light', 'dark'], table: { category: 'Agent stream' } },
} as const

/** A Storybook decorator, typed structurally so no Storybook import is needed. */
export type AgentDecorator = (Story: ComponentType, context: { args: Record<string, unknown> }) => ReactElement

/**
 * Wraps a story in an `AgentProvider` whose hooks stream a fixture through a mock
 * `fetch` (no server, no service worker needed). Story args override the options,
 * and any change starts a fresh store.
 *
 * @example
 * export default {
 *   component: SupportChat,
 *   decorators: [withAgent({ protocol: 'ui-message', scenario: 'reasoning', pace: 'tokens' })],
 *   argTypes: agentArgTypes,
 * }
 */
export function withAgent(options: WithAgentOptions = {}): AgentDecorator {
  return function AgentDecoratorView(Story, context) {
    const args = context.args as AgentArgs
    const scenario = args.agentScenario ?? options.scenario ?? 'plain'
    const protocol = args.agentProtocol ?? options.protocol ?? (typeof scenario === 'object' ? scenario.protocol : 'vocion')
    const pace = args.agentPace ?? options.pace ?? 30
    const dropAt = args.agentDropAt ?? options.dropAt ?? 0
    const resume = args.agentResume ?? options.resume ?? true
    const theme = args.agentTheme ?? options.theme
    const key = `${typeof scenario === 'object' ? `${scenario.protocol}/${scenario.name}` : scenario}|${protocol}|${pace}|${dropAt}|${resume}`
    return (
      <AgentStage key={key} fixture={resolve(scenario, protocol)} pace={pace} dropAt={dropAt} resume={resume} theme={theme} clientDefaults={options.clientDefaults}>
        <Story />
      </AgentStage>
    )
  }
}

function resolve(scenario: string | AgentFixture, protocol: FixtureProtocol): AgentFixture {
  if (typeof scenario === 'object') return scenario
  // Only the built-in protocols have shipped scenarios: another one throws the typed error that says so.
  if (!isBuiltInProtocol(protocol)) return getFixture(protocol, scenario)
  // A scenario this protocol lacks falls back to its plain answer, so switching protocols never breaks the story.
  const byName: Record<string, AgentFixture> = fixtures[protocol]
  return Object.hasOwn(byName, scenario) ? byName[scenario]! : getFixture(protocol, situations.plain[protocol] ?? 'plain')
}

interface StageProps {
  fixture: AgentFixture
  pace: Pace
  dropAt: number
  resume: boolean
  theme?: 'light' | 'dark'
  clientDefaults?: Partial<AgentClientOptions>
  children: ReactElement
}

/** Where a stage's client reconnects; each protocol's strategy adds its own query, path or header. */
const RESUME_URL = '/__weft-agent/resume'
let stages = 0

function AgentStage({ fixture, pace, dropAt, resume, theme, clientDefaults, children }: StageProps) {
  const [store] = useState<AgentStore>(() => createAgentStore())
  const [requests, setRequests] = useState(0)
  const [defaults] = useState<Partial<AgentClientOptions>>(() => {
    // The first connection drops at `dropAt`; a reconnect gets the rest as the protocol's server sends it.
    const answer: RouteAnswer = (request, { signal }) => {
      setRequests((n) => n + 1)
      return new URL(request.url).pathname.startsWith(RESUME_URL) || request.headers.has('last-event-id')
        ? resumeReply(fixture, request, { pace, signal })
        : streamResponse(fixture, { pace, signal, ...(dropAt > 0 ? { cutAt: dropAt } : {}) })
    }
    return {
      fetch: mockFetch([{ url: /.*/, answer }]) as typeof fetch,
      protocol: fixture.protocol,
      ...(dropAt > 0 && resume
        ? {
            resume: {
              // A host protocol's fixture resumes the standard SSE way, by Last-Event-ID (its frames need ids).
              strategy: isBuiltInProtocol(fixture.protocol) ? RESUME_STRATEGY[fixture.protocol] : 'sse',
              conversationKey: `weft-agent-stage-${++stages}`,
              resumeUrl: RESUME_URL,
              storage: memoryStorage(),
              backoff: { baseMs: 20, maxMs: 200 },
            },
          }
        : {}),
      ...clientDefaults,
    }
  })
  const { status, ended } = useStoreProgress(store)
  return (
    <div
      data-weft-agent-stage=""
      data-status={status}
      data-turns-ended={ended}
      data-requests={requests}
      data-scenario={`${fixture.protocol}/${fixture.name}`}
      {...(theme ? { 'data-theme': theme, style: { colorScheme: theme } } : {})}
    >
      <AgentProvider store={store} clientDefaults={defaults}>
        {children}
      </AgentProvider>
    </div>
  )
}

/** The stream's status, and how many assistant turns have ended. */
function useStoreProgress(store: AgentStore): { status: StreamStatus; ended: number } {
  const read = () => {
    const state = store.getState()
    const ended = state.turnIds.filter((id) => state.turns[id]?.role === 'assistant' && state.turns[id]?.status !== 'streaming').length
    return { status: state.status, ended }
  }
  const [progress, setProgress] = useState(read)
  useEffect(() => store.subscribe(() => setProgress(read())), [store])
  return progress
}

const RUNNING: ReadonlySet<string> = new Set(['connecting', 'streaming', 'reconnecting'])
/** How many turn ends each stage has reported, so every call waits for a new one. */
const reportedEnds = new WeakMap<Element, number>()

/**
 * For a `play` function: resolves with the final status once the story's next
 * turn has ended (`done`, `error` or `aborted`); each call waits for a new end.
 * Watches the DOM, never sleeps.
 *
 * @example
 * play: async ({ canvasElement, canvas, userEvent }) => {
 *   await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
 *   expect(await agentTurnEnd(canvasElement)).toBe('done')
 * }
 */
export function agentTurnEnd(canvasElement: Element, { timeoutMs = 10_000 }: { timeoutMs?: number } = {}): Promise<StreamStatus> {
  const stage = canvasElement.querySelector('[data-weft-agent-stage]') ?? canvasElement.closest('[data-weft-agent-stage]')
  if (!stage) return Promise.reject(new Error('weft/testing: no withAgent decorator around this story'))
  const current = () => stage.getAttribute('data-status') ?? 'idle'
  const ended = () => Number(stage.getAttribute('data-turns-ended') ?? 0)
  const fresh = () => ended() > (reportedEnds.get(stage) ?? 0) && !RUNNING.has(current())
  const settle = () => {
    reportedEnds.set(stage, ended())
    return current() as StreamStatus
  }
  if (fresh()) return Promise.resolve(settle())
  return new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (!fresh()) return
      observer.disconnect()
      clearTimeout(timer)
      resolve(settle())
    })
    const timer = setTimeout(() => {
      observer.disconnect()
      reject(new Error(`weft/testing: no turn of the story ended within ${timeoutMs} ms (status: ${current()})`))
    }, timeoutMs)
    observer.observe(stage, { attributes: true, attributeFilter: ['data-status', 'data-turns-ended'] })
  })
}
