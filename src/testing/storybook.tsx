/**
 * weft/testing/storybook: a decorator that puts a story under an agent provider
 * whose requests stream a fixture, controls to pick the stream, and a play
 * helper that waits for the turn to end.
 */
import { useEffect, useState, type ComponentType, type ReactElement } from 'react'
import type { AgentClientOptions } from '../core/client'
import type { StreamStatus } from '../core/model/model'
import { memoryStorage } from '../core/resume/storage'
import { createAgentStore, type AgentStore } from '../core/store/store'
import type { ProtocolDefinition } from '../core/protocol/types'
import { AgentProvider } from '../umbrella/providers'
import { fixtures, situations } from './fixtures'
import { getFixture } from './get-fixture'
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
  /** The protocols the story's hooks speak (default: the built-ins); a host protocol's fixture needs its definition here. */
  protocols?: readonly ProtocolDefinition[]
  /** Milliseconds per frame, `tokens`, `recorded` or `instant`. Default 30. */
  pace?: Pace
  /** Drop the connection after this many frames (0 or less: never). */
  dropAt?: number
  /**
   * After a drop, reconnect the protocol's way and get the rest (default true):
   * Vocion's `id`/`after`, Yao's `since`, the AI SDK's replay, AG-UI's `Last-Event-ID`,
   * LangGraph's rejoin of the run by `Last-Event-ID`.
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

/** The fixed paces the pace control offers besides the token rhythm, the recorded timing and instant. */
const FIXED_PACES = [10, 20, 30, 50, 100, 200, 300] as const

/**
 * Controls for the decorator's args: a scenario picker (every shipped fixture), the
 * protocol, the pace (the realistic token rhythm, the recorded timing, instant, or
 * a fixed wait per frame), a "drop the connection at k" slider and whether the
 * client resumes after the drop.
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
  agentPace: {
    name: 'Pace',
    control: {
      type: 'select',
      labels: {
        tokens: 'Token rhythm (a first-token wait, then by frame size)',
        recorded: 'As recorded (each frame’s own wait)',
        instant: 'Instant',
        ...Object.fromEntries(FIXED_PACES.map((ms) => [ms, `${ms} ms per frame`])),
      },
    },
    options: ['tokens', 'recorded', 'instant', ...FIXED_PACES],
    description: 'How fast frames arrive: a model’s token rhythm, the recording’s own timing, or a fixed wait per frame',
    table: { category: 'Agent stream' },
  },
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
 * and any change starts a fresh store. What the controls ask for but cannot happen
 * shows above the story as a note (`role="note"`, `data-weft-agent-note`): a
 * scenario the protocol lacks (its plain answer plays instead), a host protocol
 * with no shipped fixtures (nothing plays; requests fail with the note's words), a
 * drop past the last frame, a resume with nothing to resume from.
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
    const { fixture, note } = resolve(scenario, protocol)
    return (
      <AgentStage key={key} fixture={fixture} note={note} pace={pace} dropAt={dropAt} resume={resume} theme={theme} clientDefaults={options.clientDefaults} protocols={options.protocols}>
        <Story />
      </AgentStage>
    )
  }
}

/** The fixture a scenario names for a protocol, and what the story should say when it is not that. */
function resolve(scenario: string | AgentFixture, protocol: FixtureProtocol): { fixture?: AgentFixture; note?: string } {
  if (typeof scenario === 'object') return { fixture: scenario }
  if (!isBuiltInProtocol(protocol)) {
    return { note: `weft/testing ships no fixtures for the protocol “${protocol}”, so “${scenario}” cannot play: pass a fixture of your own as the scenario.` }
  }
  const byName: Record<string, AgentFixture> = fixtures[protocol]
  if (Object.hasOwn(byName, scenario)) return { fixture: byName[scenario]! }
  // A scenario this protocol lacks plays its plain answer, so switching protocols never breaks the story, and says so.
  const plain = situations.plain[protocol] ?? 'plain'
  return {
    fixture: getFixture(protocol, plain),
    note: `${protocol} has no “${scenario}” scenario, so its plain answer (${plain}) plays instead. ${protocol} has: ${Object.keys(byName).join(', ')}.`,
  }
}

/** Why the drop or the resume the controls ask for does not happen as asked, if it does not. */
function dropNote(fixture: AgentFixture, dropAt: number, resume: boolean): string | undefined {
  if (dropAt <= 0) return undefined
  if (dropAt >= fixture.frames.length) return `The scenario has ${fixture.frames.length} frames, so the connection never drops at frame ${dropAt}.`
  if (resume && !isBuiltInProtocol(fixture.protocol) && !fixture.frames.some((frame) => frame.id !== undefined)) {
    return `The connection drops at frame ${dropAt}; “${fixture.protocol}” has no resume of its own here and its frames have no ids to resume from by Last-Event-ID, so the turn ends in the network error.`
  }
  return undefined
}

interface StageProps {
  fixture: AgentFixture | undefined
  note: string | undefined
  pace: Pace
  dropAt: number
  resume: boolean
  theme?: 'light' | 'dark'
  clientDefaults?: Partial<AgentClientOptions>
  protocols?: readonly ProtocolDefinition[]
  children: ReactElement
}

/** Where a stage's client reconnects; each protocol's strategy adds its own query, path or header. */
const RESUME_URL = '/__weft-agent/resume'
let stages = 0

function AgentStage({ fixture, note, pace, dropAt, resume, theme, clientDefaults, protocols, children }: StageProps) {
  const [store] = useState<AgentStore>(() => createAgentStore())
  const [requests, setRequests] = useState(0)
  const notes = [note, fixture ? dropNote(fixture, dropAt, resume) : undefined].filter((n): n is string => n !== undefined)
  const resumes = fixture !== undefined && dropAt > 0 && resume && (isBuiltInProtocol(fixture.protocol) || fixture.frames.some((frame) => frame.id !== undefined))
  const [defaults] = useState<Partial<AgentClientOptions>>(() => {
    // The first connection drops at `dropAt`; a reconnect gets the rest as the protocol's server sends it.
    const answer: RouteAnswer = (request, { signal }) => {
      setRequests((n) => n + 1)
      if (!fixture) return noFixture(note)
      return new URL(request.url).pathname.startsWith(RESUME_URL) || request.headers.has('last-event-id')
        ? resumeReply(fixture, request, { pace, signal })
        : streamResponse(fixture, { pace, signal, ...(dropAt > 0 ? { cutAt: dropAt } : {}) })
    }
    return {
      fetch: mockFetch([{ url: /.*/, answer }]) as typeof fetch,
      ...(fixture ? { protocol: fixture.protocol } : {}),
      ...(resumes
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
      data-scenario={fixture ? `${fixture.protocol}/${fixture.name}` : ''}
      data-pace={String(pace)}
      {...(theme ? { 'data-theme': theme, style: { colorScheme: theme } } : {})}
    >
      {notes.map((text) => (
        <p key={text} role="note" data-weft-agent-note="" style={NOTE_STYLE}>{text}</p>
      ))}
      <AgentProvider store={store} clientDefaults={defaults} protocols={protocols}>
        {children}
      </AgentProvider>
    </div>
  )
}

const NOTE_STYLE = { margin: '0 0 8px', padding: '4px 8px', border: '1px dashed currentColor', borderRadius: 4, fontSize: '0.875em' } as const

/** What a stage with nothing to play answers: an error the story's own UI shows, with the note's words. */
function noFixture(note: string | undefined): Response {
  return new Response(JSON.stringify({ error: 'no_fixture', message: note ?? 'weft/testing: no fixture to play' }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  })
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

// The types the decorator's options reach, so a story can name them from this entry too.
// The client's `StreamSource` is `ClientStreamSource`, as in `weft/testing`.
export type { Pace } from './stream-response'
export type { AgentFixture, BuiltInProtocol, FixtureFrame, FixtureProtocol } from './frames'
export type {
  AgentClientOptions, StreamTransport, TransportStream, TransportHooks, StreamEndReason, ResumeOptions, Scheduler, SendInput, StreamSourceContext, SourceBuildOptions,
  RequestBody, HttpRequest, StreamRequest, SSEFrame, AttachmentLimits, ClientTool,
  AgentState, AgentStore, AgentStoreState, Turn, Block, Thread, Message, TraceNode, Gate, Source,
  StreamStatus, TurnStatus, MessageStatus, TraceStatus, GateStatus, ProtocolName, SpanStatus, StreamCursor, TraceActor, ErrorType, WeftError,
  MessageTable, MessageBucket, TraceTable, Op, HydratedTurn, TurnFields, MessagePlace, DeltaAction,
  ProtocolDefinition, ProtocolInput, Decoder, DecoderFactory, DecodeContext, DetectInput, FrameMeta, DataPart, HistoryReader, HistoryReadContext, ProtocolViews,
  RequestBuilder, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration,
  ResumeStrategy, ResumeStrategyName, ResumeHandle, ResumeStorage, ResumeState, ResumeRequest, ResumeRequestContext,
  ReplayItem, ReplayFilter, EventIdentity, DedupeContext, LedgerView, HistoryContext, HistoryLoader, HistoryResult, BackoffOptions,
  StreamSourceCancelContext, StreamSource as ClientStreamSource,
  ContextEntry, JsonValue, QueuedMessage, RunTiming, TokenUsage, TurnTiming, UiTool, WhileRunning,
  ClientInspector, TapRequest, TapFrame, TapRunEnd, TapRequestKind, RunPhase,
} from '../core/index'
