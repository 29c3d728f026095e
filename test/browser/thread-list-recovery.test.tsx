/**
 * ThreadList shows what needs a person and how to settle it: a save that failed
 * (Retry, Reload saved), a full storage, a conflict with another tab (Load
 * theirs, Keep mine). Each is an alert in its row, with named buttons.
 */
import '../../src/components/styles.css'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import {
  checkRecord, createConversations, memoryConversations,
  type ConversationStorage, type Conversations,
} from '../../src/core/conversations/index'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { exchange } from '../helpers/exchange'

const lists: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const c of lists.splice(0)) await c.dispose()
})

/** A memory storage whose saves can be refused with what a browser throws. */
function refusable() {
  const inner = memoryConversations()
  const control: { refuse?: () => unknown } = {}
  const storage: ConversationStorage = {
    list: () => inner.list(),
    load: (id) => inner.load(id),
    remove: (id) => inner.remove(id),
    save: async (record, options) => {
      if (control.refuse) throw control.refuse()
      await inner.save(record, options)
    },
  }
  return { storage, records: inner.records, control }
}

function App({ conversations }: { conversations: Conversations }) {
  return (
    <ConversationsProvider conversations={conversations}>
      <ThreadList />
      <Transcript.Root />
    </ConversationsProvider>
  )
}

const rowOf = (title: string) => within(screen.getByRole('listbox')).getByRole('option', { name: new RegExp(title) })
const revisionOf = (records: Map<string, unknown>, id: string) => (records.get(id) as { revision?: number } | undefined)?.revision

describe('ThreadList: save errors and conflicts', { timeout: 60_000 }, () => {
  it('a failed save is an alert in its row; Retry saves once the storage takes it', async () => {
    const { storage, records, control } = refusable()
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId as string
    await conversations.flush()
    render(<App conversations={conversations} />)
    control.refuse = () => new DOMException('The database connection is closing.', 'InvalidStateError')
    conversations.storeOf(id)?.getState().dispatch(exchange(0, 'Unsaved plan', 'Not yet stored.'))
    await conversations.flush()
    const alert = await within(rowOf('Unsaved plan')).findByRole('alert')
    expect(alert.textContent).toContain('Not saved')
    expect(alert.getAttribute('data-error-code')).toBe('conversation_save_failed')
    expect(alert.getAttribute('title')).toContain('closing')
    expect(revisionOf(records, id)).toBe(1)

    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(within(rowOf('Unsaved plan')).getByRole('alert')).toBeTruthy()
    control.refuse = undefined
    await userEvent.click(within(rowOf('Unsaved plan')).getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(within(rowOf('Unsaved plan')).queryByRole('alert')).toBeNull())
    expect(revisionOf(records, id)).toBe(2)
    expect(screen.getByText('Not yet stored.')).toBeTruthy()
  })

  it('a full storage says so; Reload saved drops this tab’s changes and shows the stored conversation', async () => {
    const { storage, records, control } = refusable()
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId as string
    conversations.storeOf(id)?.getState().dispatch(exchange(0, 'Stored plan', 'This one is stored.'))
    await conversations.flush()
    render(<App conversations={conversations} />)
    control.refuse = () => new DOMException('Quota exceeded', 'QuotaExceededError')
    conversations.storeOf(id)?.getState().dispatch(exchange(1, 'Too big', 'This one is not.'))
    await conversations.flush()
    const alert = await within(rowOf('Stored plan')).findByRole('alert')
    expect(alert.textContent).toContain('Not saved: storage is full')
    expect(alert.getAttribute('data-error-code')).toBe('conversation_quota_exceeded')
    expect(screen.getByText('This one is not.')).toBeTruthy()

    control.refuse = undefined
    await userEvent.click(within(alert).getByRole('button', { name: 'Reload saved' }))
    await waitFor(() => expect(screen.queryByText('This one is not.')).toBeNull())
    expect(screen.getByText('This one is stored.')).toBeTruthy()
    expect(within(rowOf('Stored plan')).queryByRole('alert')).toBeNull()
    await conversations.flush()
    expect(revisionOf(records, id)).toBe(1)
  })

  it('a conflict with another tab: Keep mine writes this tab’s copy over theirs', async () => {
    const storage = memoryConversations()
    const seed = createConversations({ storage, selection: false, saveOnHide: false })
    lists.push(seed)
    await seed.ready()
    const id = seed.selectedId as string
    await seed.flush()
    const mine = createConversations({ storage, selection: false, saveOnHide: false })
    lists.push(mine)
    await mine.ready()
    // The other tab saves first, then this one has its own changes to save.
    seed.storeOf(id)?.getState().dispatch(exchange(0, 'Theirs', 'Their answer.'))
    await seed.flush()
    render(<App conversations={mine} />)
    mine.storeOf(id)?.getState().dispatch(exchange(1, 'Mine', 'My answer.'))
    await mine.flush()
    const alert = await within(rowOf('Mine')).findByRole('alert')
    expect(alert.textContent).toContain('Changed in another tab')
    await userEvent.click(within(alert).getByRole('button', { name: 'Keep mine' }))
    await waitFor(() => expect(within(rowOf('Mine')).queryByRole('alert')).toBeNull())
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u1', 'a1'])
    expect(stored.ok && stored.value.revision).toBe(3)
    expect(screen.getByText('My answer.')).toBeTruthy()
  })
})
