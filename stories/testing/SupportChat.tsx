/**
 * A host's own chat component, as an app built on weft writes one: its markup,
 * weft's hooks underneath. The weft/testing stories show it under the decorator
 * and under MSW.
 */
import { useState } from 'react'
import { useAgentStream, useGates, useMessage, useStatus, useTurn, useTurnIds } from '../../src/react'

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
}

/** Ask a question, read the answer. */
export function SupportChat({ endpoint = '/api/support/chat' }: SupportChatProps) {
  const [question, setQuestion] = useState('Is the release ready?')
  const { send } = useAgentStream({ url: endpoint })
  const status = useStatus()
  const turnIds = useTurnIds()
  return (
    <section aria-label="Support chat" style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 560 }}>
      <ol>{turnIds.map((id) => <Turn key={id} id={id} />)}</ol>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void send(question)
        }}
      >
        <label>
          Question <input value={question} onChange={(event) => setQuestion(event.target.value)} />
        </label>
        <button type="submit" disabled={status === 'connecting' || status === 'streaming'}>Ask</button>
      </form>
      <output data-testid="status">{status}</output>
    </section>
  )
}
