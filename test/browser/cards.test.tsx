import { act, fireEvent, screen, within } from '@testing-library/react'
import { createRef } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Composer } from '../../src/components/composer'
import { GateCard } from '../../src/components/gate-card'
import { LabelsProvider } from '../../src/components/labels'
import type { ToolRendererProps } from '../../src/components/messages/tool'
import { RendererProvider, type MessageRendererProps } from '../../src/components/renderers'
import { Sources } from '../../src/components/sources'
import { Trace } from '../../src/components/trace'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { renderWith, storeWith } from './support'

const toolTurn = (props: Record<string, unknown>, status: 'streaming' | 'done' = 'done'): Op[] => [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'message.put', turnId: 't1', messageId: 'c1', type: 'tool', status, props: { toolCallId: 'c1', name: 'get_weather', ...props } },
]

describe('one bad value does not take the transcript down', () => {
  it('shows a short note in place of a message whose renderer throws; the others stay', () => {
    const Boom = ({ message }: MessageRendererProps) => {
      throw new Error(`cannot draw ${message.id}`)
    }
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Before' } },
      { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'chart', status: 'done', props: {} },
      { op: 'message.put', turnId: 't1', messageId: 'm3', type: 'text', status: 'done', props: { content: 'After' } },
    ])
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { container } = renderWith(store, <RendererProvider renderers={{ chart: Boom }}><Transcript.Root /></RendererProvider>)
    spy.mockRestore()
    const messages = [...container.querySelectorAll('[data-weft="message"]')]
    expect(messages.map((m) => m.textContent)).toEqual(['Before', 'This part could not be shown.', 'After'])
  })

  it('shows a short note in place of a trace row that cannot be drawn; the other rows stay', () => {
    // A value that refuses to become text at all (as a host's own object in a recorded stream may).
    const hostile = { toJSON: () => { throw new Error('no JSON') }, toString: () => { throw new Error('no text') } }
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'tool', status: 'done', label: 'Broken row', args: hostile } },
      { op: 'trace.node', turnId: 't1', node: { id: 'n2', kind: 'tool', status: 'done', label: 'Fine row' } },
    ])
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { container } = renderWith(store, <Trace.Root turnId="t1" />)
    spy.mockRestore()
    const rows = [...container.querySelectorAll('[data-weft="trace-node"]')]
    expect(rows).toHaveLength(2)
    expect(rows[0]!.querySelector('[data-weft="part-error"]')?.textContent).toBe('This part could not be shown.')
    expect(rows[1]!.querySelector('[data-weft="trace-label"]')?.textContent).toBe('Fine row')
    expect(rows[1]!.querySelector('[data-weft="part-error"]')).toBeNull()
  })

  it('turns every server value of a trace row into text (an object as a name does not crash)', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'search', status: 'done', label: { html: '<b>x</b>' } as never, actor: { id: 'a', name: { first: 'Ada' } as never }, text: ['a', 'b'] as never, detail: { deep: true } } },
      { op: 'trace.node', turnId: 't1', node: { id: 'n2', kind: 'tool', status: 'done', label: 'Fine row', tool: 42 as never } },
    ])
    const { container } = renderWith(store, <Trace.Root turnId="t1" />)
    const rows = [...container.querySelectorAll('[data-weft="trace-node"]')]
    expect(rows.map((r) => r.querySelector('[data-weft="trace-label"]')?.textContent)).toEqual(['search', 'Fine row'])
    expect(container.querySelector('[data-weft="trace-actor"]')).toBeNull()
    expect(container.querySelector('[data-weft="part-error"]')).toBeNull()
  })
})

describe('tool cards', () => {
  it('folds a finished call to one line: name, state, input summary; opens to input and output', () => {
    const { container } = renderWith(storeWith(toolTurn({ state: 'output-available', input: { city: 'Paris', units: 'metric' }, output: { tempC: 18 } })), <Transcript.Root />)
    const card = container.querySelector<HTMLDetailsElement>('[data-weft="tool"]')!
    expect(card.open).toBe(false)
    const header = card.querySelector('[data-weft="tool-header"]')!
    expect(header.querySelector('[data-weft="tool-name"]')!.textContent).toBe('get_weather')
    expect(header.querySelector('[data-weft="tool-state"]')!.textContent).toBe('Done')
    expect(header.querySelector('[data-weft="tool-summary"]')!.textContent).toBe('city: Paris, units: metric')
    fireEvent.click(header)
    expect(card.open).toBe(true)
    expect(card.querySelector('[data-weft="tool-output"] pre')!.textContent).toBe('{\n  "tempC": 18\n}')
    fireEvent.click(header)
    expect(card.open).toBe(false)
  })

  it('stays open while running, waiting for approval or failed', () => {
    for (const [state, status] of [['input-streaming', 'streaming'], ['input-available', 'streaming'], ['approval-requested', 'streaming'], ['output-error', 'done']] as const) {
      const { container, unmount } = renderWith(storeWith(toolTurn({ state, input: { city: 'Paris' }, errorText: state === 'output-error' ? 'Upstream 502' : undefined }, status)), <Transcript.Root />)
      expect([state, container.querySelector<HTMLDetailsElement>('[data-weft="tool"]')!.open]).toEqual([state, true])
      unmount()
    }
  })

  it('folds itself when the call finishes, unless the person chose otherwise', () => {
    const store = storeWith(toolTurn({ state: 'input-available', input: { city: 'Paris' } }, 'streaming'))
    const { container } = renderWith(store, <Transcript.Root />)
    const card = () => container.querySelector<HTMLDetailsElement>('[data-weft="tool"]')!
    expect(card().open).toBe(true)
    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't1', messageId: 'c1', action: 'set', path: 'state', value: 'output-available' },
      { op: 'message.delta', turnId: 't1', messageId: 'c1', action: 'set', path: 'output', value: { tempC: 18 } },
      { op: 'message.finish', messageId: 'c1', status: 'done' },
    ]))
    expect(card().open).toBe(false)
    expect(card().querySelector('[data-weft="tool-duration"]')).not.toBeNull()
  })

  it('cuts a long output with Show more', () => {
    const output = Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\n')
    const { container } = renderWith(storeWith(toolTurn({ state: 'output-available', input: {}, output })), <Transcript.Root />)
    fireEvent.click(container.querySelector('[data-weft="tool-header"]')!)
    const pre = () => container.querySelector('[data-weft="tool-output"] pre')!
    expect(pre().textContent).not.toContain('line 79')
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }))
    expect(pre().textContent).toContain('line 79')
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true')
  })

  it('hands a host tool renderer the typed input, output and state', () => {
    const seen: Array<ToolRendererProps<{ city: string }, { tempC: number }>> = []
    function WeatherCard(props: ToolRendererProps<{ city: string }, { tempC: number }>) {
      seen.push(props)
      return <p data-testid="weather">{props.input?.city}: {props.output?.tempC} °C</p>
    }
    renderWith(storeWith(toolTurn({ state: 'output-available', input: { city: 'Paris' }, output: { tempC: 18 } })), (
      <RendererProvider toolRenderers={{ get_weather: WeatherCard }}><Transcript.Root /></RendererProvider>
    ))
    expect(screen.getByTestId('weather').textContent).toBe('Paris: 18 °C')
    expect(seen.at(-1)!.state).toBe('output-available')
    expect(document.querySelector('[data-weft="tool-header"]')).toBeNull()
  })
})

describe('gate cards', () => {
  const gated = (status?: 'approved' | 'rejected' | 'answered', response?: unknown): Op[] => [
    ...toolTurn({ state: 'approval-requested', input: { to: 'nadia@contoso.example', subject: 'Renewal' } }, 'streaming'),
    { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'tool-approval', toolCallId: 'c1', question: 'Send this email?', payload: {} } },
    ...(status ? [{ op: 'gate.resolve', gateId: 'g1', status, response } as Op] : []),
  ]

  it('has a title, the question and the held call; focus moves to it; the reason reaches the host', () => {
    const onGateAnswer = vi.fn()
    renderWith(storeWith(gated()), <WeftCallbacksProvider onGateAnswer={onGateAnswer}><Transcript.Root /></WeftCallbacksProvider>)
    const card = screen.getByRole('group', { name: 'Approval needed' })
    expect(document.activeElement).toBe(card)
    expect(within(card).getByText('Send this email?')).toBeTruthy()
    // The held call's input shows once, in its own card, open while it waits.
    expect(card.querySelector('[data-weft="gate-call"]')).toBeNull()
    expect(document.querySelector<HTMLDetailsElement>('[data-weft="tool"]')!.open).toBe(true)
    expect(document.querySelector('[data-weft="tool-input"]')!.textContent).toContain('nadia@contoso.example')
    expect(card.textContent).not.toContain('nadia@contoso.example')
    fireEvent.change(within(card).getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: 'Wrong recipient' } })
    fireEvent.click(within(card).getByRole('button', { name: 'Reject' }))
    expect(onGateAnswer).toHaveBeenCalledWith(expect.objectContaining({ id: 'g1' }), 'rejected', { reason: 'Wrong recipient' })
  })

  it('shows the answer once answered, and the tool badge follows the gate', () => {
    const { container } = renderWith(storeWith(gated('rejected', { reason: 'Wrong recipient' })), <Transcript.Root />)
    const card = container.querySelector('[data-weft="gate"]')!
    expect(card.querySelector('button')).toBeNull()
    expect(card.querySelector('[data-weft="gate-title"]')!.textContent).toBe('Rejected')
    expect(card.querySelector('[data-weft="gate-status"]')!.textContent).toBe('Wrong recipient')
    const badge = container.querySelector('[data-weft="tool-state"]')!
    expect([badge.getAttribute('data-state'), badge.textContent]).toEqual(['output-denied', 'Denied'])
    const approved = renderWith(storeWith(gated('approved')), <Transcript.Root />).container
    expect(approved.querySelector('[data-weft="tool-state"]')!.textContent).toBe('Answered')
  })

  it('asks for words when the gate asks a question', () => {
    const onGateAnswer = vi.fn()
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'gate.open', gate: { id: 'g2', turnId: 't1', kind: 'interrupt', question: 'Which account?', payload: {} } },
    ])
    renderWith(store, <WeftCallbacksProvider onGateAnswer={onGateAnswer}><GateCard id="g2" /></WeftCallbacksProvider>)
    const submit = screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    fireEvent.change(screen.getByRole('textbox', { name: 'Your answer' }), { target: { value: 'Contoso EU' } })
    fireEvent.click(submit)
    expect(onGateAnswer).toHaveBeenCalledWith(expect.objectContaining({ id: 'g2' }), 'answered', { value: 'Contoso EU' })
  })
})

describe('labels and composition', () => {
  it('takes every visible string from the labels', () => {
    renderWith(storeWith([]), <LabelsProvider labels={{ send: '发送', message: '消息' }}><Composer send={() => undefined} /></LabelsProvider>)
    expect(screen.getByRole('button', { name: '发送' })).toBeTruthy()
    expect(screen.getByRole('textbox', { name: '消息' })).toBeTruthy()
  })

  it('passes className, style, DOM props and the ref through', () => {
    const log = createRef<HTMLDivElement>()
    const list = createRef<HTMLOListElement>()
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://a.example', title: 'A' } },
    ])
    renderWith(store, (
      <>
        <Transcript.Root ref={log} className="my-log" style={{ maxHeight: 100 }} data-testid="log" />
        <Sources turnId="t1" ref={list} className="chips" />
      </>
    ))
    expect(log.current).toBe(screen.getByTestId('log'))
    expect(log.current!.className).toBe('my-log')
    expect(log.current!.style.maxHeight).toBe('100px')
    expect(log.current!.getAttribute('role')).toBe('log')
    expect(list.current!.className).toBe('chips')
  })

  it('renders the host’s own element for a part with asChild, keeping both click handlers', () => {
    const send = vi.fn()
    const mine = vi.fn()
    renderWith(storeWith([]),
      <Composer.Root send={send} busy={false} defaultValue="Hi">
        <Composer.Input />
        <Composer.Send asChild>
          <button type="submit" className="fancy" onClick={mine}>Go</button>
        </Composer.Send>
      </Composer.Root>,
    )
    const button = screen.getByRole('button', { name: 'Go' })
    expect(button.getAttribute('data-weft')).toBe('composer-send')
    expect(button.className).toBe('fancy')
    fireEvent.click(button)
    expect(mine).toHaveBeenCalledTimes(1)
    expect(send).toHaveBeenCalledWith('Hi')
  })
})
