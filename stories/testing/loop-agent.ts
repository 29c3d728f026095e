/**
 * The conversation loop stories' agent: the scripted loop agent (`mock/loop-agent.ts`)
 * served by weft/testing/msw's `agentHandlers({ reply })`, so Mock Service Worker
 * answers `POST /api/loop/<protocol>` and approve → continue, a client tool,
 * regenerate and edit stream with no server behind them, in `storybook dev` and in
 * a static `build-storybook` alike.
 */
import type { HttpHandler } from 'msw'
import { agentHandlers } from '../../src/testing/msw'
import { bodyOf, loopAgent, type LoopProtocol } from '../../mock/loop-agent'

export type { LoopProtocol }

/** Where the loop agent lives; no server knows this path, only the service worker. */
export const LOOP_URL = '/api/loop'
/** Where a Vocion gate's answer goes (the gate's `resumeUrl`). */
export const VOCION_GATE_URL = `${LOOP_URL}/vocion/resume`

const agent = loopAgent(VOCION_GATE_URL)

/**
 * The loop agent's MSW handlers for one protocol (Vocion's gate route included),
 * at `pace` milliseconds a frame.
 */
export function loopHandlers(protocol: LoopProtocol, pace = 20): HttpHandler[] {
  const reply = agent.reply[protocol]
  return [
    ...(protocol === 'vocion' ? agentHandlers({ url: VOCION_GATE_URL, protocol, pace, reply: ({ body }) => agent.vocionResume(bodyOf(body)) }) : []),
    ...agentHandlers({ url: `${LOOP_URL}/${protocol}`, protocol, pace, reply: ({ body }) => reply(bodyOf(body)) }),
  ]
}

/** All four protocols' loop agents, for a story's `parameters.msw.handlers`. */
export const allLoopHandlers: HttpHandler[] = (Object.keys(agent.reply) as LoopProtocol[]).flatMap((protocol) => loopHandlers(protocol))
