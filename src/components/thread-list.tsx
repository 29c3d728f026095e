import { forwardRef, useEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react'
import type { ConversationSummary } from '../core/conversations/conversations'
import { isUntitled } from '../core/conversations/title'
import { useConversations } from '../react/conversations'
import { useRenderFailure } from '../react/conversations-boundary'
import { useLabels } from './labels'
import { useThreadLayout } from './thread-list-layout'

/**
 * Props of `ThreadList`.
 *
 * @example
 * <ThreadList undoMs={5000} newLabel="New conversation" className="sidebar" />
 */
export interface ThreadListProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** The label of the button that starts a conversation (default: the `newChat` label). */
  newLabel?: string
  /** How long the undo offer stays after a delete (ms, default 8000). */
  undoMs?: number
  /** The list's accessible name (default: the `conversations` label). */
  label?: string
  /**
   * Given an unreadable conversation's stored record as JSON text when a person
   * presses Export (default: the browser downloads it as `<id>.json`).
   */
  onExport?: (id: string, json: string) => void
}

interface Undo {
  id: string
  title: string
}

/**
 * The conversation sidebar: "New chat", the list (newest first, a dot on those
 * still answering, in the background too), rename in place, delete with undo.
 * A row says what needs a person: a conversation that cannot be read (Export
 * its record as JSON, or Delete it), one whose save failed (Retry, or Reload
 * saved to drop this tab's changes), one another tab changed (Load theirs, or
 * Keep mine to overwrite it), one that could not be shown.
 * Keyboard: one tab stop; arrows, Home and End move, Enter opens, F2 renames,
 * Delete deletes. Each row's `data-state` is `active` for the conversation
 * shown, else `inactive`; `data-status` is the conversation's (`idle`,
 * `loading`, `streaming`, `error`, `conflict`). Needs a `ConversationsProvider` above it.
 * `className`, `style`, the other DOM props and the ref go to its root `<nav>`.
 *
 * @example
 * <ConversationsProvider conversations={conversations}>
 *   <ThreadList />
 *   <Chat />
 * </ConversationsProvider>
 */
export const ThreadList = forwardRef<HTMLElement, ThreadListProps>(function ThreadList({ newLabel, undoMs = 8000, label: labelProp, onExport, ...rest }, ref) {
  const labels = useLabels()
  const label = labelProp ?? labels.conversations
  const { conversations, selectedId, create, select, rename, remove, restore, resolveConflict, retrySave, reloadStored, exportRaw } = useConversations()
  const renderFailure = useRenderFailure()
  // In a ThreadListLayout: the toggle names this list, and a choice closes its drawer.
  const layout = useThreadLayout()
  const choose = (id: string) => {
    layout?.close()
    return select(id)
  }
  // The core stores an untitled conversation's title in English; the person reads the label.
  const titleOf = (conversation: ConversationSummary) => (isUntitled(conversation.title) ? labels.untitled : conversation.title)
  const [focusId, setFocusId] = useState<string | undefined>(selectedId)
  const [editing, setEditing] = useState<string | undefined>()
  const [undo, setUndo] = useState<Undo | undefined>()
  const items = useRef(new Map<string, HTMLLIElement>())
  const wantFocus = useRef<string | undefined>(undefined)

  // The roving tab stop sits on the focused row, else the selected one, else the first.
  const stop = [focusId, selectedId].find((id) => id !== undefined && conversations.some((c) => c.id === id)) ?? conversations[0]?.id

  useEffect(() => {
    const id = wantFocus.current
    if (id === undefined) return
    wantFocus.current = undefined
    items.current.get(id)?.focus()
  })

  useEffect(() => {
    if (!undo) return
    const timer = setTimeout(() => setUndo(undefined), undoMs)
    return () => clearTimeout(timer)
  }, [undo, undoMs])

  const moveTo = (id: string | undefined) => {
    if (id === undefined) return
    setFocusId(id)
    wantFocus.current = id
  }

  const onRemove = async (conversation: ConversationSummary) => {
    const index = conversations.findIndex((c) => c.id === conversation.id)
    const neighbour = conversations[index + 1] ?? conversations[index - 1]
    if (items.current.get(conversation.id)?.contains(document.activeElement)) moveTo(neighbour?.id)
    const restorable = await remove(conversation.id)
    setUndo(restorable ? { id: conversation.id, title: titleOf(conversation) } : undefined)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, conversation: ConversationSummary, index: number) => {
    if (event.target !== event.currentTarget) return
    const last = conversations.length - 1
    const go: Record<string, number | undefined> = { ArrowDown: Math.min(index + 1, last), ArrowUp: Math.max(index - 1, 0), Home: 0, End: last }
    if (event.key in go) {
      event.preventDefault()
      moveTo(conversations[go[event.key] as number]?.id)
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      void choose(conversation.id)
    } else if (event.key === 'F2') {
      event.preventDefault()
      if (conversation.status !== 'error') setEditing(conversation.id)
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      void onRemove(conversation)
    }
  }

  const onExportRaw = async (id: string) => {
    const json = await exportRaw(id)
    if (json !== undefined) (onExport ?? download)(id, json)
  }

  const finishRename = (conversation: ConversationSummary, title: string | undefined) => {
    setEditing(undefined)
    moveTo(conversation.id)
    if (title !== undefined && title.trim() !== '' && title.trim() !== titleOf(conversation)) void rename(conversation.id, title)
  }

  return (
    <nav aria-label={label} id={layout?.listId} {...rest} ref={ref} data-weft="thread-list">
      <button type="button" data-weft="thread-new" onClick={() => moveTo(create())}>{newLabel ?? labels.newChat}</button>
      <ul role="listbox" aria-label={label} data-weft="threads">
        {conversations.map((conversation, index) => {
          const selected = conversation.id === selectedId
          const title = titleOf(conversation)
          return (
            <li
              key={conversation.id}
              ref={(node) => {
                if (node) items.current.set(conversation.id, node)
                else items.current.delete(conversation.id)
              }}
              role="option"
              aria-selected={selected}
              tabIndex={conversation.id === stop ? 0 : -1}
              data-weft="thread-list-item"
              data-state={selected ? 'active' : 'inactive'}
              data-status={conversation.status}
              onFocus={(event) => {
                if (event.target === event.currentTarget) setFocusId(conversation.id)
              }}
              onKeyDown={(event) => onKeyDown(event, conversation, index)}
              onClick={() => void choose(conversation.id)}
              onDoubleClick={() => conversation.status !== 'error' && setEditing(conversation.id)}
            >
              {editing === conversation.id
                ? <RenameInput title={title} onDone={(title) => finishRename(conversation, title)} />
                : <span data-weft="thread-title">{title}</span>}
              {conversation.status === 'streaming' && <span data-weft="thread-streaming" role="img" aria-label={labels.answering} />}
              {conversation.status === 'error' && (
                <span data-weft="thread-error" title={conversation.error?.message}>{labels.cannotBeRead}</span>
              )}
              {selected && renderFailure && conversation.status !== 'error' && (
                <span data-weft="thread-error" role="alert" data-error-code={renderFailure.code} title={renderFailure.message}>{labels.conversationNotShown(title)}</span>
              )}
              {conversation.status === 'conflict' && (
                <span data-weft="thread-conflict" role="alert">
                  {labels.changedInAnotherTab}
                  <button type="button" tabIndex={-1} onClick={act(() => resolveConflict(conversation.id, 'theirs'))}>{labels.loadTheirs}</button>
                  <button type="button" tabIndex={-1} onClick={act(() => resolveConflict(conversation.id, 'mine'))}>{labels.keepMine}</button>
                </span>
              )}
              {conversation.saveError && conversation.status !== 'conflict' && conversation.status !== 'error' && (
                <span data-weft="thread-save-error" role="alert" data-error-code={conversation.saveError.code} title={conversation.saveError.message}>
                  {labels.notSaved(conversation.saveError)}
                  <button type="button" tabIndex={-1} onClick={act(() => retrySave(conversation.id))}>{labels.retry}</button>
                  <button type="button" tabIndex={-1} onClick={act(() => reloadStored(conversation.id))}>{labels.reloadSaved}</button>
                </span>
              )}
              <span data-weft="thread-actions">
                {conversation.status !== 'error' && (
                  <button type="button" tabIndex={-1} aria-label={labels.renameConversation(title)} onClick={(e) => { e.stopPropagation(); setEditing(conversation.id) }}>{labels.rename}</button>
                )}
                {conversation.status === 'error' && (
                  <button type="button" tabIndex={-1} data-weft="thread-export" aria-label={labels.exportConversation(title)} onClick={act(() => onExportRaw(conversation.id))}>{labels.export}</button>
                )}
                <button type="button" tabIndex={-1} aria-label={labels.deleteConversation(title)} onClick={(e) => { e.stopPropagation(); void onRemove(conversation) }}>{labels.delete}</button>
              </span>
            </li>
          )
        })}
      </ul>
      {undo && (
        <div data-weft="thread-undo" role="status">
          {labels.deletedConversation(undo.title)}
          <button type="button" onClick={() => {
            const { id } = undo
            setUndo(undefined)
            void restore(id).then(async (restored) => {
              if (!restored) return
              await select(id)
              moveTo(id)
            })
          }}>{labels.undo}</button>
        </div>
      )}
    </nav>
  )
})

/** A button's click that does not also open the row. */
function act(run: () => Promise<unknown>) {
  return (event: MouseEvent) => {
    event.stopPropagation()
    void run()
  }
}

/** Save a file the way a link with `download` does. */
function download(id: string, json: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `${id.replace(/[^\w.-]+/g, '_')}.json`
  link.click()
  // After the click has handed the file over.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** The title in place of the row: Enter or leaving it keeps the new title, Escape keeps the old. */
function RenameInput({ title, onDone }: { title: string; onDone(title: string | undefined): void }) {
  const labels = useLabels()
  const [value, setValue] = useState(title)
  const done = useRef(false)
  const finish = (next: string | undefined) => {
    if (done.current) return
    done.current = true
    onDone(next)
  }
  return (
    <input
      data-weft="thread-rename"
      aria-label={labels.conversationTitle}
      value={value}
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => setValue(event.target.value)}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation()
        if (event.key === 'Enter') finish(value)
        else if (event.key === 'Escape') finish(undefined)
      }}
      onBlur={() => finish(value)}
    />
  )
}
