import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { openDB } from 'idb'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import {
  CONVERSATION_CORRUPT, checkRecord, createConversations, indexedDbConversations,
  type Conversations, type IndexedDbConversationStorage,
} from '../../src/core/conversations/index'
import type { Op } from '../../src/core/model/ops'
import { memoryStorage } from '../../src/core/resume/storage'
import type { ResumeStorage } from '../../src/core/resume/types'
import { useConversations } from '../../src/react/conversations'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { useAgentStore } from '../../src/react/provider'
import { useAgentSelector } from '../../src/react/selectors'
import { useResumableStream } from '../../src/react/use-resumable-stream'

/** One "page": its own IndexedDB connection, channel and conversation store. */
interface Page {
  storage: IndexedDbConversationStorage
  conversations: Conversations
}

const pages: Page[] = []
afterEach(async () => {
  cleanup()
  for (const page of pages.splice(0)) {
    await page.conversations.dispose()
    page.storage.close()
  }
})

let databases = 0
const freshName = () => `weft-test-${Date.now()}-${++databases}`

function openPage(name: string, selection: ResumeStorage): Page {
  const storage = indexedDbConversations({ name })
  const conversations = createConversations({ storage, selection, saveOnHide: false })
  const page = { storage, conversations }
  pages.push(page)
  return page
}

/** What a reload does to a page: its React tree, store and database connection go; storage stays. */
async function closePage(page: Page, unmount: () => void): Promise<void> {
  unmount()
  await page.conversations.dispose()
  page.storage.close()
  pages.splice(pages.indexOf(page), 1)
}

function exchange(n: number, question: string, answer: string): Op[] {
  return [
    { op: 'turn.open', turnId: `u${n}`, role: 'user' },
    { op: 'message.put', turnId: `u${n}`, messageId: `u${n}/text`, role: 'user', type: 'text', props: { content: question }, status: 'done' },
    { op: 'turn.finish', turnId: `u${n}`, status: 'done' },
    { op: 'turn.open', turnId: `a${n}`, role: 'assistant' },
    { op: 'message.delta', turnId: `a${n}`, messageId: `a${n}/text`, type: 'text', action: 'append', path: 'content', value: answer },
    { op: 'turn.finish', turnId: `a${n}`, status: 'done' },
  ]
}

/** Says something in the selected conversation (as a send and its answer would). */
function Say({ n, question, answer }: { n: number; question: string; answer: string }) {
  const store = useAgentStore()
  return <button onClick={() => store.getState().dispatch(exchange(n, question, answer))}>say {n}</button>
}

function Selected() {
  const { selected } = useConversations()
  return (
    <p>
      selected <output data-testid="selected">{selected?.title ?? ''}</output>
      {selected?.error && <span role="alert">{selected.error.message}</span>}
    </p>
  )
}

function App({ page, children }: { page: Page; children?: React.ReactNode }) {
  return (
    <ConversationsProvider conversations={page.conversations} fallback={<p>Loading conversations…</p>}>
      <ThreadList />
      <Selected />
      {children}
      <Transcript.Root />
    </ConversationsProvider>
  )
}

const rows = (list: HTMLElement = screen.getByRole('listbox')) => within(list).getAllByRole('option')
const titles = (list?: HTMLElement) => rows(list).map((row) => row.querySelector('[data-weft="thread-title"]')?.textContent ?? '')

// Generous limits: the machine these run on may be shared; nothing here measures time.
describe('conversations in Chromium with IndexedDB', { timeout: 60_000 }, () => {
  it('three conversations survive a reload into a fresh store, with the selected one active', async () => {
    const name = freshName()
    const selection = memoryStorage()
    const first = openPage(name, selection)
    const view = render(<App page={first}><Say n={0} question="Plan a trip to Lisbon" answer="Start at Alfama." /></App>)
    await screen.findByRole('listbox')
    await userEvent.click(screen.getByRole('button', { name: 'say 0' }))
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }))
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }))
    expect(rows()).toHaveLength(3)
    // Rename the newest in place with F2.
    rows()[0]?.focus()
    await userEvent.keyboard('{F2}')
    const input = screen.getByRole('textbox', { name: 'Conversation title' })
    await userEvent.clear(input)
    await userEvent.type(input, 'Budget{Enter}')
    await waitFor(() => expect(titles()).toContain('Budget'))
    // Keyboard: down to the Lisbon conversation and open it.
    await userEvent.keyboard('{End}{Enter}')
    await waitFor(() => expect(screen.getByTestId('selected').textContent).toBe('Plan a trip to Lisbon'))
    await closePage(first, view.unmount)

    const second = openPage(name, selection)
    render(<App page={second} />)
    await screen.findByRole('listbox')
    expect(titles()).toHaveLength(3)
    expect(titles()).toEqual(expect.arrayContaining(['Budget', 'New chat', 'Plan a trip to Lisbon']))
    const selected = rows().find((row) => row.getAttribute('aria-selected') === 'true')
    expect(selected?.textContent).toContain('Plan a trip to Lisbon')
    expect(await screen.findByText('Start at Alfama.')).toBeTruthy()
  })

  it('a corrupt record beside two good ones is an error for that one only and is left as it is', async () => {
    const name = freshName()
    const seed = openPage(name, memoryStorage())
    await seed.conversations.ready()
    const good = [seed.conversations.selectedId as string, seed.conversations.create()]
    for (const [n, id] of good.entries()) seed.conversations.storeOf(id)?.getState().dispatch(exchange(n, `Good ${n}`, `Answer ${n}`))
    await seed.conversations.flush()
    // Another program (or a broken version) wrote a damaged record and summary.
    const raw = await openDB(name)
    const damaged = { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 5, updatedAt: 5, revision: 1, state: { turnIds: ['t1'], turns: {} } }
    await raw.put('summaries', { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 5, updatedAt: 5, revision: 1 }, 'broken')
    await raw.put('records', damaged, 'broken')
    raw.close()

    const page = openPage(name, memoryStorage())
    render(<App page={page} />)
    await screen.findByRole('listbox')
    expect(titles()).toEqual(expect.arrayContaining(['Good 0', 'Good 1', 'Broken']))
    const broken = rows().find((row) => row.textContent?.includes('Broken')) as HTMLElement
    await userEvent.click(broken)
    await waitFor(() => expect(broken.getAttribute('data-status')).toBe('error'))
    expect(within(broken).getByText('Cannot be read')).toBeTruthy()
    expect(screen.getByRole('alert').textContent).toContain('cannot be read')
    await userEvent.click(rows().find((row) => row.textContent?.includes('Good 1')) as HTMLElement)
    expect(await screen.findByText('Answer 1')).toBeTruthy()
    await page.conversations.flush()

    const after = await openDB(name)
    expect(await after.get('records', 'broken')).toEqual(damaged)
    after.close()
    const checked = checkRecord(damaged, 'broken')
    expect(checked.ok === false && checked.error.code).toBe(CONVERSATION_CORRUPT)
  })

  it('two pages on one conversation: the other page follows a save, and unsaved changes meet it as a visible conflict', async () => {
    const name = freshName()
    const seed = openPage(name, memoryStorage())
    await seed.conversations.ready()
    const id = seed.conversations.selectedId as string
    await seed.conversations.flush()
    const left = openPage(name, memoryStorage())
    const right = openPage(name, memoryStorage())
    render(
      <>
        <section aria-label="left"><App page={left}><Say n={0} question="From the left" answer="Left answer" /></App></section>
        <section aria-label="right"><App page={right} /></section>
      </>,
    )
    const leftPage = within(await screen.findByRole('region', { name: 'left' }))
    const rightPage = within(await screen.findByRole('region', { name: 'right' }))
    await leftPage.findByRole('listbox')
    await rightPage.findByRole('listbox')
    await userEvent.click(leftPage.getByRole('button', { name: 'say 0' }))
    // The right page had no changes of its own: it takes the left's save.
    expect(await rightPage.findByText('Left answer')).toBeTruthy()
    await waitFor(() => expect(titles(rightPage.getByRole('listbox'))).toEqual(['From the left']))

    // Now both change it; the right saves last and must not overwrite the left.
    act(() => right.conversations.storeOf(id)?.getState().dispatch([
      { op: 'turn.open', turnId: 'r1', role: 'assistant' },
      { op: 'stream.status', status: 'streaming' },
      { op: 'message.delta', turnId: 'r1', messageId: 'r1/text', type: 'text', action: 'append', path: 'content', value: 'Right, unsaved' },
    ]))
    act(() => left.conversations.storeOf(id)?.getState().dispatch(exchange(1, 'Left again', 'Second left answer')))
    await left.conversations.flush()
    const conflict = await within(rightPage.getByRole('listbox')).findByRole('alert')
    expect(conflict.textContent).toContain('Changed in another tab')
    const stored = checkRecord(await left.storage.load(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0', 'u1', 'a1'])
    await userEvent.click(within(conflict).getByRole('button', { name: 'Load theirs' }))
    expect(await rightPage.findByText('Second left answer')).toBeTruthy()
    expect(rightPage.queryByText('Right, unsaved')).toBeNull()
  })

  it('delete with undo, and keyboard Delete', async () => {
    const page = openPage(freshName(), memoryStorage())
    render(<App page={page}><Say n={0} question="Keep this one" answer="Kept." /></App>)
    await screen.findByRole('listbox')
    await userEvent.click(screen.getByRole('button', { name: 'say 0' }))
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }))
    expect(rows()).toHaveLength(2)
    const keep = rows().find((row) => row.textContent?.includes('Keep this one')) as HTMLElement
    keep.focus()
    await userEvent.keyboard('{Delete}')
    await waitFor(() => expect(titles()).toEqual(['New chat']))
    await userEvent.click(await screen.findByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(titles()).toContain('Keep this one'))
    expect(await screen.findByText('Kept.')).toBeTruthy()
    expect(screen.getByTestId('selected').textContent).toBe('Keep this one')
  })
})

/** `hold`: a lost connection waits for the page to go away instead of reconnecting (the reload comes first). */
function ResumingChat({ hold = false }: { hold?: boolean }) {
  const { send, status, error } = useResumableStream({
    // The drop lingers: Chromium discards the bytes a busy page has not read when a drop arrives.
    url: `/mock/stream/vocion/answer?delay=5${hold ? '&cut=6&linger=300' : ''}`,
    protocol: 'vocion',
    resume: 'vocion',
    resumeUrl: '/mock/resume/vocion/answer?delay=5',
    storage: handles,
    backoff: hold ? { sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(false))) } : { baseMs: 50 },
  })
  const events = useAgentSelector((s) => s.cursor.eventCount)
  return (
    <p>
      <button onClick={() => void send('Where is the Contoso renewal?')}>Ask</button>
      status <output data-testid="status">{status}</output> events <output data-testid="events">{events}</output>
      {error && <output data-testid="error">{`${error.type}: ${error.message}`}</output>}
    </p>
  )
}
let handles: ResumeStorage = memoryStorage()

describe('a resumed stream after a reload', { timeout: 60_000 }, () => {
  it('lands in the conversation it belongs to, not the selected one', async () => {
    handles = memoryStorage()
    const name = freshName()
    const selection = memoryStorage()
    const before = openPage(name, selection)
    const view = render(<App page={before}><ResumingChat hold /></App>)
    await screen.findByRole('listbox')
    const asking = before.conversations.selectedId as string
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }))
    // The connection drops after six events; the answer is half there.
    await waitFor(() => expect(screen.getByTestId('status').textContent, screen.queryByTestId('error')?.textContent ?? '').toBe('reconnecting'))
    const half = before.conversations.storeOf(asking)?.getState()
    expect(half?.turns[half.turnIds[1] as string]?.status).toBe('streaming')
    // The user moves to another conversation while the answer streams in the background.
    await userEvent.click(screen.getByRole('button', { name: 'New chat' }))
    const other = before.conversations.selectedId as string
    expect(other).not.toBe(asking)
    expect(rows().find((row) => row.getAttribute('data-status') === 'streaming')?.textContent).toContain('Where is the Contoso renewal?')
    // The page goes away mid-answer (pagehide saves).
    await closePage(before, view.unmount)

    const after = openPage(name, selection)
    render(<App page={after}><ResumingChat /></App>)
    await screen.findByRole('listbox')
    expect(after.conversations.selectedId).toBe(other)
    await userEvent.click(rows().find((row) => row.textContent?.includes('Where is the Contoso renewal?')) as HTMLElement)
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'), { timeout: 8000 })
    expect((await screen.findAllByText(/Contoso renews/)).length).toBeGreaterThan(0)
    const resumed = after.conversations.storeOf(asking)?.getState()
    const answer = resumed?.turns[resumed.turnIds[1] as string]
    expect(answer?.status).toBe('done')
    expect(after.conversations.storeOf(other)?.getState().turnIds).toEqual([])
  })
})
