/**
 * A render error in one conversation never takes down the thread list: a
 * `ConversationBoundary` shows a typed alert naming the conversation in its
 * place, and without one `ConversationsProvider` draws the page again without it.
 */
import '../../src/components/styles.css'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { Component, type ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Composer } from '../../src/components/composer'
import { ConversationBoundary } from '../../src/components/conversation-boundary'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import { createConversations, memoryConversations, type Conversations } from '../../src/core/conversations/index'
import type { WeftError } from '../../src/core/model/errors'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { useAgentSelector } from '../../src/react/selectors'
import { exchange } from '../helpers/exchange'

const lists: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const c of lists.splice(0)) await c.dispose()
})

/** A host's own part that trips on one conversation's data (its agent state says so). */
function Fragile() {
  const explode = useAgentSelector((s) => s.agentState.explode === true)
  if (explode) throw new TypeError('cannot read the chart')
  return null
}

/** "Calm" with an answer, then "Fragile" (selected) whose drawing throws. */
async function twoConversations(): Promise<{ conversations: Conversations; calm: string; fragile: string }> {
  const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
  lists.push(conversations)
  await conversations.ready()
  const calm = conversations.selectedId as string
  conversations.storeOf(calm)?.getState().dispatch(exchange(0, 'Calm', 'All is well.'))
  const fragile = conversations.create()
  conversations.storeOf(fragile)?.getState().dispatch([...exchange(1, 'Fragile', 'About to fail.'), { op: 'agentState.set', value: { explode: true } }])
  return { conversations, calm, fragile }
}

class Outer extends Component<{ children?: ReactNode }, { crashed: boolean }> {
  override state = { crashed: false }
  static getDerivedStateFromError() {
    return { crashed: true }
  }
  override render() {
    return this.state.crashed ? <p>page crashed</p> : this.props.children
  }
}

const rowOf = (title: string) => within(screen.getByRole('listbox')).getByRole('option', { name: new RegExp(title) })

describe('a conversation that cannot be drawn', { timeout: 60_000 }, () => {
  it('inside ConversationBoundary: an alert naming it stands in its place, the thread list works, another conversation draws', async () => {
    const { conversations, calm, fragile } = await twoConversations()
    const told: WeftError[] = []
    render(
      <Outer>
        <ConversationsProvider conversations={conversations}>
          <ThreadList />
          <ConversationBoundary onError={(error) => told.push(error)}>
            <Fragile />
            <Transcript.Root />
          </ConversationBoundary>
        </ConversationsProvider>
      </Outer>,
    )
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-weft')).toBe('conversation-error')
    expect(alert.getAttribute('data-error-code')).toBe('conversation_render_failed')
    expect(alert.textContent).toContain(`Conversation “${fragile}” could not be shown.`)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({ type: 'internal', code: 'conversation_render_failed', retryable: true })
    expect(told[0]?.message).toContain(fragile)
    expect(told[0]?.message).toContain('cannot read the chart')
    expect(screen.queryByText('page crashed')).toBeNull()

    // Retry draws it again (it fails again: the data has not changed).
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(told).toHaveLength(2)

    await userEvent.click(rowOf('Calm'))
    expect(await screen.findByText('All is well.')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(conversations.selectedId).toBe(calm)

    // Once the data is mended, going back draws it.
    conversations.storeOf(fragile)?.getState().dispatch([{ op: 'agentState.set', value: { explode: false } }])
    await userEvent.click(rowOf('Fragile'))
    expect(await screen.findByText('About to fail.')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('with no boundary of the host’s: the provider draws the page without it, the row says so, sends are refused with the reason', async () => {
    const { conversations, calm, fragile } = await twoConversations()
    const told: WeftError[] = []
    render(
      <Outer>
        <ConversationsProvider conversations={conversations} onRenderError={(error) => told.push(error)}>
          <ThreadList />
          <Fragile />
          <Transcript.Root />
          <Composer send={() => undefined} />
        </ConversationsProvider>
      </Outer>,
    )
    const row = await waitFor(() => rowOf('Fragile'))
    const alert = await within(row).findByRole('alert')
    expect(alert.textContent).toBe('Conversation “Fragile” could not be shown.')
    expect(alert.getAttribute('data-error-code')).toBe('conversation_render_failed')
    expect(told[0]).toMatchObject({ code: 'conversation_render_failed' })
    expect(told[0]?.message).toContain(fragile)
    expect(screen.queryByText('page crashed')).toBeNull()
    expect(screen.queryByText('About to fail.')).toBeNull()
    const box = screen.getByRole('textbox') as HTMLTextAreaElement
    expect(box.disabled).toBe(true)
    expect(box.placeholder).toContain('could not be shown')

    await userEvent.click(rowOf('Calm'))
    expect(await screen.findByText('All is well.')).toBeTruthy()
    expect(within(screen.getByRole('listbox')).queryByRole('alert')).toBeNull()
    expect(conversations.selectedId).toBe(calm)
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).disabled).toBe(false)
  })

  it('an error the page throws without any conversation is not held: it goes up', async () => {
    const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    function Broken(): ReactNode {
      throw new Error('the host’s own bug')
    }
    render(
      <Outer>
        <ConversationsProvider conversations={conversations}>
          <ThreadList />
          <Broken />
        </ConversationsProvider>
      </Outer>,
    )
    expect(await screen.findByText('page crashed')).toBeTruthy()
  })
})
