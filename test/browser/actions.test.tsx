import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Composer } from '../../src/components/composer'
import { GateCard } from '../../src/components/gate-card'
import { StatusBar } from '../../src/components/status-bar'
import { Suggestions } from '../../src/components/suggestions'
import { Transcript } from '../../src/components/transcript'
import { weftError } from '../../src/core/model/errors'
import type { Op } from '../../src/core/model/ops'
import { renderWith, storeWith } from './support'

const recommendation = {
  actionId: 'gmail.send', label: 'Draft the note to Nadia', rationale: 'She asked for terms in writing.', confidence: 0.82,
  input: { to: 'nadia@contoso.example' },
}

const actionTurn: Op[] = [
  // Navigation actions are AG-UI's: its protocol registers the tool view that shows them.
  { op: 'turn.open', turnId: 't1', role: 'assistant', protocol: 'ag-ui' },
  { op: 'message.put', turnId: 't1', messageId: 'a1', type: 'recommended-action', props: recommendation, status: 'done' },
  {
    op: 'message.put', turnId: 't1', messageId: 'tool1', type: 'tool', status: 'done',
    props: {
      toolCallId: 'c1', name: 'create_todo', state: 'output-available', input: { title: 'Call Nadia' }, output: { id: 123 },
      actions: [
        { type: 'navigation', path: '/todo/123/edit', params: { tab: 'details', pinned: true }, label: 'Edit the to-do' },
        { type: 'open-url', path: 'https://evil.example' },
        { type: 'navigation', path: 'https://evil.example', label: 'Leave the app' },
        { type: 'navigation', path: '//evil.example/x', label: 'Protocol-relative' },
        { type: 'navigation', path: '/todo/{id}/share', label: 'Unfilled' },
        { type: 'navigation', path: '/todo/1', params: { nested: { no: 1 } }, label: 'Object param' },
        { path: '/todo/123' },
      ],
    },
  },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

describe('recommended actions and navigation', () => {
  it('calls onAction only when the button is clicked, with the recommendation', () => {
    const onAction = vi.fn()
    renderWith(storeWith(actionTurn), <WeftCallbacksProvider onAction={onAction}><Transcript.Root /></WeftCallbacksProvider>)
    expect(screen.getByText('She asked for terms in writing.')).toBeTruthy()
    expect(screen.getByText('82% confident')).toBeTruthy()
    expect(onAction).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Draft the note to Nadia' }))
    expect(onAction).toHaveBeenCalledTimes(1)
    expect(onAction.mock.calls[0]![0]).toEqual(recommendation)
    expect(onAction.mock.calls[0]![1].id).toBe('a1')
  })

  it('hands a checked navigation action to onNavigate on click, and never touches location', () => {
    const onNavigate = vi.fn()
    const before = window.location.href
    renderWith(storeWith(actionTurn), <WeftCallbacksProvider onNavigate={onNavigate}><Transcript.Root /></WeftCallbacksProvider>)
    const buttons = screen.getAllByRole('button').filter((b) => b.getAttribute('data-weft') === 'navigation-action')
    expect(buttons.map((b) => b.textContent)).toEqual(['Edit the to-do', '/todo/123'])
    expect(onNavigate).not.toHaveBeenCalled()
    fireEvent.click(buttons[0]!)
    expect(onNavigate).toHaveBeenCalledWith('/todo/123/edit', { tab: 'details', pinned: true })
    fireEvent.click(buttons[1]!)
    expect(onNavigate).toHaveBeenLastCalledWith('/todo/123', {})
    expect(window.location.href).toBe(before)
  })

  it('disables action buttons when the host gave no callback', () => {
    renderWith(storeWith(actionTurn), <Transcript.Root />)
    expect((screen.getByRole('button', { name: 'Draft the note to Nadia' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Edit the to-do' }) as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('gates', () => {
  const gateOps: Op[] = [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'hitl', question: 'Send this email to Nadia?', payload: { to: 'nadia@contoso.example' } } },
  ]

  it('calls onGateAnswer with the gate and the answer; the kit itself changes nothing', () => {
    const onGateAnswer = vi.fn()
    const store = storeWith(gateOps)
    renderWith(store, <WeftCallbacksProvider onGateAnswer={onGateAnswer}><Transcript.Root /></WeftCallbacksProvider>)
    const card = document.querySelector('[data-weft="gate"]')!
    expect(card.getAttribute('data-state')).toBe('pending')
    expect(card.textContent).toContain('Send this email to Nadia?')
    expect(onGateAnswer).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    // One answer per gate: the buttons are disabled at once, before the store knows.
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    expect(onGateAnswer.mock.calls.map(([gate, answer, detail]) => [gate.id, answer, detail])).toEqual([['g1', 'rejected', undefined]])
    expect(store.getState().gates.g1!.status).toBe('pending')
  })

  it('shows the outcome instead of the buttons once the gate is resolved', () => {
    const store = storeWith([...gateOps, { op: 'gate.resolve', gateId: 'g1', status: 'approved' }])
    renderWith(store, <GateCard id="g1" />)
    const card = document.querySelector('[data-weft="gate"]')!
    expect(card.getAttribute('data-state')).toBe('approved')
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(card.querySelector('[data-weft="gate-title"]')!.textContent).toBe('Approved')
    expect(card.querySelector('[data-weft="gate-status"]')).toBeNull()
  })
})

describe('suggestions, status and composer', () => {
  it('hands a picked suggestion to onSuggest', () => {
    const onSuggest = vi.fn()
    const store = storeWith([{ op: 'turn.open', turnId: 't1', role: 'assistant', suggestions: ['Why?', 'Show the numbers'] }])
    renderWith(store, <WeftCallbacksProvider onSuggest={onSuggest}><Suggestions turnId="t1" /></WeftCallbacksProvider>)
    expect(onSuggest).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Show the numbers' }))
    expect(onSuggest).toHaveBeenCalledWith('Show the numbers')
  })

  it('shows the stream error and calls onRetry', () => {
    const onRetry = vi.fn()
    const store = storeWith([{ op: 'stream.status', status: 'error', error: weftError('network', 'The connection dropped') }])
    renderWith(store, <StatusBar onRetry={onRetry} />)
    const bar = screen.getByRole('status')
    expect(bar.getAttribute('data-state')).toBe('error')
    expect(bar.textContent).toContain('The connection dropped')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })

  it('sends the typed text, clears the box, and offers Stop while busy', () => {
    const send = vi.fn()
    const stop = vi.fn()
    const store = storeWith([])
    renderWith(store, <Composer send={send} stop={stop} />)
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    const sendButton = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement
    // One button: Send while idle, Stop while an answer is coming.
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull()
    expect(sendButton.disabled).toBe(true)
    fireEvent.change(box, { target: { value: '  What is the weather?  ' } })
    fireEvent.click(sendButton)
    expect(send).toHaveBeenCalledWith('What is the weather?')
    expect(box.value).toBe('')

    act(() => store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }]))
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull()
    const stopButton = screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement
    expect(stopButton.getAttribute('data-state')).toBe('stop')
    fireEvent.click(stopButton)
    expect(stop).toHaveBeenCalledTimes(1)
    // Escape in the box stops too.
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(stop).toHaveBeenCalledTimes(2)
    act(() => store.getState().dispatch([{ op: 'stream.status', status: 'done' }]))
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(stop).toHaveBeenCalledTimes(2)
  })

  it('sends on Enter and keeps Shift+Enter for a new line', () => {
    const send = vi.fn()
    renderWith(storeWith([]), <Composer send={send} defaultValue="Hello" />)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
    expect(send).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(send).toHaveBeenCalledWith('Hello')
  })
})
