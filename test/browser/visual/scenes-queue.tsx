/**
 * Screenshot scenes of the queue: two messages sent while the answer streams,
 * pending under it (one with a file), and the same queue held after the person
 * stopped the answer. A client is bound to the store so each shows its actions.
 */
import { Chat } from '../../../src/components/chat'
import { Composer } from '../../../src/components/composer'
import type { Op } from '../../../src/core/model/ops'
import { useAgentStream } from '../../../src/react/use-agent-stream'
import type { Scene } from './scenes'

const user = (id: string, content: string): Op[] => [
  { op: 'turn.open', turnId: id, role: 'user' },
  { op: 'message.put', turnId: id, messageId: `${id}/m`, role: 'user', type: 'text', status: 'done', props: { content } },
  { op: 'turn.finish', turnId: id, status: 'done' },
]

const streaming: Op[] = [
  ...user('u1', 'Plan three days in Lyon for two people.'),
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.delta', turnId: 'a1', messageId: 'a1/text', type: 'text', action: 'append', path: 'content', value: '**Day one.** Start in Vieux Lyon with a walk up to Fourvière, then lunch at a bouchon on' },
  { op: 'stream.status', status: 'streaming' },
  { op: 'queue.put', message: { id: 'q1', text: 'Make it two days, we leave on Sunday.' } },
  { op: 'queue.put', message: { id: 'q2', text: 'Here is our hotel booking.', files: 1 } },
]

const held: Op[] = [
  ...streaming.filter((op) => op.op !== 'stream.status'),
  { op: 'turn.finish', turnId: 'a1', status: 'aborted' },
  { op: 'stream.status', status: 'aborted' },
]

/** The chat with a client bound to the store, so the queue's actions are drawn; nothing is ever sent. */
function Live() {
  const { send, stop } = useAgentStream({ url: '/never', protocol: 'ui-message' })
  return <Chat footer={<Composer send={send} stop={stop} />} />
}

export const scenes: Scene[] = [
  { name: 'queue-waiting', ops: streaming, view: () => <Live /> },
  { name: 'queue-held', ops: held, view: () => <Live /> },
]
