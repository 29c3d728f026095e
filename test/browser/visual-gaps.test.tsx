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
import { GateCard, Gates } from '../../src/components/gate-card'
import { Transcript } from '../../src/components/transcript'
import { TraceHeadline } from '../../src/components/trace'
import type { Op } from '../../src/core/model/ops'
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

/** An answer as the UI message stream folds it: a step (its block and timeline row) around its parts. */
function stepAnswer(parts: Op[], finished: boolean): Op[] {
  const ops: Op[] = [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'block.open', turnId: 't1', blockId: 't1/step/1', kind: 'step', label: 'Step 1' },
    { op: 'trace.node', turnId: 't1', node: { id: 't1/step/1', kind: 'step', label: 'Step 1', status: 'start' } },
    ...parts,
  ]
  if (finished) ops.push({ op: 'block.close', blockId: 't1/step/1', status: 'done' }, { op: 'trace.node', turnId: 't1', node: { id: 't1/step/1', status: 'done' } }, { op: 'turn.finish', turnId: 't1', status: 'done' })
  return ops
}
const text: Op = { op: 'message.put', turnId: 't1', messageId: 't1/text', blockId: 't1/step/1', type: 'text', status: 'done', props: { content: 'Hello.' } }
const reasoning: Op = { op: 'trace.node', turnId: 't1', node: { id: 't1/r', kind: 'reason', label: 'Reasoning', status: 'done', parentId: 't1/step/1' } }
const tool: Op[] = [
  { op: 'message.put', turnId: 't1', messageId: 't1/tool', blockId: 't1/step/1', type: 'tool', status: 'done', props: { toolCallId: 'c1', name: 'search', state: 'output-available', input: {}, output: {} } },
  { op: 'trace.node', turnId: 't1', node: { id: 't1/tool', kind: 'tool', tool: 'search', label: 'search', status: 'done' } },
]

describe('a plain answer\'s headline', () => {
  const headline = (ops: Op[]) => {
    const { container, unmount } = renderWith(storeWith(ops), <TraceHeadline turnId="t1" />)
    const text = container.querySelector('[data-weft="trace-headline"]')?.textContent ?? null
    unmount()
    return text
  }

  it('says no "1 step" once it landed, nor "Step 1" while it streams', () => {
    expect(headline(stepAnswer([text], true))).toBeNull()
    expect(headline(stepAnswer([reasoning, text], true))).toBeNull()
    expect(headline(stepAnswer([], false))).toBe('Working…')
    expect(headline(stepAnswer([text], false))).toBeNull()
  })

  it('still counts its sources, and the steps of an answer that called a tool', () => {
    expect(headline(stepAnswer([text, { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://example.com', title: 'Example' } }], true))).toBe('1 source')
    expect(headline(stepAnswer([...tool, text], true))).toBe('2 steps')
    expect(headline(stepAnswer([...tool], false))).toBe('Step 1')
    const nested: Op = { op: 'trace.node', turnId: 't1', node: { id: 't1/search', parentId: 't1/step/1', kind: 'search', label: 'Searched the web', status: 'done' } }
    expect(headline(stepAnswer([nested, text], true))).toBe('1 step')
  })
})

describe('a held call\'s input, once', () => {
  const ops: Op[] = [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.put', turnId: 't1', messageId: 'c1', type: 'tool', status: 'streaming', props: { toolCallId: 'c1', name: 'send_email', state: 'approval-requested', input: { to: 'nadia@contoso.example' } } },
    { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'tool-approval', toolCallId: 'c1', question: 'Send it?', payload: { to: 'nadia@contoso.example' } } },
  ]
  const inputs = () => [...document.querySelectorAll('pre')].filter((pre) => pre.textContent!.includes('nadia@contoso.example')).length

  it('in a transcript: the open tool card shows it, the gate does not (nor as its payload)', () => {
    renderWith(storeWith(ops), <WeftCallbacksProvider onGateAnswer={() => undefined}><Transcript.Root /></WeftCallbacksProvider>)
    const gate = document.querySelector('[data-weft="gate"]')!
    expect(gate.querySelector('details')).toBeNull()
    expect(gate.textContent).not.toContain('nadia')
    expect(document.querySelector<HTMLDetailsElement>('[data-weft="tool"]')!.open).toBe(true)
    expect(inputs()).toBe(1)
  })

  it('a gate on its own still shows the call it holds, and Gates passes showCall on', () => {
    const { unmount } = renderWith(storeWith(ops), <GateCard id="g1" />)
    expect(document.querySelector('[data-weft="gate-call"] [data-weft="tool-name"]')!.textContent).toBe('send_email')
    expect(inputs()).toBe(1)
    unmount()
    renderWith(storeWith(ops), <Gates turnId="t1" showCall={false} />)
    expect(document.querySelector('[data-weft="gate"] details')).toBeNull()
  })
})
