/**
 * `QueuedMessages` / `Queue` in jsdom: nothing while the queue is empty; `waiting`
 * while the agent runs (a request, a pending gate, a client tool still running)
 * and `held` otherwise; its actions reach the acting client with the message's
 * id, and are not drawn for a client without them; its props and children; and
 * `Transcript.Root` draws it under the turns unless `queued={false}`.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Queue, QueuedMessages } from '../../src/components/queued-messages'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore } from '../../src/core/store/store'
import type { StoreClient } from '../../src/react/client-slots'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(cleanup)

const queued: Op[] = [{ op: 'queue.put', message: { id: 'q1', text: 'And Lyon?' } }, { op: 'queue.put', message: { id: 'q2', text: 'And Nice?' } }]

function client() {
  return {
    answer: vi.fn(), selectBranch: vi.fn(), regenerate: vi.fn(),
    editQueued: vi.fn((_id: string, _text: string) => ({ ok: true as const })),
    cancelQueued: vi.fn((_id: string) => ({ ok: true as const })),
    sendQueued: vi.fn(async (_id?: string) => ({ ok: true as const })),
  }
}

function show(ops: Op[], ui = <QueuedMessages />, acting: StoreClient | null = client() as unknown as StoreClient) {
  const store = createAgentStore()
  store.getState().dispatch(ops)
  render(<AgentProvider store={store} client={acting ?? undefined}>{ui}</AgentProvider>)
  return store
}

const root = () => document.querySelector<HTMLElement>('[data-weft="queue"]')
const item = (n: number) => document.querySelectorAll<HTMLElement>('[data-weft="queue-item"]')[n]!

describe('QueuedMessages', () => {
  it('renders nothing while nothing is queued', () => {
    show([{ op: 'stream.status', status: 'streaming' }])
    expect(root()).toBeNull()
  })

  it('is waiting while a request runs, a gate waits or a client tool runs, and held otherwise', () => {
    const answer: Op[] = [{ op: 'turn.open', turnId: 'a1', role: 'assistant' }]
    const cases: Array<[string, Op[], string]> = [
      ['streaming', [{ op: 'stream.status', status: 'streaming' }], 'waiting'],
      ['connecting', [{ op: 'stream.status', status: 'connecting' }], 'waiting'],
      ['a pending gate', [...answer, { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'tool-approval', question: 'Ok?', payload: {} } }, { op: 'turn.finish', turnId: 'a1', status: 'done' }, { op: 'stream.status', status: 'done' }], 'waiting'],
      ['a client tool running', [...answer, { op: 'message.put', turnId: 'a1', messageId: 'tool', type: 'tool', props: { state: 'input-available' }, status: 'streaming' }, { op: 'stream.status', status: 'done' }], 'waiting'],
      ['stopped', [...answer, { op: 'turn.finish', turnId: 'a1', status: 'aborted' }, { op: 'stream.status', status: 'aborted' }], 'held'],
      ['failed', [{ op: 'stream.status', status: 'error' }], 'held'],
    ]
    for (const [name, ops, state] of cases) {
      show([...ops, ...queued])
      expect(root()!.getAttribute('data-state'), name).toBe(state)
      expect(item(0).textContent, name).toContain(state === 'waiting' ? 'Sends when the answer ends' : 'Not sent yet')
      cleanup()
    }
  })

  it('edits, removes and sends now through the acting client, with the message id', () => {
    const acting = client()
    show(queued, <QueuedMessages />, acting as unknown as StoreClient)
    fireEvent.click(within(item(1)).getByRole('button', { name: 'Edit' }))
    const field = within(item(1)).getByRole('textbox', { name: 'Edit' }) as HTMLTextAreaElement
    expect(field.value).toBe('And Nice?')
    fireEvent.change(field, { target: { value: '  And Nice, Sunday?  ' } })
    fireEvent.click(within(item(1)).getByRole('button', { name: 'Save' }))
    expect(acting.editQueued.mock.calls).toEqual([['q2', 'And Nice, Sunday?']])
    // A blank edit changes nothing; Cancel drops the draft.
    fireEvent.click(within(item(0)).getByRole('button', { name: 'Edit' }))
    fireEvent.change(within(item(0)).getByRole('textbox'), { target: { value: '   ' } })
    fireEvent.click(within(item(0)).getByRole('button', { name: 'Save' }))
    fireEvent.click(within(item(0)).getByRole('button', { name: 'Edit' }))
    fireEvent.click(within(item(0)).getByRole('button', { name: 'Cancel' }))
    expect(acting.editQueued).toHaveBeenCalledTimes(1)
    expect(item(0).getAttribute('data-state')).toBe('queued')
    fireEvent.click(within(item(0)).getByRole('button', { name: 'Remove' }))
    fireEvent.click(within(item(1)).getByRole('button', { name: 'Send now' }))
    expect(acting.cancelQueued.mock.calls).toEqual([['q1']])
    expect(acting.sendQueued.mock.calls).toEqual([['q2']])
  })

  it('draws no action a client lacks, and none without a client', () => {
    show(queued, <QueuedMessages />, { answer: vi.fn(), selectBranch: vi.fn(), regenerate: vi.fn(), cancelQueued: vi.fn() } as never)
    expect(within(item(0)).queryAllByRole('button').map((b) => b.textContent)).toEqual(['Remove'])
    cleanup()
    show(queued, <QueuedMessages />, null)
    expect(within(item(0)).queryAllByRole('button')).toEqual([])
  })

  it('forwards its props, and draws each message through children', () => {
    show(queued, <Queue.Root className="mine" aria-label="Waiting">{(message) => <Queue.Item message={message} data-testid={message.id} />}</Queue.Root>)
    expect(root()!.tagName).toBe('UL')
    expect(root()!.className).toBe('mine')
    expect(root()!.getAttribute('aria-label')).toBe('Waiting')
    expect(screen.getByTestId('q2').textContent).toContain('And Nice?')
  })

  it('Transcript.Root draws it after the turns, unless queued={false}', () => {
    const turn: Op[] = [{ op: 'turn.open', turnId: 'a1', role: 'assistant' }, { op: 'turn.finish', turnId: 'a1', status: 'done' }]
    show([...turn, ...queued], <Transcript.Root />)
    const log = screen.getByRole('log')
    expect(log.lastElementChild!.getAttribute('data-weft')).toBe('queue')
    cleanup()
    show([...turn, ...queued], <Transcript.Root queued={false} />)
    expect(root()).toBeNull()
  })
})
