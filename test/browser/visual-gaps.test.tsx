/**
 * The last gaps of the side-by-side with assistant-ui, as behaviour: the
 * composer's default placeholder, a gate's title after its answer, a plain
 * answer's headline, a held call's input shown once, grouped tool calls, data
 * parts, source chips and the narrow thread list.
 */
import '../../src/components/styles.css'
import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/components/composer'
import { GateCard } from '../../src/components/gate-card'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { LabelsProvider } from '../../src/components/labels'
import { renderWith, storeWith } from './support'

describe('the composer\'s placeholder', () => {
  it('is "Send a message…" by default, a label a host translates, and the host\'s own when given (even empty)', () => {
    const store = storeWith([])
    const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    const { unmount } = renderWith(store, <Composer send={() => undefined} />)
    expect(box().placeholder).toBe('Send a message…')
    unmount()
    const translated = renderWith(store, <LabelsProvider labels={{ composerPlaceholder: 'Écrivez un message…' }}><Composer send={() => undefined} /></LabelsProvider>)
    expect(box().placeholder).toBe('Écrivez un message…')
    translated.unmount()
    const own = renderWith(store, <Composer send={() => undefined} placeholder="Ask anything" />)
    expect(box().placeholder).toBe('Ask anything')
    own.unmount()
    renderWith(store, <Composer.Root send={() => undefined}><Composer.Input placeholder="" /></Composer.Root>)
    expect(box().placeholder).toBe('')
  })
})

describe('a gate\'s title', () => {
  it('asks while pending, then says the outcome: Approved, Rejected, Answered', () => {
    for (const [kind, status, asked, said] of [['tool-approval', 'approved', 'Approval needed', 'Approved'], ['approval', 'rejected', 'Approval needed', 'Rejected'], ['question', 'answered', 'Your answer', 'Answered']] as const) {
      const store = storeWith([
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind, question: 'Go on?', payload: {} } },
      ])
      const { unmount } = renderWith(store, <WeftCallbacksProvider onGateAnswer={() => undefined}><GateCard id="g1" /></WeftCallbacksProvider>)
      const title = () => document.querySelector('[data-weft="gate-title"]')!.textContent
      expect(title()).toBe(asked)
      expect(screen.getByRole('group', { name: asked })).toBeTruthy()
      act(() => store.getState().dispatch([{ op: 'gate.resolve', gateId: 'g1', status, response: { reason: 'because' } }]))
      expect(title()).toBe(said)
      expect(screen.getByRole('group', { name: said }).getAttribute('data-state')).toBe(status)
      expect(document.querySelector('[data-weft="gate-status"]')!.textContent).toBe('because')
      unmount()
    }
  })
})
