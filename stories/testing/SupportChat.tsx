/**
 * A host's own chat component, written the way an app built on weft writes one:
 * its markup, its request body, weft's hooks underneath. The weft/testing
 * stories show it under the decorator and under MSW, and the host-style tests
 * (jsdom, Chromium) render this same module with `weft/testing` only.
 */
import { useState } from 'react'
import { useAgentStream, useGates, useMessage, useStatus, useTurn, useTurnIds } from 'weft/react'

function Text({ id }: { id: string }) {
  const message = useMessage(id)
  if (!message || message.type !== 'text') return null
  return <p data-role={message.role}>{String(message.props.content ?? '')}</p>
}

function Turn({ id }: { id: string }) {
  const turn = useTurn(id)
  const gates = useGates(id)
  if (!turn) return null
  return (
    <li data-testid={`turn-${turn.role}`} data-status={turn.status}>
      {turn.messageIds.map((m) => <Text key={m} id={m} />)}
      {gates.map((g) => <p key={g.id} data-testid="gate">Needs approval: {g.question}</p>)}
      {turn.error && <p role="alert">Something went wrong: {turn.error.message}</p>}
    </li>
  )
}

/** Props of `SupportChat`. */
export interface SupportChatProps {
  /** Where the host's agent lives. */
  endpoint?: string
  /** What the question box holds at first (stories prefill it so a click asks). */
  initialQuestion?: string
}

/** What a host ships: ask a question, read the answer, see an error. */
export function SupportChat({ endpoint = '/api/support/chat', initialQuestion = '' }: SupportChatProps) {
  const [question, setQuestion] = useState(initialQuestion)
  const { send } = useAgentStream({ url: endpoint, body: (input) => ({ question: typeof input === 'string' ? input : input?.text, locale: 'en-GB' }) })
  const status = useStatus()
  const turnIds = useTurnIds()
  const busy = status === 'connecting' || status === 'streaming'
  return (
    <section aria-label="Support chat" style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 560 }}>
      <ol>{turnIds.map((id) => <Turn key={id} id={id} />)}</ol>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void send(question)
          setQuestion('')
        }}
      >
        <label>
          Question
          <input value={question} onChange={(event) => setQuestion(event.target.value)} />
        </label>
        <button type="submit" disabled={busy}>Ask</button>
      </form>
      <output data-testid="status">{status}</output>
    </section>
  )
}
