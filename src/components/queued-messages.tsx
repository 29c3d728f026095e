/**
 * The messages a person sent while the agent ran, shown as pending under the
 * running turn until they go: each can be edited, removed, or sent now. They act
 * through the client that streams into the store (`editQueued`, `cancelQueued`,
 * `sendQueued`); a part whose action that client lacks is not drawn.
 */
import { createContext, forwardRef, useContext, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react'
import { messageIn } from '../core/model/message-table'
import type { AgentState, QueuedMessage } from '../core/model/model'
import { useActingClient } from '../react/client-slots'
import { useAgentSelector, useQueuedMessages } from '../react/selectors'
import { useAgentStore } from '../react/store-context'
import { own } from './format'
import { useLabels } from './labels'

/**
 * Props of `Queue.Root` (and of `QueuedMessages`).
 *
 * @example
 * const props: QueueRootProps = { 'aria-label': 'Waiting to send' }
 */
export interface QueueRootProps extends Omit<HTMLAttributes<HTMLUListElement>, 'children'> {
  /** Draws one queued message (default: `<Queue.Item message={message} />`). */
  children?: (message: QueuedMessage) => ReactNode
}

/**
 * The queue: a list (`data-weft="queue"`) of the messages waiting to be sent,
 * with `data-state` `waiting` while the agent runs (they go when the turn ends)
 * or `held` when nothing runs and they wait for the person (a stop or a failure
 * held them back: Send now sends them). Renders nothing while the queue is empty.
 *
 * @example
 * <Queue.Root>{(message) => <Queue.Item message={message} />}</Queue.Root>
 */
const Root = forwardRef<HTMLUListElement, QueueRootProps>(function QueueRoot({ children, ...rest }, ref) {
  const labels = useLabels()
  const queue = useQueuedMessages()
  const waiting = useAgentSelector(isRunning)
  if (queue.length === 0) return null
  return (
    <ul aria-label={labels.queuedMessages} {...rest} ref={ref} data-weft="queue" data-state={waiting ? 'waiting' : 'held'}>
      {queue.map((message) => (
        <QueueStateContext.Provider key={message.id} value={waiting}>
          {children ? children(message) : <Item message={message} />}
        </QueueStateContext.Provider>
      ))}
    </ul>
  )
})

const QueueStateContext = createContext(true)

/**
 * Props of `Queue.Item`.
 *
 * @example
 * <Queue.Item message={message} />
 */
export interface QueueItemProps extends Omit<HTMLAttributes<HTMLLIElement>, 'children'> {
  message: QueuedMessage
  children?: ReactNode
}

/**
 * One queued message (`data-weft="queue-item"`, `data-state` `queued` or
 * `editing`): its text, a note that it waits (or, when held, that it was not
 * sent), and Edit, Remove and Send now. Edit turns the text into a field:
 * Enter or Save keeps the change, Escape or Cancel drops it.
 *
 * @example
 * <Queue.Item message={message} />
 */
const Item = forwardRef<HTMLLIElement, QueueItemProps>(function QueueItem({ message, children, ...rest }, ref) {
  const labels = useLabels()
  const client = useActingClient(useAgentStore())
  const waiting = useContext(QueueStateContext)
  const [draft, setDraft] = useState<string | undefined>(undefined)
  const editing = draft !== undefined
  const save = () => {
    if (draft !== undefined && draft.trim() !== '') client?.editQueued?.(message.id, draft.trim())
    setDraft(undefined)
  }
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      save()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      setDraft(undefined)
    }
  }
  return (
    <li {...rest} ref={ref} data-weft="queue-item" data-state={editing ? 'editing' : 'queued'}>
      {editing ? (
        <textarea data-weft="queue-item-input" aria-label={labels.edit} value={draft} rows={2} autoFocus onChange={(event) => setDraft(event.target.value)} onKeyDown={keyDown} />
      ) : (
        <p data-weft="queue-item-text">
          {message.text}
          {message.files !== undefined && <span data-weft="queue-item-files"> {labels.queuedFiles(message.files)}</span>}
        </p>
      )}
      <span data-weft="queue-item-note">{waiting ? labels.queueWaiting : labels.queueHeld}</span>
      <span data-weft="queue-item-actions">
        {editing ? (
          <>
            <button type="button" data-weft="queue-item-save" onClick={save}>{labels.save}</button>
            <button type="button" data-weft="queue-item-discard" onClick={() => setDraft(undefined)}>{labels.cancelEdit}</button>
          </>
        ) : (
          <>
            {client?.editQueued && <button type="button" data-weft="queue-item-edit" onClick={() => setDraft(message.text)}>{labels.edit}</button>}
            {client?.cancelQueued && <button type="button" data-weft="queue-item-remove" onClick={() => client.cancelQueued?.(message.id)}>{labels.removeQueued}</button>}
            {client?.sendQueued && <button type="button" data-weft="queue-item-send" onClick={() => void client.sendQueued?.(message.id)}>{labels.sendNow}</button>}
          </>
        )}
      </span>
      {children}
    </li>
  )
})

/** The agent still runs: a request is open, or the latest answer waits for a gate or a client tool. */
function isRunning(s: AgentState): boolean {
  if (s.status === 'connecting' || s.status === 'streaming' || s.status === 'reconnecting') return true
  const last = own(s.turns, s.turnIds.at(-1) ?? '')
  if (last?.role !== 'assistant') return false
  if (last.gateIds.some((id) => own(s.gates, id)?.status === 'pending')) return true
  // A client tool still running keeps its call streaming after the stream ended.
  return last.messageIds.some((id) => messageIn(s.messages, id)?.status === 'streaming')
}

/**
 * The queue's parts: `Queue.Root` lists the queued messages, `Queue.Item` draws one.
 *
 * @example
 * <Queue.Root>{(message) => <Queue.Item message={message} />}</Queue.Root>
 */
export const Queue = { Root, Item } as const

/**
 * The queue as `Chat` and `Transcript.Root` draw it under the last turn:
 * `<Queue.Root />` with its default items.
 *
 * @example
 * <Transcript.Root queued={false} />
 * <QueuedMessages />
 */
export const QueuedMessages = Root
