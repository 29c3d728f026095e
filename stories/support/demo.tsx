/**
 * Building blocks shared by the stories: a chat wired to the embedded mock
 * agent server, a provider over a store built from ops, and a host-side log
 * that shows what the kit handed to the host's callbacks.
 */
import '../../src/components/styles.css'
import { useCallback, useState, type ReactNode } from 'react'
import {
  Chat, Composer, Gates, MessageActions, Sources, StateInspector, StatusBar, Suggestions, Trace, Transcript, TurnError,
  WeftCallbacksProvider, type GateAnswer, type Recommendation,
} from '../../src/components'
import type { NavigationParams } from '../../src/protocols/ag-ui/navigation'
import type { Gate, ProtocolName } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { useAgentSelector, useAgentStore, useAgentStream } from '../../src/react'
import { AgentProvider } from '../../src/umbrella/providers'

/** A store with these ops folded in, made once per mount. */
export function useStaticStore(ops: readonly Op[]): AgentStore {
  const [store] = useState(() => {
    const made = createAgentStore()
    made.getState().dispatch(ops)
    return made
  })
  return store
}

/** A provider over a store built from `ops`. */
export function StaticAgent({ ops, children }: { ops: readonly Op[]; children: ReactNode }) {
  const store = useStaticStore(ops)
  return <AgentProvider store={store}>{children}</AgentProvider>
}

/** What the host received from the kit's buttons, newest last. */
export function useHostLog() {
  const [entries, setEntries] = useState<string[]>([])
  const add = useCallback((entry: string) => setEntries((list) => [...list, entry]), [])
  return { entries, add }
}

/** Shows the host log (stories assert on it). */
export function HostLog({ entries }: { entries: readonly string[] }) {
  return (
    <section aria-label="Host callbacks" style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}>
      <strong>Host received</strong>
      <ol data-testid="host-log">
        {entries.map((entry, i) => <li key={i}>{entry}</li>)}
      </ol>
    </section>
  )
}

/**
 * Host callbacks that only record what they receive; a gate answer is also
 * resolved in the store, as a host that resumes the agent would do.
 */
export function RecordingCallbacks({ children, onEntry }: { children: ReactNode; onEntry: (entry: string) => void }) {
  const store = useAgentStore()
  return (
    <WeftCallbacksProvider
      onAction={(rec: Recommendation) => onEntry(`action ${String(rec.actionId)}`)}
      onNavigate={(path: string, params: NavigationParams) => onEntry(`navigate ${path} ${JSON.stringify(params)}`)}
      onSuggest={(text: string) => onEntry(`suggest ${text}`)}
      onFeedback={(turnId: string, rating: 'up' | 'down' | undefined) => onEntry(`feedback ${turnId} ${rating ?? 'cleared'}`)}
      onGateAnswer={(gate: Gate, answer: GateAnswer) => {
        onEntry(`gate ${gate.kind} ${answer}`)
        store.getState().dispatch([{ op: 'gate.resolve', gateId: gate.id, status: answer }])
      }}
    >
      {children}
    </WeftCallbacksProvider>
  )
}

/** One turn as the demos show it: the headline, the timeline folded away, the content, the rest and the action bar. */
export function DemoTurn({ turnId }: { turnId: string }) {
  const role = useAgentSelector((s) => s.turns[turnId]?.role)
  return (
    <Transcript.Turn turnId={turnId}>
      {role === 'assistant' && <Trace.Disclosure data-testid="turn-trace" />}
      <Transcript.Content />
      <Gates />
      <Sources />
      <Suggestions />
      <TurnError />
      {role === 'assistant' && <MessageActions />}
    </Transcript.Turn>
  )
}

/** Props of `ScenarioChat`. */
export interface ScenarioChatProps {
  protocol: ProtocolName
  /** A scenario name under `mock/scenarios/<protocol>.ts`. */
  scenario: string
  /** Per-frame delay of the mock server, in milliseconds. */
  delay?: number
  /** What the composer starts with. */
  prompt?: string
}

/**
 * A whole chat against the mock agent server, as a product would lay it out:
 * the kit's `Chat` (a scrolling column that follows the answer, Jump to latest,
 * the composer and status bar docked below), an action bar under each answer,
 * and beside it what the host received and the state inspector. The theme
 * comes from the toolbar (`data-theme`).
 */
export function ScenarioChat(props: ScenarioChatProps) {
  return (
    <AgentProvider>
      <ScenarioChatInner {...props} />
    </AgentProvider>
  )
}

function ScenarioChatInner({ protocol, scenario, delay = 30, prompt = 'Hello' }: ScenarioChatProps) {
  const { send, stop } = useAgentStream({ url: `/mock/stream/${protocol}/${scenario}?delay=${delay}`, protocol })
  const log = useHostLog()
  return (
    <RecordingCallbacks onEntry={log.add}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 24, alignItems: 'flex-start' }}>
        <div style={{ flex: '3 1 22rem', minWidth: 0, height: 'min(42rem, calc(100vh - 2rem))' }}>
          <Chat
            footer={(
              <>
                <Composer send={send} stop={stop} defaultValue={prompt} placeholder="Ask the mock agent" />
                <StatusBar onRetry={() => void send(prompt)} />
              </>
            )}
          >
            <Transcript.Root>{(id) => <DemoTurn turnId={id} />}</Transcript.Root>
          </Chat>
        </div>
        <div style={{ flex: '2 1 16rem', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 12 }}>
          <HostLog entries={log.entries} />
          <StateInspector open={false} />
        </div>
      </div>
    </RecordingCallbacks>
  )
}
