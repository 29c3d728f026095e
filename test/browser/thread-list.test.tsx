/**
 * The thread list's layout and composition, with the kit's stylesheet loaded:
 * what a pointer hits, which rules reach its rows, and what a host can pass in.
 */
import '../../src/components/styles.css'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { yaoScenarios } from '../../mock/scenarios/yao'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import { createConversations, memoryConversations, type Conversations } from '../../src/core/conversations/index'
import { foldStream } from '../../src/umbrella/defaults'
import { createAgentStore } from '../../src/core/store/store'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { AgentProvider } from '../../src/umbrella/providers'

const lists: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const conversations of lists.splice(0)) await conversations.dispose()
})

/** A list holding "Lisbon trip" and then "Budget" (the selected one, newest first). */
async function twoConversations(): Promise<Conversations> {
  const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
  lists.push(conversations)
  await conversations.ready()
  const untitled = conversations.selectedId as string
  conversations.create({ title: 'Lisbon trip' })
  conversations.create({ title: 'Budget' })
  await conversations.remove(untitled)
  return conversations
}

const rowOf = (title: string) => screen.getByRole('option', { name: new RegExp(title) })
const titleOf = (row: HTMLElement) => row.querySelector<HTMLElement>('[data-weft="thread-title"]') as HTMLElement
const box = (element: Element) => {
  const { x, y, width, height } = element.getBoundingClientRect()
  return { x, y, width, height }
}

describe('ThreadList', () => {
  it('keeps a row’s title where it is when the pointer enters, so a click at the title opens the conversation', async () => {
    const conversations = await twoConversations()
    // A sidebar as narrow as a phone's drawer: where a shifting layout would put Rename under the title.
    render(
      <div style={{ width: 240 }}>
        <ConversationsProvider conversations={conversations}><ThreadList /></ConversationsProvider>
      </div>,
    )
    await screen.findByRole('listbox')
    const row = rowOf('Lisbon trip')
    expect(row.getAttribute('aria-selected')).toBe('false')
    const before = box(titleOf(row))
    expect(before.width).toBeGreaterThan(0)

    await userEvent.hover(row)
    const rename = within(row).getByRole('button', { name: 'Rename Lisbon trip' })
    await waitFor(() => expect(getComputedStyle(rename).visibility).toBe('visible'))
    expect(box(titleOf(row))).toEqual(before)

    // Click where the title's centre was before the pointer came.
    const rowBox = row.getBoundingClientRect()
    const centre = { x: before.x + before.width / 2 - rowBox.x, y: before.y + before.height / 2 - rowBox.y }
    await userEvent.click(row, { position: centre })
    await waitFor(() => expect(rowOf('Lisbon trip').getAttribute('aria-selected')).toBe('true'))
    expect(conversations.selectedId).toBe(conversations.list().find((c) => c.title === 'Lisbon trip')?.id)
    expect(screen.queryByRole('textbox', { name: 'Conversation title' })).toBeNull()
    expect(screen.getAllByRole('option').map((option) => titleOf(option).textContent).sort()).toEqual(['Budget', 'Lisbon trip'])
  })

  it('hides a row’s actions without taking their room away, and shows them when focus is inside the row', async () => {
    const conversations = await twoConversations()
    render(<ConversationsProvider conversations={conversations}><ThreadList /></ConversationsProvider>)
    await screen.findByRole('listbox')
    const row = rowOf('Lisbon trip')
    const actions = row.querySelector('[data-weft="thread-actions"]') as HTMLElement
    const before = box(titleOf(row))
    // The pointer may still rest where an earlier test's row was.
    await userEvent.unhover(row)
    expect(getComputedStyle(actions).visibility).toBe('hidden')
    expect(actions.getBoundingClientRect().width).toBeGreaterThan(0)

    row.focus()
    await waitFor(() => expect(getComputedStyle(actions).visibility).toBe('visible'))
    expect(box(titleOf(row))).toEqual(before)
    expect(getComputedStyle(within(row).getByRole('button', { name: 'Delete Lisbon trip' })).visibility).toBe('visible')
  })

  it('gives its rows their own name, so the transcript’s lane styles stay off them', async () => {
    const conversations = await twoConversations()
    const lanes = foldStream(
      yaoScenarios.find((s) => s.name === 'concurrent-threads')!.frames.filter((f) => f.data !== undefined).map((f) => f.data),
      { protocol: 'yao' },
    )
    const { container } = render(
      <>
        <ConversationsProvider conversations={conversations}><ThreadList /></ConversationsProvider>
        <AgentProvider store={createAgentStore({ initialState: lanes })}><Transcript.Root /></AgentProvider>
      </>,
    )
    await screen.findByRole('listbox')
    const row = rowOf('Lisbon trip')
    expect(getComputedStyle(row).borderInlineStartWidth).toBe('0px')
    expect(row.getAttribute('data-weft')).toBe('thread-list-item')
    // The transcript's lanes keep theirs: the rule is still there, it just does not reach the list.
    const lane = container.querySelector('[role="log"] [data-weft="thread"]') as HTMLElement
    expect(lane).not.toBeNull()
    expect(getComputedStyle(lane).borderInlineStartWidth).toBe('2px')
    expect(within(screen.getByRole('listbox')).queryAllByRole('group')).toEqual([])
  })

  it('passes className, style, DOM props and the ref to its root', async () => {
    const conversations = await twoConversations()
    const ref = createRef<HTMLElement>()
    render(
      <ConversationsProvider conversations={conversations}>
        <ThreadList ref={ref} className="sidebar" style={{ maxWidth: 200 }} data-testid="threads" id="history" />
      </ConversationsProvider>,
    )
    await screen.findByRole('listbox')
    const root = screen.getByTestId('threads')
    expect(ref.current).toBe(root)
    expect(root.tagName).toBe('NAV')
    expect(root.className).toBe('sidebar')
    expect(root.style.maxWidth).toBe('200px')
    expect(root.id).toBe('history')
    expect(root.getAttribute('data-weft')).toBe('thread-list')
    expect(root.getAttribute('aria-label')).toBe('Conversations')
    expect(within(root).getAllByRole('option')).toHaveLength(2)
  })
})
