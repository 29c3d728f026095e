/**
 * Typed message parts. The type checks fail `npm run typecheck` when the union
 * of built-in parts, its props or the open `Message<Type, Props>` extension
 * break; the runtime checks hold `partProps` to its promise that a wrongly typed
 * server value comes back with its declared type or not at all, never a throw.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Message, MessagePart, PartProps, ToolState } from '../../../src/core/index'
import { partProps } from '../../../src/core/index'

const message = <P extends object>(type: string, props: P): Message<string, P> =>
  ({ id: 'm', turnId: 't', role: 'assistant', type, props, status: 'done' })

describe('Message', () => {
  it('defaults to any type with loose props, as the store holds it', () => {
    expectTypeOf<Message['type']>().toEqualTypeOf<string>()
    expectTypeOf<Message['props']>().toEqualTypeOf<Record<string, unknown>>()
  })

  it('names one kind of part: its type and props', () => {
    type Chart = Message<'data-chart', { data: { points: number[] } }>
    expectTypeOf<Chart['type']>().toEqualTypeOf<'data-chart'>()
    expectTypeOf<Chart['props']['data']['points']>().toEqualTypeOf<number[]>()
    // A host's part is still a message wherever a loose one is taken.
    expectTypeOf<Message<'mood', { mood: string }>>().toExtend<Message>()
    expectTypeOf<Message<'mood', { mood: string }>>().not.toExtend<Message<'text'>>()
  })
})

describe('MessagePart', () => {
  it('covers the built-in types, every data-<name> among them', () => {
    expectTypeOf<MessagePart['type']>().toEqualTypeOf<
      'text' | 'reasoning' | 'tool' | 'file' | 'image' | 'reasoning-file' | 'notice' | 'error' | 'loading' | 'recommended-action' | `data-${string}`
    >()
  })

  it('narrows the props on the type', () => {
    const read = (m: MessagePart) => {
      switch (m.type) {
        case 'text':
          expectTypeOf(m.props.content).toEqualTypeOf<string>()
          return m.props.content
        case 'tool':
          expectTypeOf(m.props).toEqualTypeOf<PartProps['tool']>()
          expectTypeOf(m.props.state).toEqualTypeOf<ToolState | undefined>()
          expectTypeOf(m.props.name).toEqualTypeOf<string>()
          return m.props.name
        case 'image':
          expectTypeOf(m.props.url).toEqualTypeOf<string | undefined>()
          return m.props.alt ?? ''
        case 'recommended-action':
          expectTypeOf(m.props.confidence).toEqualTypeOf<number | undefined>()
          return m.props.label ?? ''
        default:
          return m.type
      }
    }
    expect(read({ ...message('text', { content: 'Hi' }), type: 'text' })).toBe('Hi')
  })

  it('narrows a data part by its name', () => {
    const data = (m: MessagePart) => {
      if (m.type !== 'data-weather') return undefined
      expectTypeOf(m.props).toEqualTypeOf<PartProps['data-*']>()
      return m.props.data
    }
    expect(data({ ...message('data-weather', { data: { temp: 21 } }), type: 'data-weather' })).toEqual({ temp: 21 })
    expectTypeOf<Extract<MessagePart, { type: 'text' }>['props']>().toEqualTypeOf<PartProps['text']>()
  })

  it('is a Message, while a loose Message is not a MessagePart without reading it', () => {
    expectTypeOf<MessagePart>().toExtend<Message>()
    expectTypeOf<Message>().not.toExtend<MessagePart>()
    // @ts-expect-error: a text part's content is a string
    const bad: MessagePart = { ...message('text', { content: 1 }), type: 'text' }
    expect(bad.type).toBe('text')
  })

  it('keeps what a decoder adds that the kit does not read', () => {
    expectTypeOf<PartProps['text']['providerMetadata']>().toEqualTypeOf<unknown>()
  })
})

describe('partProps', () => {
  it('types its result by the shape asked for', () => {
    const m = message('tool', {})
    expectTypeOf(partProps(m, 'tool')).toEqualTypeOf<PartProps['tool']>()
    expectTypeOf(partProps(m, 'text').content).toEqualTypeOf<string>()
    // @ts-expect-error: only built-in shapes
    expectTypeOf(() => partProps(m, 'chart')).toBeFunction()
  })

  it('reads well-formed props as they are', () => {
    const props = { toolCallId: 'c1', name: 'search', state: 'output-available', input: { q: 'x' }, output: [1], durationMs: 12, extra: { a: 1 } }
    expect(partProps(message('tool', props), 'tool')).toEqual({ ...props, inputText: undefined, errorText: undefined, title: undefined, preliminary: undefined })
    expect(partProps(message('text', { content: 'Hi', providerMetadata: { p: 1 } }), 'text')).toEqual({ content: 'Hi', providerMetadata: { p: 1 } })
  })

  it('gives every field its declared type or none, whatever the server sent', () => {
    const hostile = { toolCallId: { a: 1 }, name: ['x'], state: 'exploded', inputText: 5, errorText: null, preliminary: 'yes', durationMs: Number.NaN }
    const tool = partProps(message('tool', hostile), 'tool')
    expect(tool).toMatchObject({ toolCallId: '', name: '', state: undefined, inputText: undefined, errorText: undefined, preliminary: undefined, durationMs: undefined })
    expect(partProps(message('text', { content: { html: '<b>' } }), 'text').content).toBe('')
    expect(partProps(message('text', { content: 42 }), 'text').content).toBe('42')
    expect(partProps(message('recommended-action', { confidence: Infinity, label: {} }), 'recommended-action')).toMatchObject({ confidence: undefined, label: undefined })
    for (const props of [null, undefined, 'text', 7, [1, 2]]) {
      expect(partProps({ props }, 'notice')).toEqual({ text: '', level: undefined })
    }
  })

  it('fills a field from the other names servers use for it, in order', () => {
    expect(partProps(message('file', { src: '/a.png', mimeType: 'image/png', title: 'A' }), 'file')).toMatchObject({ url: '/a.png', mediaType: 'image/png', filename: 'A' })
    expect(partProps(message('error', { errorText: 'boom', code: 'E1' }), 'error')).toMatchObject({ message: 'boom', code: 'E1' })
    expect(partProps(message('loading', { content: 'Working on it' }), 'loading').message).toBe('Working on it')
    expect(partProps(message('notice', { message: 'Heads up', level: 'warning' }), 'notice')).toMatchObject({ text: 'Heads up', level: 'warning' })
    expect(partProps(message('tool', { toolName: 'lookup' }), 'tool').name).toBe('lookup')
  })

  it('leaves the props it reads untouched', () => {
    const props = Object.freeze({ content: 3 })
    expect(partProps(message('text', props), 'text').content).toBe('3')
    expect(props.content).toBe(3)
  })
})
