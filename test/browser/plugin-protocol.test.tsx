/**
 * The components draw a host protocol's own parts with the views its
 * definition carries, only in the turns that speak it, and a host renderer
 * still wins. AG-UI's navigation view is registered the same way.
 */
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { RendererProvider } from '../../src/components/renderers'
import { Transcript } from '../../src/components/transcript'
import { foldStream } from '../../src/umbrella/defaults'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore } from '../../src/core/store/store'
import { useHistory } from '../../src/react/use-history'
import { toyProtocol, toySse } from '../helpers/toy-protocol'
import { AgentProvider } from '../../src/react/provider'
import { renderWith, storeWith } from './support'
import { messageIn } from '../../src/core/model/message-table'

function toyStore(protocol: string | undefined = 'toy') {
  const state = foldStream(toySse(['Hello'], 'From the toy'), { protocol: toyProtocol })
  const store = createAgentStore()
  const turn = { ...state.turns['turn-1']!, protocol }
  store.getState().dispatch([{ op: 'hydrate', at: 'end', turns: [{ turn, messages: turn.messageIds.map((id) => messageIn(state.messages, id)!) }] }])
  return store
}

describe('a host protocol draws its own parts', () => {
  it('uses the view its definition carries, given to the renderer provider', () => {
    renderWith(toyStore(), <RendererProvider protocols={[toyProtocol]}><Transcript.Root /></RendererProvider>)
    expect(screen.getByTestId('toy-card').textContent).toBe('From the toy')
    expect(screen.getByText('Hello')).toBeTruthy()
  })

  it('does not apply its views to turns of another protocol', () => {
    renderWith(toyStore('other'), <RendererProvider protocols={[toyProtocol]}><Transcript.Root /></RendererProvider>)
    expect(screen.queryByTestId('toy-card')).toBeNull()
    // The kit's fallback shows the unknown part's type instead.
    expect(document.querySelector('[data-type="toy-card"]')).not.toBeNull()
  })

  it('a host renderer for the type wins over the protocol view', () => {
    renderWith(toyStore(), (
      <RendererProvider protocols={[toyProtocol]} renderers={{ 'toy-card': () => <p data-testid="host-card">host</p> }}>
        <Transcript.Root />
      </RendererProvider>
    ))
    expect(screen.queryByTestId('toy-card')).toBeNull()
    expect(screen.getByTestId('host-card')).toBeTruthy()
  })
})

describe("AG-UI's navigation view comes from its protocol", () => {
  const toolTurn = (protocol?: string): Op[] => [
    { op: 'turn.open', turnId: 't1', role: 'assistant', protocol },
    {
      op: 'message.put', turnId: 't1', messageId: 'tool1', type: 'tool', status: 'done',
      props: { toolCallId: 'c1', name: 'create_todo', state: 'output-available', actions: [{ type: 'navigation', path: '/todo/1', label: 'Open' }] },
    },
    { op: 'turn.finish', turnId: 't1', status: 'done' },
  ]

  it('shows the actions in an AG-UI turn', () => {
    renderWith(storeWith(toolTurn('ag-ui')), <Transcript.Root />)
    expect(screen.getByRole('button', { name: 'Open' })).toBeTruthy()
  })

  it('the generic tool view of another turn shows none', () => {
    renderWith(storeWith(toolTurn(undefined)), <Transcript.Root />)
    expect(screen.getByText('create_todo')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull()
  })
})

function ToyHistory({ pages }: { pages: unknown[][] }) {
  const { loadOlder, hasMore, loading } = useHistory<number>({
    protocol: 'toy',
    load: async (before) => {
      const at = before ?? 0
      return { data: pages[at], next: at + 1, hasMore: at + 1 < pages.length }
    },
  })
  return (
    <>
      <button disabled={!hasMore || loading} onClick={() => void loadOlder()}>Older</button>
      <Transcript.Root />
    </>
  )
}

describe('a host protocol brings its own history', () => {
  it('useHistory reads each page through the protocol definition\'s history slot, overlaps skipped', async () => {
    const store = createAgentStore()
    const pages = [
      [{ id: 'b', text: 'Second toy answer' }, { id: 'c', text: 'Third toy answer' }],
      [{ id: 'a', text: 'First toy answer' }, { id: 'b', text: 'Second toy answer' }],
    ]
    // Given to the provider by name: its history reader reads the pages, its views draw them.
    renderWith(store, <AgentProvider store={store} protocols={[toyProtocol]}><ToyHistory pages={pages} /></AgentProvider>)
    await screen.findByText('Third toy answer')
    await userEvent.click(screen.getByRole('button', { name: 'Older' }))
    await screen.findByText('First toy answer')
    expect(store.getState().turnIds).toEqual(['a', 'b', 'c'])
    expect(screen.getAllByText('Second toy answer')).toHaveLength(1)
    expect(store.getState().turns.a?.protocol).toBe('toy')
  })
})
