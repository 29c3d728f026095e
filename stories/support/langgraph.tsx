/**
 * A LangGraph chat replayed from weft/testing's recordings of the real server:
 * a mock `fetch` answers the run request (`POST …/threads/:id/runs/stream`) with
 * a fixture, and a request that resumes an interrupt (`command.resume`) with the
 * recorded resume run. No server behind it, in `storybook dev` and a static build alike.
 */
import { useState } from 'react'
import { Chat, Composer, StatusBar, Transcript, WeftCallbacksProvider, type GateAnswer } from '../../src/components'
import type { AgentClientOptions } from '../../src/core/client'
import type { Gate } from '../../src/core/model/model'
import { useAgentStream } from '../../src/react'
import { fixtures } from '../../src/testing/fixtures'
import { mockFetch } from '../../src/testing/mock-fetch'
import { AgentProvider } from '../../src/umbrella/providers'
import { DemoTurn, HostLog, useHostLog } from './demo'

/** The shipped LangGraph recordings, by name. */
export type LangGraphScenario = keyof typeof fixtures.langgraph

/** Props of `LangGraphChat`. */
export interface LangGraphChatProps {
  /** The recording the run request gets. */
  scenario: LangGraphScenario
  /** What the composer starts with (the question the recording answered). */
  prompt: string
  /** Milliseconds per frame. */
  pace?: number
}

/** Where the chat's runs go; only the mock fetch knows it. */
export const LANGGRAPH_RUNS = '/langgraph/threads/thread-1/runs/stream'

/**
 * A LangGraph thread in the kit's `Chat`, beside what the host sent: the run
 * request streams the scenario; an interrupt's answer goes as `Command({ resume })`
 * and streams the recorded resume run.
 */
export function LangGraphChat({ scenario, prompt, pace = 15 }: LangGraphChatProps) {
  const log = useHostLog()
  const [defaults] = useState<Partial<AgentClientOptions>>(() => ({
    fetch: mockFetch([{
      method: 'POST',
      url: LANGGRAPH_RUNS,
      stream: { pace },
      answer: async (request) => {
        const body = (await request.clone().json()) as { command?: { resume?: unknown } }
        log.add(body.command ? `resume ${JSON.stringify(body.command.resume)}` : 'run')
        return body.command ? fixtures.langgraph['approval-resume'] : fixtures.langgraph[scenario]
      },
    }]) as typeof fetch,
  }))
  return (
    <AgentProvider clientDefaults={defaults}>
      <LangGraphChatInner prompt={prompt} entries={log.entries} />
    </AgentProvider>
  )
}

function LangGraphChatInner({ prompt, entries }: { prompt: string; entries: readonly string[] }) {
  const chat = useAgentStream({ url: LANGGRAPH_RUNS, protocol: 'langgraph' })
  // The approval graph reads `{ approved }` from the value it resumes with; an answer in words approves.
  const onGateAnswer = (gate: Gate, answer: GateAnswer) => void chat.answer(gate.id, { approved: answer !== 'rejected' })
  return (
    <WeftCallbacksProvider onGateAnswer={onGateAnswer}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'flex-start' }}>
        <div style={{ flex: '3 1 22rem', minWidth: 0, height: 'min(42rem, calc(100vh - 2rem))' }}>
          <Chat
            footer={(
              <>
                <Composer send={chat.send} stop={chat.stop} defaultValue={prompt} placeholder="Ask the LangGraph agent" />
                <StatusBar onRetry={() => void chat.send(prompt)} />
              </>
            )}
          >
            <Transcript.Root>{(id) => <DemoTurn turnId={id} />}</Transcript.Root>
          </Chat>
        </div>
        <div style={{ flex: '2 1 16rem', minWidth: 0 }}>
          <HostLog entries={entries} />
        </div>
      </div>
    </WeftCallbacksProvider>
  )
}
