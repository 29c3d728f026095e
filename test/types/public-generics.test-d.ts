/**
 * The public generics, as a host sees them through the entries: what each
 * resolves to, and what it refuses. Checked by `tsc` (vitest's typecheck
 * project `types`), never run; `@ts-expect-error` lines must stay errors.
 */
import { describe, expectTypeOf, it } from 'vitest'
import {
  AgentClient,
  type AgentClientOptions,
  type AgentState,
  type AnswerResult,
  type ApprovalResponse,
  type ClientTool,
  type Conversations,
  type ConversationsOptions,
  createConversations,
  foldStream,
  type GateResponse,
  type InterruptDecision,
  type JsonValue,
  type Message,
  type MessagePart,
  type Op,
  type OpName,
  type OpOf,
  partProps,
  type PartProps,
  type TextProps,
  type ToolProps,
  type TypeOfKey,
  type RespondResult, type UiTool, type AgentStateUpdate, type AddContextResult, type ContextEntry, type ActionResult,
} from 'weft/core'
import {
  useAgentSelector,
  useAgentSelectorShallow,
  useAgentContext,
  useAgentState,
  useAgentStream,
  useGates,
  useMessage,
  useStatus,
  useTurn,
  useTurnIds,
  type AgentStreamHandle,
} from 'weft/react'
import {
  type MessagePartProps,
  type MessageRenderer,
  type MessageRendererProps,
  type MessageRenderers,
  type RenderedProps,
  type RenderedType,
  RendererProvider,
  TextMessage,
  type ToolRendererProps,
  type ToolRenderers,
} from 'weft/components'
import * as umbrella from 'weft'

declare const client: AgentClient

describe('GateResponse and answer', () => {
  it('an approval kind takes an approval', () => {
    expectTypeOf<GateResponse<'tool-approval'>>().toEqualTypeOf<ApprovalResponse>()
    expectTypeOf<GateResponse<'hitl_gate'>>().toEqualTypeOf<ApprovalResponse>()
    expectTypeOf<ApprovalResponse>().toHaveProperty('approved').toEqualTypeOf<boolean>()
  })

  it('an interrupt takes decisions or any JSON value; no kind, any of them', () => {
    expectTypeOf<GateResponse<'interrupt'>>().toEqualTypeOf<{ decisions: InterruptDecision[] } | JsonValue>()
    expectTypeOf<GateResponse>().toEqualTypeOf<ApprovalResponse | { decisions: InterruptDecision[] } | JsonValue>()
  })

  it('answer checks the response against the kind it is given', () => {
    expectTypeOf(client.answer<'tool-approval'>).parameter(1).toEqualTypeOf<ApprovalResponse>()
    expectTypeOf(client.answer('g1', { approved: true })).resolves.toEqualTypeOf<AnswerResult>()
    // @ts-expect-error an approval needs `approved`
    void client.answer<'tool-approval'>('g1', { reason: 'no' })
    // @ts-expect-error decisions answer an interrupt, not an approval
    void client.answer<'tool-approval'>('g1', { decisions: [] })
  })

  it('AnswerResult narrows on ok', () => {
    const result = {} as AnswerResult
    if (!result.ok) expectTypeOf(result.error.message).toBeString()
    else expectTypeOf(result).toEqualTypeOf<{ ok: true }>()
  })
})

describe('message parts', () => {
  it('partProps returns the props of the type it is asked for', () => {
    const message = {} as Message
    expectTypeOf(partProps(message, 'tool')).toEqualTypeOf<ToolProps>()
    expectTypeOf(partProps(message, 'text')).toEqualTypeOf<TextProps>()
    expectTypeOf(partProps(message, 'data-*')).toEqualTypeOf<PartProps['data-*']>()
    // @ts-expect-error only the kit's types have readers
    partProps(message, 'chart')
  })

  it('TypeOfKey maps data-* to every data-<name> type', () => {
    expectTypeOf<TypeOfKey<'data-*'>>().toEqualTypeOf<`data-${string}`>()
    expectTypeOf<TypeOfKey<'tool'>>().toEqualTypeOf<'tool'>()
  })

  it('MessagePart narrows its props on type', () => {
    const part = {} as MessagePart
    if (part.type === 'tool') expectTypeOf(part.props).toEqualTypeOf<ToolProps>()
    if (part.type === 'text') expectTypeOf(part.props.content).toBeString()
    if (part.type === 'data-chart') expectTypeOf(part.props).toEqualTypeOf<PartProps['data-*']>()
    expectTypeOf<MessagePart['type']>().toEqualTypeOf<TypeOfKey<keyof PartProps>>()
  })

  it('Message is generic in its type and props', () => {
    expectTypeOf<Message<'data-chart', { points: number[] }>['props']['points']>().toEqualTypeOf<number[]>()
    expectTypeOf<Message['props']>().toEqualTypeOf<Record<string, unknown>>()
  })
})

describe('ops', () => {
  it('OpOf picks the op of one name', () => {
    expectTypeOf<OpOf<'hydrate'>>().toHaveProperty('at').toEqualTypeOf<'start' | 'end'>()
    expectTypeOf<OpOf<'hydrate'>['op']>().toEqualTypeOf<'hydrate'>()
    expectTypeOf<OpOf<OpName>>().toEqualTypeOf<Op>()
    // @ts-expect-error not an op
    expectTypeOf<OpOf<'no-such-op'>>()
  })
})

describe('selector hooks', () => {
  it('useAgentSelector and its shallow twin return what the selector returns', () => {
    expectTypeOf(useAgentSelector((state) => state.turnIds.length)).toEqualTypeOf<number>()
    expectTypeOf(useAgentSelectorShallow((state) => ({ status: state.status }))).toEqualTypeOf<{ status: AgentState['status'] }>()
    expectTypeOf(useAgentSelector).parameter(0).parameter(0).toEqualTypeOf<AgentState>()
  })

  it('the entry hooks return the model types', () => {
    expectTypeOf(useTurn('t1')).toEqualTypeOf<AgentState['turns'][string] | undefined>()
    expectTypeOf(useMessage('m1')).toEqualTypeOf<Message | undefined>()
    expectTypeOf(useTurnIds()).toEqualTypeOf<string[]>()
    expectTypeOf(useGates('t1')).toEqualTypeOf<Array<AgentState['gates'][string]>>()
    expectTypeOf(useStatus()).toEqualTypeOf<AgentState['status']>()
    expectTypeOf(useAgentStream({ url: '/api/agent' })).toEqualTypeOf<AgentStreamHandle>()
  })
})

describe('client options and tools', () => {
  it('tools are client tools or tools the UI answers, by name', () => {
    expectTypeOf<NonNullable<AgentClientOptions['tools']>>().toEqualTypeOf<Record<string, ClientTool | UiTool>>()
    expectTypeOf<ClientTool['execute']>().parameter(1).toEqualTypeOf<{ signal: AbortSignal; turnId: string; toolCallId: string }>()
    const tools: AgentClientOptions['tools'] = { getLocation: { description: 'The city', execute: async () => ({ city: 'Paris' }) } }
    expectTypeOf(tools).not.toBeAny()
    // @ts-expect-error a tool must say how it runs
    const broken: ClientTool = { description: 'no execute' }
    void broken
    const ui: AgentClientOptions['tools'] = { pickColor: { ui: true, description: 'Ask for a colour' } }
    void ui
    // @ts-expect-error neither run by the browser nor answered by the UI
    const neither: AgentClientOptions['tools'] = { pickColor: { description: 'no execute, no ui' } }
    void neither
    expectTypeOf<AgentClient['respond']>().returns.resolves.toEqualTypeOf<RespondResult>()
  })
})

describe('renderers', () => {
  it('a renderer gets the message of its type', () => {
    expectTypeOf<MessageRendererProps<'data-chart', { points: number[] }>['message']>().toEqualTypeOf<Message<'data-chart', { points: number[] }>>()
    expectTypeOf<MessagePartProps['message']>().toEqualTypeOf<Message>()
    expectTypeOf<MessagePartProps>().toHaveProperty('className')
    expectTypeOf(TextMessage).parameter(0).toMatchTypeOf<MessagePartProps>()
  })

  it('a renderers map checks each renderer against its key', () => {
    expectTypeOf<RenderedType<'data-*'>>().toEqualTypeOf<`data-${string}`>()
    expectTypeOf<RenderedProps<'tool'>>().toEqualTypeOf<ToolProps>()
    const Chart: MessageRenderer<'data-chart', { points: number[] }> = ({ message }) => message.props.points.length
    const fits = { 'data-chart': Chart } satisfies MessageRenderers<'data-chart'>
    expectTypeOf(fits).not.toBeAny()
    // @ts-expect-error a renderer typed for data-chart does not fit under tool
    const misfit = { tool: Chart } satisfies MessageRenderers<'tool'>
    void misfit
    // RendererProvider infers the keys, so it checks the same
    expectTypeOf(RendererProvider).parameter(0).toHaveProperty('renderers')
  })
})

describe('tool renderers and respond', () => {
  it('respond takes the tool\'s own output type and reports a RespondResult', () => {
    type Props = ToolRendererProps<{ options: string[] }, { color: string }>
    expectTypeOf<Props['respond']>().parameter(0).toEqualTypeOf<{ color: string }>()
    expectTypeOf<Props['respond']>().returns.resolves.toEqualTypeOf<RespondResult>()
    const Picker = ({ respond }: Props) => {
      // @ts-expect-error the output is the tool's own type
      void respond({ colour: 'teal' })
      void respond({ color: 'teal' })
      return null
    }
    expectTypeOf({ pickColor: Picker }).toExtend<ToolRenderers>()
  })
})

describe('agent state and context from the page', () => {
  it('setAgentState takes a state or an updater; addContext a JSON entry', () => {
    expectTypeOf<AgentClient['setAgentState']>().parameter(0).toEqualTypeOf<AgentStateUpdate>()
    expectTypeOf(client.setAgentState((current) => ({ ...current, theme: 'teal' }))).toEqualTypeOf<ActionResult>()
    expectTypeOf(client.addContext({ description: 'Doc', value: { page: 4 } })).toEqualTypeOf<AddContextResult>()
    expectTypeOf<ContextEntry['value']>().toEqualTypeOf<JsonValue>()
    expectTypeOf(useAgentState).returns.toEqualTypeOf<[Readonly<Record<string, unknown>>, (update: AgentStateUpdate) => ActionResult]>()
    expectTypeOf(useAgentContext).parameter(0).toEqualTypeOf<ContextEntry>()
  })
})

describe('foldStream and conversations', () => {
  it('foldStream folds to the state', () => {
    expectTypeOf(foldStream('data: {}\n\n')).toEqualTypeOf<AgentState>()
    expectTypeOf(foldStream).parameter(0).toEqualTypeOf<string | readonly unknown[]>()
    expectTypeOf(umbrella.foldStream('')).toEqualTypeOf<AgentState>()
  })

  it('createConversations takes its options and returns the conversations', () => {
    expectTypeOf(createConversations).parameter(0).toEqualTypeOf<ConversationsOptions | undefined>()
    expectTypeOf(createConversations()).toEqualTypeOf<Conversations>()
  })
})
