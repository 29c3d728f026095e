/**
 * Renderers typed against their parts. The type checks fail `npm run typecheck`
 * when a host can no longer type a renderer for its own part (`data-chart`) or a
 * built-in one, or when the renderer map stops checking a renderer against its
 * key; the render checks that a typed renderer draws what the store holds.
 */
import { renderToString } from 'react-dom/server'
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  defaultRenderers, MessageView, RendererProvider,
  type MessageRenderer, type MessageRendererProps, type MessageRenderers,
} from '../../src/components/index'
import { applyOps, createAgentStore, emptyState, partProps, type Message, type PartProps } from '../../src/core/index'
import { AgentProvider } from '../../src/umbrella/providers'
import { messageIn } from '../../src/core/model/message-table'

interface ChartProps {
  points: number[]
}

/** A host's renderer for a part type of its own. */
function Chart({ message }: MessageRendererProps<'data-chart', { data: ChartProps }>) {
  return <figure data-testid="chart">{message.props.data.points.join(' ')}</figure>
}

/** A host's loose renderer, as every renderer was typed before parts had types. */
function Loose({ message }: MessageRendererProps) {
  return <p>{String(message.props.content)}</p>
}

/** A host's renderer for a built-in part, typed by its props. */
const Tool: MessageRenderer<'tool', PartProps['tool']> = ({ message }) => <b>{message.props.name}</b>

describe('MessageRendererProps', () => {
  it('defaults to any message, and types one kind when asked', () => {
    expectTypeOf<MessageRendererProps['message']>().toEqualTypeOf<Message>()
    expectTypeOf<MessageRendererProps<'data-chart', ChartProps>['message']['props']['points']>().toEqualTypeOf<number[]>()
    expectTypeOf<MessageRendererProps<'tool', PartProps['tool']>['message']['type']>().toEqualTypeOf<'tool'>()
  })
})

describe('renderer maps', () => {
  it('take a host renderer typed for its own part under that part’s key', () => {
    const tree = (
      <RendererProvider
        renderers={{
          'data-chart': (p: MessageRendererProps<'data-chart', { points: number[] }>) => <i>{p.message.props.points.length}</i>,
          text: Loose,
          tool: Tool,
        }}
      />
    )
    expect(tree).toBeTruthy()
    expectTypeOf({ 'data-chart': Chart }).toExtend<MessageRenderers<'data-chart'>>()
    expectTypeOf({ ...defaultRenderers, 'data-chart': Chart, text: Loose }).toExtend<MessageRenderers<keyof typeof defaultRenderers | 'data-chart'>>()
  })

  it('refuse a renderer typed for another part', () => {
    expectTypeOf({ 'data-map': Chart }).not.toExtend<MessageRenderers<'data-map'>>()
    expectTypeOf({ text: Tool }).not.toExtend<MessageRenderers<'text'>>()
    // @ts-expect-error: Chart draws `data-chart` parts, not `data-map` ones
    expect(<RendererProvider renderers={{ 'data-map': Chart }} />).toBeTruthy()
  })

  it('hold a renderer for a built-in part to that part’s props', () => {
    const Wrong = (p: MessageRendererProps<'text', { content: number }>) => <p>{p.message.props.content.toFixed(1)}</p>
    expectTypeOf({ text: Wrong }).not.toExtend<MessageRenderers<'text'>>()
    // An inline renderer gets the built-in props without saying so.
    expect(<RendererProvider renderers={{ text: ({ message }) => <p>{message.props.content.toUpperCase()}</p> }} />).toBeTruthy()
  })

  it('give `data-*` every data part', () => {
    type DataRenderer = NonNullable<MessageRenderers<'data-*'>['data-*']>
    expectTypeOf<MessageRenderer<`data-${string}`, PartProps['data-*']>>().toEqualTypeOf<DataRenderer>()
  })

  it('still take any renderer under any key when the keys are not named', () => {
    const renderers: MessageRenderers = { text: Loose, 'mood-ring': Loose, 'data-*': Loose }
    expect(Object.keys(renderers)).toHaveLength(3)
  })
})

describe('a typed renderer in the transcript', () => {
  it('draws the part of its type, and the built-ins draw theirs whatever the props hold', () => {
    const state = emptyState()
    applyOps(state, [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.put', turnId: 't1', messageId: 'c', type: 'data-chart', props: { data: { points: [1, 2, 3] } }, status: 'done' },
      { op: 'message.put', turnId: 't1', messageId: 'n', type: 'notice', props: { text: { bad: true }, message: 'Fallback', level: 7 }, status: 'done' },
      { op: 'message.put', turnId: 't1', messageId: 'x', type: 'tool', props: { name: { a: 1 }, state: 42, inputText: ['x'], durationMs: 'soon', errorText: {} }, status: 'done' },
    ])
    const html = renderToString(
      <AgentProvider store={createAgentStore({ initialState: state })}>
        <RendererProvider renderers={{ 'data-chart': Chart }}>
          <MessageView id="c" />
          <MessageView id="n" />
          <MessageView id="x" />
        </RendererProvider>
      </AgentProvider>,
    )
    expect(html).toContain('<figure data-testid="chart">1 2 3</figure>')
    expect(html).toContain('data-level="7"')
    expect(html).toContain('Fallback')
    expect(partProps(messageIn(state.messages, 'n')!, 'notice')).toMatchObject({ text: 'Fallback', level: '7' })
    expect(html).toContain('<span data-weft="tool-name">Tool</span>')
    expect(html).not.toContain('data-weft="part-error"')
    expect(html).not.toContain('data-weft="tool-error"')
  })
})
