/**
 * Every component the kit exports (`weft/components` and the AG-UI protocol's
 * views) passes `className`, `style`, the other DOM props and its ref to its
 * root element, keeps its own `data-weft` (and `data-state`, where it has one),
 * and, for the parts that draw one element, takes `asChild`. The exports are
 * enumerated: a component added without a case here fails, as does one that
 * drops what it is given.
 */
import { cleanup, render, waitFor } from '@testing-library/react'
import { cloneElement, createRef, useEffect, type ReactElement, type Ref } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as components from '../../src/components/index'
import {
  Attachments, BranchPicker, Chat, Citation, CodeBlock, Composer, CopyButton, DataMessage, ErrorMessage, FileMessage, GateCard, Gates,
  LoadingMessage, Markdown, MarkdownMessage, MarkdownSettingsProvider, MessageActions, MessageView, NoticeMessage, ReasoningMessage,
  RecommendedActionCard, Sources, StateInspector, StatusBar, Suggestions, TextMessage, ThreadList, ToolCallMessage, Trace, TraceHeadline,
  Transcript, TurnError, TurnInterrupted, Queue, QueuedMessages, SubAgentLane, useLaneView,
} from '../../src/components/index'
import { ToolGroup } from '../../src/components/tool-group'
import { ThreadListLayout } from '../../src/components/thread-list-layout'
import { TurnUsage } from '../../src/components/turn-usage'
import { ReadAloudButton, VoiceSettingsProvider } from '../../src/components/voice'
import { handDictation, handReadAloud } from '../helpers/voice'
import * as agUi from '../../src/protocols/ag-ui/react/index'
import { AgUiToolView, NavigationActions } from '../../src/protocols/ag-ui/react/index'
import { createConversations, memoryConversations, type Conversations } from '../../src/core/conversations/index'
import { weftError } from '../../src/core/model/errors'
import type { Message, Source } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore } from '../../src/core/store/store'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { AgentProvider } from '../../src/umbrella/providers'
import { messageIn } from '../../src/core/model/message-table'

const FORWARD_REF = Symbol.for('react.forward_ref')
const MEMO = Symbol.for('react.memo')

function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return /^[A-Z]/.test(value.name) && !/^class\b/.test(Function.prototype.toString.call(value))
  const type = typeof value === 'object' && value !== null ? (value as { $$typeof?: symbol }).$$typeof : undefined
  return type === FORWARD_REF || type === MEMO
}

/** The components a module exports: each export, and the capitalised parts of a namespace (`Transcript.Root`, `Composer.Send`). */
function componentsOf(module: Record<string, unknown>): string[] {
  const out: string[] = []
  for (const [name, value] of Object.entries(module)) {
    if (isComponent(value)) out.push(name)
    if (typeof value !== 'object' && typeof value !== 'function') continue
    if (value === null || (!isComponent(value) && (value as { $$typeof?: unknown }).$$typeof !== undefined)) continue
    for (const [part, inner] of Object.entries(value)) if (/^[A-Z]/.test(part) && isComponent(inner)) out.push(`${name}.${part}`)
  }
  return out
}

/** Exports that draw no element of their own, so have nothing to pass on. */
const NO_ELEMENT: Readonly<Record<string, string>> = {
  RendererProvider: 'a provider',
  WeftCallbacksProvider: 'a provider',
  LabelsProvider: 'a provider',
  MarkdownSettingsProvider: 'a provider',
  ToolRenderersProvider: 'a provider',
  UsageSettingsProvider: 'a provider',
  VoiceSettingsProvider: 'a provider',
  PartBoundary: 'an error boundary: draws its children, or the note in their place',
  ConversationBoundary: 'an error boundary: draws its children, or the alert in their place',
  Slot: 'draws its only child with the props merged in: the helper `asChild` is built on',
}

const source: Source = { id: 's1', kind: 'url', url: 'https://example.com/a', title: 'Example A', citationIndex: 1 }

const ops: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1m', type: 'text', role: 'user', status: 'done', props: { content: 'Rain?' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a0', role: 'assistant', parentId: 'u1' },
  { op: 'turn.finish', turnId: 'a0', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1', suggestions: ['And tomorrow?'] },
  { op: 'trace.node', turnId: 'a1', node: { id: 'n1', kind: 'search', label: 'Searched', status: 'done' } },
  { op: 'source.add', turnId: 'a1', source },
  { op: 'message.put', turnId: 'a1', messageId: 'text', type: 'text', role: 'assistant', status: 'done', props: { content: 'It rains [1].' } },
  { op: 'message.put', turnId: 'a1', messageId: 'reasoning', type: 'reasoning', status: 'done', props: { content: 'Look it up.' } },
  { op: 'message.put', turnId: 'a1', messageId: 'tool', type: 'tool', status: 'done', props: { toolCallId: 'c1', name: 'get_weather', state: 'output-available', input: { city: 'Paris' }, output: { tempC: 18 }, actions: [{ type: 'navigation', path: '/city/paris', label: 'Open Paris' }] } },
  { op: 'message.put', turnId: 'a1', messageId: 'file', type: 'file', status: 'done', props: { url: 'https://example.com/a.pdf', filename: 'a.pdf', mediaType: 'application/pdf' } },
  { op: 'message.put', turnId: 'a1', messageId: 'notice', type: 'notice', status: 'done', props: { text: 'Heads up', level: 'warning' } },
  { op: 'message.put', turnId: 'a1', messageId: 'error', type: 'error', status: 'done', props: { message: 'It failed', code: 'E1' } },
  { op: 'message.put', turnId: 'a1', messageId: 'loading', type: 'loading', status: 'done', props: { message: 'Reading' } },
  { op: 'message.put', turnId: 'a1', messageId: 'action', type: 'recommended-action', status: 'done', props: { label: 'Draft it', confidence: 0.5 } },
  { op: 'message.put', turnId: 'a1', messageId: 'chart', type: 'data-chart', status: 'done', props: { data: { points: [1, 2] } } },
  { op: 'block.open', turnId: 'a1', blockId: 'b1', kind: 'tool', label: 'Step 1' },
  { op: 'thread.open', turnId: 'a1', threadId: 'th1', blockId: 'b1', label: 'Lane A' },
  { op: 'message.put', turnId: 'a1', messageId: 'lane', blockId: 'b1', threadId: 'th1', type: 'text', role: 'assistant', status: 'done', props: { content: 'In a lane' } },
  { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'approval', question: 'Go on?', payload: {} } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'turn.finish', turnId: 'a2', status: 'error', error: weftError('network', 'The connection dropped.') },
  { op: 'turn.open', turnId: 'a3', role: 'assistant' },
  { op: 'turn.update', turnId: 'a3', usage: { inputTokens: 12, outputTokens: 3 } },
  { op: 'turn.finish', turnId: 'a3', status: 'aborted' },
  { op: 'stream.status', status: 'error', error: weftError('network', 'The connection dropped.') },
]

const store = createAgentStore()
store.getState().dispatch(ops)
/** A store with a queued message, nothing running: the queue is held. */
const queued = createAgentStore()
queued.getState().dispatch([{ op: 'queue.put', message: { id: 'q1', text: 'And Lyon?' } }])
const message = (id: string): Message => messageIn(store.getState().messages, id)!

/** What every case is given: a class, a style, a data attribute, a `data-weft` the kit must keep, and the ref. */
interface Probe {
  className: string
  style: { marginTop: string }
  'data-probe': string
  'data-weft': string
  ref: Ref<never>
}

interface Case {
  /** Draws the component with the probe's props (inside whatever it needs around it). */
  draw: (probe: Probe) => ReactElement
  /** The root's `data-weft`. */
  weft: string
  /** The root's `data-state`, for a part that has one. */
  state?: string
  /** A part that draws one element: `asChild` hands its props to the host's element. */
  asChild?: true
}

const send = () => undefined
const dictation = handDictation()
const readAloud = handReadAloud()

const cases: Readonly<Record<string, Case>> = {
  'Transcript.Root': { draw: (p) => <Transcript.Root {...p} />, weft: 'transcript' },
  'Transcript.Turn': { draw: (p) => <Transcript.Turn turnId="a1" {...p} />, weft: 'turn', state: 'done' },
  'Transcript.Content': { draw: (p) => <Transcript.Content turnId="a1" {...p} />, weft: 'turn-content' },
  'Transcript.Block': { draw: (p) => <Transcript.Block blockId="b1" {...p} />, weft: 'block', state: 'done' },
  'Transcript.Thread': { draw: (p) => <Transcript.Thread threadId="th1" {...p} />, weft: 'thread', state: 'done' },
  'Transcript.Message': { draw: (p) => <Transcript.Message id="text" {...p} />, weft: 'message', state: 'done' },
  MessageView: { draw: (p) => <MessageView id="loading" {...p} />, weft: 'message', state: 'done' },
  TurnError: { draw: (p) => <TurnError turnId="a2" {...p} />, weft: 'turn-error', asChild: true },
  TurnInterrupted: { draw: (p) => <TurnInterrupted turnId="a3" {...p} />, weft: 'turn-interrupted', state: 'stopped' },
  TurnUsage: { draw: (p) => <TurnUsage turnId="a3" {...p} />, weft: 'turn-usage', state: 'aborted', asChild: true },
  BranchPicker: { draw: (p) => <BranchPicker turnId="a1" {...p} />, weft: 'branch-picker', state: 'last' },
  'Attachments.Root': { draw: (p) => <Attachments.Root {...p} />, weft: 'attachments', state: 'idle' },
  'Attachments.Button': { draw: (p) => <Attachments.Root><Attachments.Button {...p} /></Attachments.Root>, weft: 'attach', asChild: true },
  'Attachments.List': { draw: (p) => <Attachments.Root><Attachments.List {...p} /></Attachments.Root>, weft: 'attachment-list' },
  TextMessage: { draw: (p) => <TextMessage message={message('text')} {...p} />, weft: 'text', state: 'done' },
  MarkdownMessage: { draw: (p) => <MarkdownMessage message={message('text')} {...p} />, weft: 'text', state: 'done' },
  Markdown: { draw: (p) => <Markdown text="**Bold** words" {...p} />, weft: 'markdown' },
  CodeBlock: { draw: (p) => <CodeBlock code="const a = 1" lang="ts" {...p} />, weft: 'code-block', state: 'plain' },
  Citation: { draw: (p) => <Citation marker="[1]" source={source} {...p} />, weft: 'citation', asChild: true },
  CopyButton: { draw: (p) => <CopyButton text="copied text" {...p} />, weft: 'copy', state: 'idle', asChild: true },
  ReasoningMessage: { draw: (p) => <ReasoningMessage message={message('reasoning')} {...p} />, weft: 'reasoning', state: 'done' },
  ToolCallMessage: { draw: (p) => <ToolCallMessage message={message('tool')} {...p} />, weft: 'tool', state: 'output-available' },
  FileMessage: { draw: (p) => <FileMessage message={message('file')} {...p} />, weft: 'file', state: 'done', asChild: true },
  NoticeMessage: { draw: (p) => <NoticeMessage message={message('notice')} {...p} />, weft: 'notice', state: 'done', asChild: true },
  ErrorMessage: { draw: (p) => <ErrorMessage message={message('error')} {...p} />, weft: 'error', state: 'done', asChild: true },
  LoadingMessage: { draw: (p) => <LoadingMessage message={message('loading')} {...p} />, weft: 'loading', state: 'done', asChild: true },
  DataMessage: { draw: (p) => <DataMessage message={message('chart')} {...p} />, weft: 'data', state: 'done' },
  RecommendedActionCard: { draw: (p) => <RecommendedActionCard message={message('action')} {...p} />, weft: 'recommended-action', state: 'done' },
  'Trace.Root': { draw: (p) => <Trace.Root turnId="a1" {...p} />, weft: 'trace' },
  'Trace.Node': { draw: (p) => <ol><Trace.Node id="n1" {...p} /></ol>, weft: 'trace-node', state: 'done', asChild: true },
  'Trace.Disclosure': { draw: (p) => <Trace.Disclosure turnId="a1" {...p} />, weft: 'trace-disclosure' },
  TraceHeadline: { draw: (p) => <TraceHeadline turnId="a1" {...p} />, weft: 'trace-headline', state: 'done', asChild: true },
  Sources: { draw: (p) => <Sources turnId="a1" {...p} />, weft: 'sources' },
  Suggestions: { draw: (p) => <Suggestions turnId="a1" {...p} />, weft: 'suggestions' },
  GateCard: { draw: (p) => <GateCard id="g1" focusOnOpen={false} {...p} />, weft: 'gate', state: 'pending' },
  Gates: { draw: (p) => <Gates turnId="a1" {...p} />, weft: 'gates' },
  ToolGroup: { draw: (p) => <ToolGroup messageIds={['tool']} {...p}>calls</ToolGroup>, weft: 'tool-group', state: 'done' },
  StatusBar: { draw: (p) => <StatusBar {...p} />, weft: 'status-bar', state: 'error', asChild: true },
  Composer: { draw: (p) => <Composer send={send} busy={false} {...p} />, weft: 'composer', state: 'idle' },
  'Composer.Root': { draw: (p) => <Composer.Root send={send} busy {...p} />, weft: 'composer', state: 'busy' },
  'Composer.Input': { draw: (p) => <Composer.Root send={send}><Composer.Input {...p} /></Composer.Root>, weft: 'composer-input', asChild: true },
  'Composer.Action': { draw: (p) => <Composer.Root send={send} busy={false}><Composer.Action {...p} /></Composer.Root>, weft: 'composer-send', state: 'send', asChild: true },
  'Composer.Send': { draw: (p) => <Composer.Root send={send}><Composer.Send {...p} /></Composer.Root>, weft: 'composer-send', asChild: true },
  'Composer.Dictate': { draw: (p) => <VoiceSettingsProvider dictation={dictation}><Composer.Root send={send}><Composer.Dictate {...p} /></Composer.Root></VoiceSettingsProvider>, weft: 'composer-dictate', state: 'idle', asChild: true },
  ReadAloudButton: { draw: (p) => <ReadAloudButton adapter={readAloud} text="It rains." {...p} />, weft: 'read-aloud', state: 'idle', asChild: true },
  'Composer.Stop': { draw: (p) => <Composer.Root send={send} stop={send} busy><Composer.Stop {...p} /></Composer.Root>, weft: 'composer-stop', asChild: true },
  StateInspector: { draw: (p) => <StateInspector {...p} />, weft: 'inspector' },
  ThreadList: { draw: (p) => <ConversationsProvider conversations={conversations}><ThreadList {...p} /></ConversationsProvider>, weft: 'thread-list' },
  ThreadListLayout: { draw: (p) => <ThreadListLayout {...p}>list and chat</ThreadListLayout>, weft: 'thread-layout', state: 'closed' },
  MessageActions: { draw: (p) => <MessageActions turnId="a1" {...p} />, weft: 'message-actions' },
  Chat: { draw: (p) => <Chat {...p} />, weft: 'chat', state: 'at-end' },
  NavigationActions: { draw: (p) => <NavigationActions actions={message('tool').props.actions} {...p} />, weft: 'navigation-actions' },
  AgUiToolView: { draw: (p) => <AgUiToolView message={message('tool')} {...p} />, weft: 'ag-ui-tool' },
  'Queue.Root': { draw: (p) => <AgentProvider store={queued}><Queue.Root {...p} /></AgentProvider>, weft: 'queue', state: 'held' },
  'Queue.Item': { draw: (p) => <Queue.Item message={{ id: 'q1', text: 'And Lyon?' }} {...p} />, weft: 'queue-item', state: 'queued' },
  QueuedMessages: { draw: (p) => <AgentProvider store={queued}><QueuedMessages {...p} /></AgentProvider>, weft: 'queue', state: 'held' },
  'SubAgentLane.Header': { draw: (p) => <SubAgentLane.Header threadId="th1" {...p} />, weft: 'lane-header', state: 'collapsed', asChild: true },
  'SubAgentLane.Toggle': { draw: (p) => <SubAgentLane.Header threadId="th1"><SubAgentLane.Toggle {...p} /></SubAgentLane.Header>, weft: 'lane-toggle', state: 'collapsed', asChild: true },
  'SubAgentLane.Focus': { draw: (p) => <SubAgentLane.Header threadId="th1"><SubAgentLane.Focus {...p} /></SubAgentLane.Header>, weft: 'lane-focus-button', state: 'collapsed', asChild: true },
  'SubAgentLane.Hide': { draw: (p) => <SubAgentLane.Header threadId="th1"><SubAgentLane.Hide {...p} /></SubAgentLane.Header>, weft: 'lane-hide', state: 'collapsed', asChild: true },
  'SubAgentLane.FocusBar': { draw: (p) => <SubAgentLane.FocusBar threadId="th1" {...p} />, weft: 'lane-focus', state: 'focused', asChild: true },
  'SubAgentLane.Restore': { draw: (p) => <WithHiddenLane><SubAgentLane.Restore turnId="a1" {...p} /></WithHiddenLane>, weft: 'lane-restore', state: 'hidden', asChild: true },
}

/** A store of its own whose one lane the person hid, for `SubAgentLane.Restore` to show. */
const hiddenLane = createAgentStore()
hiddenLane.getState().dispatch([
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'thread.open', turnId: 'a1', threadId: 'th1', label: 'Lane A' },
])
function HideLane() {
  const lane = useLaneView('th1')
  useEffect(() => lane.hide(), [])
  return null
}
function WithHiddenLane({ children }: { children: ReactElement }) {
  return <AgentProvider store={hiddenLane}><HideLane />{children}</AgentProvider>
}

let conversations: Conversations
beforeAll(async () => {
  vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? class { observe() {} unobserve() {} disconnect() {} })
  conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
  await conversations.ready()
  conversations.create({ title: 'Trip plans' })
})
afterAll(async () => {
  vi.unstubAllGlobals()
  await conversations.dispose()
})
afterEach(() => cleanup())

function draw(ui: ReactElement) {
  return render(<AgentProvider store={store}><MarkdownSettingsProvider highlight={false}>{ui}</MarkdownSettingsProvider></AgentProvider>)
}

const exported = [...componentsOf(components), ...componentsOf(agUi)]

describe('every exported component passes its props and ref to its root', () => {
  it('each export has a case here (or draws no element of its own)', () => {
    expect(exported.filter((name) => !(name in cases) && !(name in NO_ELEMENT))).toEqual([])
    // A case for something no longer exported would check nothing.
    expect(Object.keys(cases).filter((name) => !exported.includes(name))).toEqual([])
  })

  it.each(Object.keys(cases))('%s: className, style, data-*, the ref; its data-weft and data-state kept', async (name) => {
    const { draw: ui, weft, state } = cases[name]!
    const ref = createRef<HTMLElement>()
    draw(ui({ className: 'probe', style: { marginTop: '7px' }, 'data-probe': 'yes', 'data-weft': 'mine', ref: ref as Ref<never> }))
    await waitFor(() => expect(ref.current).toBeInstanceOf(HTMLElement))
    const root = ref.current!
    // The props reached one element, and it is the one the ref points at.
    expect([...document.querySelectorAll('[data-probe]')]).toEqual([root])
    expect(root.classList.contains('probe')).toBe(true)
    expect(root.style.marginTop).toBe('7px')
    expect(root.getAttribute('data-weft')).toBe(weft)
    if (state !== undefined) expect(root.getAttribute('data-state')).toBe(state)
  })

  const leaves = Object.keys(cases).filter((name) => cases[name]!.asChild)
  it.each(leaves)('%s: asChild draws the host’s element with the part’s props and its ref', async (name) => {
    const { draw: ui, weft, state } = cases[name]!
    const ref = createRef<HTMLElement>()
    const probe = { className: 'probe', style: { marginTop: '7px' }, 'data-probe': 'yes', 'data-weft': 'mine', ref: ref as Ref<never> }
    // The host's element goes in as the part's only child.
    draw(withChild(ui(probe), <section className="host" data-host="" />))
    await waitFor(() => expect(ref.current).toBeInstanceOf(HTMLElement))
    const root = ref.current!
    expect(root.tagName).toBe('SECTION')
    expect(root.hasAttribute('data-host')).toBe(true)
    expect(root.className.split(' ').sort()).toEqual(['host', 'probe'])
    expect(root.style.marginTop).toBe('7px')
    expect(root.getAttribute('data-weft')).toBe(weft)
    if (state !== undefined) expect(root.getAttribute('data-state')).toBe(state)
  })
})

/** The part inside `element` (itself, or the one part inside a wrapper) given `asChild` and `child`. */
function withChild(element: ReactElement, child: ReactElement): ReactElement {
  const props = element.props as { 'data-probe'?: string; children?: ReactElement }
  if (props['data-probe'] !== undefined) return cloneElement(element, { asChild: true } as object, child)
  return cloneElement(element, undefined, withChild(props.children!, child))
}
