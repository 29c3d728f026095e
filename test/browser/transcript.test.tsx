import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { RendererProvider, type MessageRendererProps } from '../../src/components/renderers'
import { Trace } from '../../src/components/trace'
import { Transcript } from '../../src/components/transcript'
import { foldStream } from '../../src/umbrella/defaults'
import { createAgentStore } from '../../src/core/store/store'
import { yaoScenarios } from '../../mock/scenarios/yao'
import { renderWith, storeWith, textTurn } from './support'

const eventsOf = (name: string) => yaoScenarios.find((s) => s.name === name)!.frames.filter((f) => f.data !== undefined).map((f) => f.data)

describe('Transcript', () => {
  it('is a polite log that lists every turn', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 'u1', role: 'user' },
      { op: 'message.put', turnId: 'u1', messageId: 'u1/text', role: 'user', type: 'text', props: { content: 'Hi there' }, status: 'done' },
      ...textTurn('Hello back'),
    ])
    renderWith(store, <Transcript.Root />)
    const log = screen.getByRole('log')
    expect(log.getAttribute('aria-live')).toBe('polite')
    const turns = log.querySelectorAll('[data-weft="turn"]')
    expect([...turns].map((t) => t.getAttribute('data-role'))).toEqual(['user', 'assistant'])
    expect(turns[0]!.textContent).toBe('Hi there')
    expect(turns[1]!.textContent).toContain('Hello back')
  })

  it('marks a streaming message aria-busy, then clears it on the same node when the text finishes', () => {
    const store = storeWith(textTurn('Hel', 'streaming'))
    const { container } = renderWith(store, <Transcript.Root />)
    const message = () => container.querySelector('[data-weft="message"]')!
    expect(message().getAttribute('aria-busy')).toBe('true')
    expect(message().getAttribute('data-state')).toBe('streaming')
    const streamingText = message().querySelector('[data-weft="text"]')!
    expect(streamingText.getAttribute('aria-busy')).toBe('true')
    expect(streamingText.hasAttribute('aria-hidden')).toBe(false)

    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'append', path: 'content', value: 'lo' },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
    ]))
    expect(message().hasAttribute('aria-busy')).toBe(false)
    expect(message().getAttribute('data-state')).toBe('done')
    const finalText = message().querySelector('[data-weft="text"]')!
    expect(finalText.hasAttribute('aria-busy')).toBe(false)
    expect(finalText.textContent).toBe('Hello')
    // The same node: the end of an answer redraws nothing already drawn. The log announces it once busy clears.
    expect(finalText).toBe(streamingText)
  })

  it('renders a block where its first message arrived and its lanes inside it', () => {
    const state = foldStream(eventsOf('concurrent-threads'), { protocol: 'yao' })
    const { container } = renderWith(createAgentStore({ initialState: state }), <Transcript.Root />)
    const block = container.querySelector('[data-weft="block"]')!
    expect(block.getAttribute('data-state')).toBe('done')
    expect(block.querySelector('[data-weft="block-label"]')!.textContent).toBe('Morning briefing')
    const lanes = [...block.querySelectorAll('[data-weft="thread"]')]
    expect(lanes.map((l) => l.textContent)).toEqual([
      'Weather: Sunny, 25°C', 'News: markets open higher — tech leads.', 'Summary: a sunny day and a calm market.',
    ])
  })

  it('keeps blocks in order with their messages (LLM → MCP → LLM)', () => {
    const state = foldStream(eventsOf('sequential-blocks'), { protocol: 'yao' })
    const { container } = renderWith(createAgentStore({ initialState: state }), <Transcript.Root />)
    const blocks = [...container.querySelectorAll('[data-weft="block"]')]
    expect(blocks.map((b) => [b.getAttribute('data-kind'), b.querySelector('[data-weft="block-label"]')!.textContent])).toEqual([
      ['llm', 'Planning'], ['mcp', 'weather.forecast'], ['llm', 'Answer'],
    ])
    expect(blocks[2]!.textContent).toContain('Tomorrow will be sunny with a high of 25°C.')
    expect(blocks[1]!.querySelector('[data-weft="loading"]')!.textContent).toBe('Calling weather.forecast…')
  })

  it('shows a block that has no message yet', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'llm', label: 'Thinking it over' },
    ])
    const { container } = renderWith(store, <Transcript.Root />)
    const block = container.querySelector('[data-weft="block"]')!
    expect(block.getAttribute('data-state')).toBe('open')
    expect(block.textContent).toBe('Thinking it over')
  })
})

describe('a transcript that grows', () => {
  it('places messages, blocks and lanes as they arrive', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'llm', label: 'Plan' },
    ])
    const { container } = renderWith(store, <Transcript.Root />)
    const shape = () => [...container.querySelectorAll('[data-weft="turn-content"] [data-weft]')]
      .filter((n) => ['block', 'thread', 'message'].includes(n.getAttribute('data-weft')!))
      .map((n) => `${n.getAttribute('data-weft')}:${n.textContent}`)
    expect(shape()).toEqual(['block:Plan'])

    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: 'b1', type: 'text', action: 'append', path: 'content', value: 'Step one' },
    ]))
    expect(shape()).toEqual(['block:PlanStep one', 'message:Step one'])

    const block = container.querySelector('[data-weft="block"]')
    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'append', path: 'content', value: ', done' },
      { op: 'message.delta', turnId: 't1', messageId: 'm2', blockId: 'b1', threadId: 'lane', type: 'text', action: 'append', path: 'content', value: 'In a lane' },
      { op: 'message.put', turnId: 't1', messageId: 'm3', type: 'text', props: { content: 'After the block' }, status: 'done' },
    ]))
    expect(shape()).toEqual([
      'block:PlanStep one, doneIn a lane', 'message:Step one, done', 'thread:In a lane', 'message:In a lane', 'message:After the block',
    ])
    // The block element survived: it was updated in place, not remounted.
    expect(container.querySelector('[data-weft="block"]')).toBe(block)
  })

  it('re-renders only the message a token lands in', () => {
    const renders = new Map<string, number>()
    function Counting({ message }: MessageRendererProps) {
      renders.set(message.id, (renders.get(message.id) ?? 0) + 1)
      return <span>{String(message.props.content)}</span>
    }
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.put', turnId: 't1', messageId: 'done', type: 'text', props: { content: 'Finished' }, status: 'done' },
      { op: 'message.delta', turnId: 't1', messageId: 'live', type: 'text', action: 'append', path: 'content', value: 'a' },
    ])
    renderWith(store, <RendererProvider renderers={{ text: Counting }}><Transcript.Root /></RendererProvider>)
    const before = { done: renders.get('done')!, live: renders.get('live')! }
    for (const token of ['b', 'c', 'd']) {
      act(() => store.getState().dispatch([{ op: 'message.delta', turnId: 't1', messageId: 'live', action: 'append', path: 'content', value: token }]))
    }
    expect(renders.get('live')).toBe(before.live + 3)
    expect(renders.get('done')).toBe(before.done)
  })
})

describe('the renderer registry', () => {
  function Shout({ message }: MessageRendererProps) {
    return <strong data-testid="shout">{String(message.props.content).toUpperCase()}</strong>
  }
  function Chart({ message }: MessageRendererProps) {
    return <figure data-testid="chart">{JSON.stringify(message.props.data)}</figure>
  }

  const ops = [
    ...textTurn('quiet words'),
    { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'data-chart', props: { data: { bars: [1, 2] } } },
    { op: 'message.put', turnId: 't1', messageId: 'm3', type: 'weather-card', props: { city: 'Paris' } },
    { op: 'message.put', turnId: 't1', messageId: 'm4', type: 'constructor', props: { n: 1 } },
  ] as const

  it('lets a host replace a default renderer and add one for a new type', () => {
    renderWith(storeWith([...ops]), (
      <RendererProvider renderers={{ text: Shout, 'data-chart': Chart }}>
        <Transcript.Root />
      </RendererProvider>
    ))
    expect(screen.getByTestId('shout').textContent).toBe('QUIET WORDS')
    expect(screen.getByTestId('chart').textContent).toBe('{"bars":[1,2]}')
  })

  it('merges nested providers: the inner one wins, the outer one still applies', () => {
    function Quiet({ message }: MessageRendererProps) {
      return <em data-testid="quiet">{String(message.props.content)}</em>
    }
    renderWith(storeWith([...ops]), (
      <RendererProvider renderers={{ text: Shout, 'data-chart': Chart }}>
        <RendererProvider renderers={{ text: Quiet }}>
          <Transcript.Root />
        </RendererProvider>
      </RendererProvider>
    ))
    expect(screen.getByTestId('quiet').textContent).toBe('quiet words')
    expect(screen.queryByTestId('shout')).toBeNull()
    expect(screen.getByTestId('chart')).toBeTruthy()
  })

  it('shows an unknown type as its type and props, including names that exist on Object', () => {
    const { container } = renderWith(storeWith([...ops]), <Transcript.Root />)
    const fallbacks = [...container.querySelectorAll('[data-weft="data"]')]
    expect(fallbacks.map((f) => f.getAttribute('data-type'))).toEqual(['data-chart', 'weather-card', 'constructor'])
    expect(fallbacks[1]!.querySelector('[data-weft="data-type"]')!.textContent).toBe('weather-card')
    expect(JSON.parse(fallbacks[1]!.querySelector('pre')!.textContent!)).toEqual({ city: 'Paris' })
    expect(JSON.parse(fallbacks[0]!.querySelector('pre')!.textContent!)).toEqual({ bars: [1, 2] })
  })

  it('uses a host fallback for types nobody registered', () => {
    function Unknown({ message }: MessageRendererProps) {
      return <i data-testid="unknown">{message.type}</i>
    }
    renderWith(storeWith([...ops]), (
      <RendererProvider fallback={Unknown}>
        <Transcript.Root />
      </RendererProvider>
    ))
    expect(screen.getAllByTestId('unknown').map((n) => n.textContent)).toEqual(['data-chart', 'weather-card', 'constructor'])
  })
})

describe('server text is text', () => {
  const hostile = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b>'

  it('creates no element from markup in a message, a tool call, a data part or a timeline row', () => {
    const store = storeWith([
      ...textTurn(hostile),
      { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'tool', props: { name: hostile, state: 'output-error', output: hostile, errorText: hostile } },
      { op: 'message.put', turnId: 't1', messageId: 'm3', type: 'mystery', props: { html: hostile } },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: hostile, status: 'done' }, delta: hostile },
    ])
    const { container } = renderWith(store, <><Transcript.Root /><Trace.Root turnId="t1" /></>)
    expect(container.querySelector('[data-weft="trace-label"]')!.textContent).toBe(hostile)
    expect(container.querySelectorAll('script, img, b').length).toBe(0)
    expect(container.querySelector('[data-weft="text"]')!.textContent).toBe(hostile)
    expect(container.querySelector('[data-weft="tool-error"]')!.textContent).toBe(hostile)
    expect((window as { __pwned?: number }).__pwned).toBeUndefined()
  })
})

describe('data parts that lack an optional field', () => {
  it('still show: a thinking step without title or status, a data part without data, a notice without its level', () => {
    const state = foldStream([
      { type: 'start-step' },
      { type: 'data-thinking-step', id: 'step-1', data: {} },
      { type: 'data-weather', id: 'w1' },
      { type: 'data-terminal-info', data: { text: 'Indexed 3 files' } },
      { type: 'reasoning-file', url: 'https://a.example/sketch.png', mediaType: 'image/png' },
      { type: 'finish-step' },
    ], { protocol: 'ui-message' })
    const { container } = renderWith(createAgentStore({ initialState: state }), (
      <>
        <Transcript.Root />
        <Trace.Root turnId="turn-1" />
      </>
    ))
    // The step's row, and under it the thinking step's, named by its kind for want of a title.
    expect([...container.querySelectorAll('[data-weft="trace-label"]')].map((label) => label.textContent)).toEqual(['Step 1', 'thinking'])
    const data = container.querySelector('[data-weft="data"][data-type="data-weather"]')!
    expect(JSON.parse(data.querySelector('pre')!.textContent!)).toEqual({ id: 'w1' })
    expect(container.querySelector('[data-weft="notice"]')!.textContent).toContain('Indexed 3 files')
    expect(container.querySelector('img[data-weft="file"]')!.getAttribute('src')).toBe('https://a.example/sketch.png')
  })
})
