// @vitest-environment jsdom
/**
 * `GateCard` and `Gates`, rule by rule, in jsdom: what a card shows for each kind
 * of gate and status, the call or payload it folds, the exact answer it hands the
 * host's `onGateAnswer` or the store's client for each button, and how it locks
 * and unlocks its buttons. (The browser files run the same cards against the mock
 * agent's loop.)
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createRef, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider, type WeftCallbacks } from '../../src/components/callbacks'
import { GateCard, Gates } from '../../src/components/gate-card'
import type { Gate } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import type { StoreClient } from '../../src/react/client-slots'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(cleanup)

type GateInput = Partial<Gate> & { kind: string }

/** A store with turn `t1` holding gate `g1` (and what `ops` add), and the client bound to it. */
/** The client each test binds to its store, handed to the provider as `client`. */
const bound = new WeakMap<AgentStore, StoreClient>()

function storeWith(gate: GateInput, ops: Op[] = [], result: { ok: true } | { ok: false; error: { message: string } } = { ok: true }) {
  const store = createAgentStore()
  store.getState().dispatch([
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    ...ops,
    { op: 'gate.open', gate: { id: 'g1', turnId: 't1', question: '', payload: undefined, ...gate } as Gate },
  ])
  const answer = vi.fn(async () => result)
  return { store, answer, bind: () => void bound.set(store, { answer, selectBranch: vi.fn(), regenerate: vi.fn() } as unknown as StoreClient) }
}

function show(store: AgentStore, card: ReactNode, callbacks?: WeftCallbacks) {
  const inner = callbacks ? <WeftCallbacksProvider {...callbacks}>{card}</WeftCallbacksProvider> : card
  return render(<AgentProvider store={store} client={bound.get(store)}>{inner}</AgentProvider>)
}

const card = () => document.querySelector('[data-weft="gate"]') as HTMLDivElement
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const box = () => screen.getByRole('textbox') as HTMLTextAreaElement
const type = (text: string) => fireEvent.change(box(), { target: { value: text } })
const settle = () => act(async () => { await Promise.resolve() })

describe('GateCard: what it shows', () => {
  it('an answered gate stops asking: its title is the outcome, said once', () => {
    for (const [kind, status, said] of [['approval', 'approved', 'Approved'], ['approval', 'rejected', 'Rejected'], ['question', 'answered', 'Answered']] as const) {
      const { store, bind } = storeWith({ kind, question: 'Delete the report?', status })
      bind()
      const { unmount } = show(store, <GateCard id="g1" />)
      const group = screen.getByRole('group', { name: said })
      expect(group.querySelector('[data-weft="gate-title"]')!.textContent).toBe(said)
      expect(group.querySelector('[data-weft="gate-title"] [data-weft="gate-status-label"]')!.textContent).toBe(said)
      expect(group.textContent).not.toContain('Approval needed')
      expect(group.textContent).not.toContain('Your answer')
      expect(group.textContent!.split(said).length - 1).toBe(1)
      unmount()
    }
  })

  it('an approval: its title, question, reason box and both buttons, focused as it opens', () => {
    const { store, bind } = storeWith({ kind: 'approval', question: 'Delete the report?' })
    bind()
    show(store, <GateCard id="g1" />)
    const group = screen.getByRole('group', { name: 'Approval needed' })
    expect(group.getAttribute('data-weft')).toBe('gate')
    expect(group.getAttribute('data-state')).toBe('pending')
    expect(group.getAttribute('data-kind')).toBe('approval')
    expect(group.getAttribute('tabindex')).toBe('-1')
    expect(document.activeElement).toBe(group)
    expect(group.querySelector('[data-weft="gate-title"]')!.textContent).toBe('Approval needed')
    expect(group.querySelector('[data-weft="gate-question"]')!.textContent).toBe('Delete the report?')
    expect(group.querySelector('details')).toBeNull()
    expect(screen.getByRole('textbox', { name: 'Reason (optional)' }).getAttribute('rows')).toBe('1')
    expect([button('Approve').disabled, button('Reject').disabled, box().disabled]).toEqual([false, false, false])
    expect(group.querySelector('[data-weft="gate-status"]')).toBeNull()
  })

  it('the default question, and the host\'s button labels', () => {
    const { store, bind } = storeWith({ kind: 'approval' })
    bind()
    show(store, <GateCard id="g1" approveLabel="Send" rejectLabel="Don't send" />)
    expect(card().querySelector('[data-weft="gate-question"]')!.textContent).toBe('The agent is waiting for your approval.')
    expect(button('Send').getAttribute('data-weft')).toBe('gate-approve')
    expect(button("Don't send").getAttribute('data-weft')).toBe('gate-reject')
  })

  it('no focus when focusOnOpen is false, nor for a card that opens answered', () => {
    const first = storeWith({ kind: 'approval' })
    show(first.store, <GateCard id="g1" focusOnOpen={false} />)
    expect(document.activeElement).toBe(document.body)
    cleanup()
    const second = storeWith({ kind: 'approval', status: 'approved' })
    show(second.store, <GateCard id="g1" />)
    expect(document.activeElement).toBe(document.body)
  })

  it.each(['interrupt', 'input', 'question'])('a gate of kind %s asks for words: its title, an answer box and Submit', (kind) => {
    const { store, bind } = storeWith({ kind, question: 'Which city?' })
    bind()
    show(store, <GateCard id="g1" approveLabel="ignored" />)
    const group = screen.getByRole('group', { name: 'Your answer' })
    expect(group.querySelector('[data-weft="gate-title"]')!.textContent).toBe('Your answer')
    expect(screen.getByRole('textbox', { name: 'Your answer' }).getAttribute('rows')).toBe('2')
    expect(button('Submit').disabled).toBe(true)
    type('   ')
    expect(button('Submit').disabled).toBe(true)
    type(' Paris ')
    expect(button('Submit').disabled).toBe(false)
    expect(button('Reject').disabled).toBe(false)
  })

  it('a review of action requests is a yes or no, with its payload folded under Details', () => {
    const payload = { interrupt: { action_requests: [{ name: 'a' }, { name: 'b' }] } }
    const { store, bind } = storeWith({ kind: 'interrupt', payload })
    bind()
    show(store, <GateCard id="g1" />)
    expect(screen.getByRole('group', { name: 'Approval needed' })).toBeTruthy()
    expect(button('Approve').disabled).toBe(false)
    const details = card().querySelector('details')!
    expect(details.getAttribute('data-weft')).toBe('gate-payload')
    expect(details.querySelector('summary')!.textContent).toBe('Details')
    expect(details.querySelector('pre')!.textContent).toBe(JSON.stringify(payload, null, 2))
    expect(details.querySelector('pre')!.getAttribute('tabindex')).toBe('0')
  })

  it('folds a payload only when it holds something', () => {
    const shown = (payload: unknown) => {
      const { store } = storeWith({ kind: 'approval', payload })
      const { unmount } = show(store, <GateCard id="g1" />)
      const pre = card().querySelector('details[data-weft="gate-payload"] pre')
      unmount()
      return pre?.textContent ?? null
    }
    expect([shown(undefined), shown(null), shown({}), shown([])]).toEqual([null, null, null, null])
    expect([shown('plain'), shown(0), shown(false), shown({ a: 1 }), shown([1])]).toEqual(['plain', '0', 'false', '{\n  "a": 1\n}', '[\n  1\n]'])
  })

  it('folds the tool call it holds, by name and input, over its payload', () => {
    const call: Op = { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'tool', props: { toolCallId: 'call-1', name: 'deleteFile', input: { path: '/r.txt' }, state: 'input-available' } }
    const { store } = storeWith({ kind: 'approval', toolCallId: 'call-1', payload: { other: true } }, [call])
    show(store, <GateCard id="g1" />)
    const details = card().querySelector('details')!
    expect(details.getAttribute('data-weft')).toBe('gate-call')
    expect(details.querySelector('[data-weft="tool-name"]')!.textContent).toBe('deleteFile')
    expect(details.querySelector('[data-weft="tool-summary"]')!.textContent).toBe('path: /r.txt')
    expect(details.querySelector('summary')!.textContent).toBe('deleteFile path: /r.txt')
    expect(details.querySelector('pre')!.textContent).toBe('{\n  "path": "/r.txt"\n}')
  })

  it('a held call without a name is a Tool; a call of another id, or a message that is no tool, is not held', () => {
    const nameless: Op = { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'tool', props: { toolCallId: 'call-1', input: 'x' } }
    const first = storeWith({ kind: 'approval', toolCallId: 'call-1' }, [nameless])
    show(first.store, <GateCard id="g1" />)
    expect(card().querySelector('[data-weft="tool-name"]')!.textContent).toBe('Tool')
    cleanup()
    const others: Op[] = [
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'tool', props: { toolCallId: 'call-2', name: 'other', input: {} } },
      { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'text', props: { toolCallId: 'call-1', content: 'x' } },
    ]
    const second = storeWith({ kind: 'approval', toolCallId: 'call-1' }, others)
    show(second.store, <GateCard id="g1" />)
    expect(card().querySelector('details')).toBeNull()
    cleanup()
    const third = storeWith({ kind: 'approval' }, [{ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'tool', props: { name: 'n', input: {} } }])
    show(third.store, <GateCard id="g1" />)
    expect(card().querySelector('details')).toBeNull()
  })

  it('an answered gate shows its status as its title, the answer given on a status line, and no buttons', () => {
    const answered = (status: string, response: unknown) => {
      const { store } = storeWith({ kind: 'approval', status: status as Gate['status'], response })
      const { unmount } = show(store, <GateCard id="g1" />)
      const group = card()
      expect(group.querySelector('form')).toBeNull()
      expect(screen.queryAllByRole('button')).toEqual([])
      const line = group.querySelector('[data-weft="gate-status"]')
      // The status line is there only to say the answer.
      expect(line === null).toBe(line?.querySelector('[data-weft="gate-answer"]') == null)
      const result = [group.getAttribute('data-state'), group.querySelector('[data-weft="gate-title"] [data-weft="gate-status-label"]')!.textContent, line?.querySelector('[data-weft="gate-answer"]')?.textContent ?? null]
      if (line) expect(line.getAttribute('data-state')).toBe(status)
      unmount()
      return result
    }
    expect(answered('approved', { approved: true })).toEqual(['approved', 'Approved', null])
    expect(answered('rejected', { approved: false, reason: 'not now' })).toEqual(['rejected', 'Rejected', 'not now'])
    expect(answered('answered', { value: 'Paris' })).toEqual(['answered', 'Answered', 'Paris'])
    expect(answered('answered', { answer: 'Rome' })).toEqual(['answered', 'Answered', 'Rome'])
    expect(answered('answered', { text: 'Oslo' })).toEqual(['answered', 'Answered', 'Oslo'])
    expect(answered('answered', { reason: '', value: 'Lima' })).toEqual(['answered', 'Answered', 'Lima'])
    expect(answered('answered', 'Bern')).toEqual(['answered', 'Answered', 'Bern'])
    expect(answered('expired', undefined)).toEqual(['expired', 'Expired', null])
    expect(answered('cancelled', 3)).toEqual(['cancelled', 'Cancelled', '3'])
    expect(answered('withdrawn', undefined)).toEqual(['withdrawn', 'withdrawn', null])
  })

  it('renders nothing for a gate the store does not hold; forwards its ref', () => {
    const { store } = storeWith({ kind: 'approval' })
    const { container } = show(store, <GateCard id="nope" />)
    expect(container.innerHTML).toBe('')
    cleanup()
    const ref = createRef<HTMLDivElement>()
    show(store, <GateCard id="g1" ref={ref} className="mine" />)
    expect(ref.current).toBe(card())
    expect(card().className).toBe('mine')
  })
})

describe('GateCard: answering through the store\'s client', () => {
  it('Approve and Reject send yes or no, with the trimmed reason when there is one', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['Approve', '', { approved: true }],
      ['Approve', '  fine  ', { approved: true, reason: 'fine' }],
      ['Reject', '', { approved: false }],
      ['Reject', ' not now ', { approved: false, reason: 'not now' }],
      ['Reject', '   ', { approved: false }],
    ]
    for (const [name, reason, expected] of cases) {
      const { store, answer, bind } = storeWith({ kind: 'approval' })
      bind()
      const { unmount } = show(store, <GateCard id="g1" />)
      type(reason)
      fireEvent.click(button(name))
      await settle()
      expect(answer.mock.calls, `${name} ${JSON.stringify(reason)}`).toEqual([['g1', expected]])
      unmount()
    }
  })

  it('a click locks both buttons and the box at once, and a second click sends nothing', async () => {
    const { store, answer, bind } = storeWith({ kind: 'approval' })
    bind()
    show(store, <GateCard id="g1" />)
    fireEvent.click(button('Approve'))
    expect([button('Approve').disabled, button('Reject').disabled, box().disabled]).toEqual([true, true, true])
    fireEvent.click(button('Reject'))
    fireEvent.submit(card().querySelector('form')!)
    await settle()
    expect(answer).toHaveBeenCalledTimes(1)
  })

  it('Enter in the form (a submit) approves an approval and answers a question', async () => {
    const approval = storeWith({ kind: 'approval' })
    approval.bind()
    const first = show(approval.store, <GateCard id="g1" />)
    fireEvent.submit(card().querySelector('form')!)
    await settle()
    expect(approval.answer.mock.calls).toEqual([['g1', { approved: true }]])
    first.unmount()

    const question = storeWith({ kind: 'question' })
    question.bind()
    show(question.store, <GateCard id="g1" />)
    type('  Paris  ')
    fireEvent.submit(card().querySelector('form')!)
    await settle()
    expect(question.answer.mock.calls).toEqual([['g1', { value: 'Paris' }]])
  })

  it('a question rejected is a no, with the words as its reason', async () => {
    const { store, answer, bind } = storeWith({ kind: 'input' })
    bind()
    show(store, <GateCard id="g1" />)
    type('no idea')
    fireEvent.click(button('Reject'))
    await settle()
    expect(answer.mock.calls).toEqual([['g1', { approved: false, reason: 'no idea' }]])
  })

  it('a review gets one decision per action request', async () => {
    const payload = { interrupt: { action_requests: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } }
    const run = async (name: string, reason: string) => {
      const { store, answer, bind } = storeWith({ kind: 'interrupt', payload })
      bind()
      const { unmount } = show(store, <GateCard id="g1" />)
      type(reason)
      fireEvent.click(button(name))
      await settle()
      unmount()
      return answer.mock.calls
    }
    expect(await run('Approve', 'sure')).toEqual([['g1', { decisions: [{ type: 'approve' }, { type: 'approve' }, { type: 'approve' }] }]])
    expect(await run('Reject', '')).toEqual([['g1', { decisions: [{ type: 'reject' }, { type: 'reject' }, { type: 'reject' }] }]])
    const no = { type: 'reject', message: 'too many' }
    expect(await run('Reject', ' too many ')).toEqual([['g1', { decisions: [no, no, no] }]])
  })

  it('an answer the client refuses unlocks the buttons and shows why; the next click clears it', async () => {
    const { store, answer, bind } = storeWith({ kind: 'approval' }, [], { ok: false, error: { message: 'the agent is down' } })
    bind()
    show(store, <GateCard id="g1" />)
    fireEvent.click(button('Approve'))
    await settle()
    expect(screen.getByRole('alert').textContent).toBe('the agent is down')
    expect(screen.getByRole('alert').getAttribute('data-weft')).toBe('gate-error')
    expect([button('Approve').disabled, button('Reject').disabled]).toEqual([false, false])
    answer.mockImplementation(() => new Promise(() => {}))
    fireEvent.click(button('Reject'))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(answer).toHaveBeenCalledTimes(2)
  })

  it('an answer that goes through leaves the buttons locked', async () => {
    const { store, bind } = storeWith({ kind: 'approval' })
    bind()
    show(store, <GateCard id="g1" />)
    fireEvent.click(button('Approve'))
    await settle()
    expect(button('Approve').disabled).toBe(true)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('with no client and no callback, nothing can be answered', () => {
    const { store } = storeWith({ kind: 'approval' })
    show(store, <GateCard id="g1" />)
    expect([button('Approve').disabled, button('Reject').disabled, box().disabled]).toEqual([true, true, true])
  })
})

describe('GateCard: answering through the host\'s onGateAnswer', () => {
  it('hands the gate, the answer and the trimmed words (a reason, or a value for a question), and never the client', async () => {
    const run = async (gate: GateInput, name: string, reason: string) => {
      const { store, answer, bind } = storeWith(gate)
      bind()
      const onGateAnswer = vi.fn()
      const { unmount } = show(store, <GateCard id="g1" />, { onGateAnswer })
      type(reason)
      fireEvent.click(button(name))
      await settle()
      expect(answer).not.toHaveBeenCalled()
      const locked = button(name).disabled
      unmount()
      return { calls: onGateAnswer.mock.calls.map(([g, a, d]) => [(g as Gate).id, a, d]), locked }
    }
    expect(await run({ kind: 'approval' }, 'Approve', '')).toEqual({ calls: [['g1', 'approved', undefined]], locked: true })
    expect(await run({ kind: 'approval' }, 'Reject', ' no ')).toEqual({ calls: [['g1', 'rejected', { reason: 'no' }]], locked: true })
    expect(await run({ kind: 'question' }, 'Submit', ' Paris ')).toEqual({ calls: [['g1', 'answered', { value: 'Paris' }]], locked: true })
    expect(await run({ kind: 'question' }, 'Reject', 'x')).toEqual({ calls: [['g1', 'rejected', { value: 'x' }]], locked: true })
  })

  it('works with no client bound', () => {
    const { store } = storeWith({ kind: 'approval' })
    const onGateAnswer = vi.fn()
    show(store, <GateCard id="g1" />, { onGateAnswer })
    expect(button('Approve').disabled).toBe(false)
    fireEvent.click(button('Approve'))
    expect(onGateAnswer).toHaveBeenCalledTimes(1)
  })
})

describe('Gates', () => {
  it('one card per gate of the turn, in order, and nothing for a turn without gates or a turn the store does not hold', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'turn.open', turnId: 't2', role: 'assistant' },
      { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'approval', question: 'One?', payload: undefined } },
      { op: 'gate.open', gate: { id: 'g2', turnId: 't1', kind: 'question', question: 'Two?', payload: undefined } },
    ])
    const ref = createRef<HTMLDivElement>()
    const { container } = render(<AgentProvider store={store}><Gates turnId="t1" ref={ref} id="mine" /><Gates turnId="t2" /><Gates /><Gates turnId="not-a-turn" /></AgentProvider>)
    const wrap = container.querySelector('[data-weft="gates"]')!
    expect(container.querySelectorAll('[data-weft="gates"]')).toHaveLength(1)
    expect(ref.current).toBe(wrap)
    expect(wrap.id).toBe('mine')
    expect([...wrap.querySelectorAll('[data-weft="gate"]')].map((g) => g.querySelector('[data-weft="gate-question"]')!.textContent)).toEqual(['One?', 'Two?'])
  })
})
