/**
 * No visible string is written into a component: every word a person sees or
 * hears comes from `labels` (or from the server's data). The components are
 * drawn with labels whose every value is a marker (`⟦key⟧`) and data that has no
 * Latin letter in it (Greek); any Latin letter left on the page once the markers
 * are taken out is a string the kit wrote itself, and fails the test. Every
 * label must also show up in one of the scenes, so a component that stopped
 * drawing (and so could not be checked) fails too.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Attachments } from '../../src/components/attachments'
import { BranchPicker } from '../../src/components/branch-picker'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Chat } from '../../src/components/chat'
import { Composer } from '../../src/components/composer'
import { ConversationBoundary } from '../../src/components/conversation-boundary'
import { LabelsProvider, englishLabels, type WeftLabels } from '../../src/components/labels'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import type { MessageRendererProps } from '../../src/components/renderers'
import { RendererProvider } from '../../src/components/renderers'
import { StateInspector } from '../../src/components/state-inspector'
import { StatusBar } from '../../src/components/status-bar'
import { UsageSettingsProvider } from '../../src/components/turn-usage'
import { QueuedMessages } from '../../src/components/queued-messages'
import { ThreadList } from '../../src/components/thread-list'
import { Trace } from '../../src/components/trace'
import { Transcript } from '../../src/components/transcript'
import { createConversations, memoryConversations, type Conversations } from '../../src/core/conversations/index'
import { weftError } from '../../src/core/model/errors'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore } from '../../src/core/store/store'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { AgentProvider } from '../../src/umbrella/providers'
import { SendRefusalContext } from '../../src/react/store-context'
import { VoiceSettingsProvider } from '../../src/components/voice'
import { MessageActions } from '../../src/components/message-actions'
import { handDictation, handReadAloud } from '../helpers/voice'

/** Each label as its marker: `⟦send⟧`, `⟦statuses.error⟧`; a function label returns its marker whatever it is given. */
function markerLabels(): WeftLabels {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(englishLabels)) {
    if (typeof value === 'string') out[key] = `⟦${key}⟧`
    else if (typeof value === 'function') out[key] = () => `⟦${key}⟧`
    else out[key] = Object.fromEntries(Object.keys(value as object).map((sub) => [sub, `⟦${key}.${sub}⟧`]))
  }
  return out as unknown as WeftLabels
}

const MARKER = /⟦([\w-]+)(?:\.[\w-]+)?⟧/g

/** What a person can read or hear: text nodes, and the attributes that name or describe. */
function shown(root: ParentNode): string[] {
  const out: string[] = []
  const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT)
  while (walker.nextNode()) {
    // A source's URL and the letter of its site are the server's, shown as sent.
    if (walker.currentNode.parentElement?.closest('[data-weft="source-card-url"], [data-weft="source-icon"]')) continue
    out.push(walker.currentNode.nodeValue ?? '')
  }
  for (const element of root.querySelectorAll('*')) {
    for (const name of ['aria-label', 'aria-description', 'aria-valuetext', 'title', 'placeholder', 'alt']) {
      const value = element.getAttribute(name)
      if (value) out.push(value)
    }
  }
  return out
}

const seen = new Set<string>()

/** Records the markers on the page and returns what is left of each string once they are gone, where a Latin letter is. */
function hardCoded(root: ParentNode = document.body): string[] {
  const left: string[] = []
  for (const text of shown(root)) {
    for (const match of text.matchAll(MARKER)) seen.add(match[1]!)
    const rest = text.replace(MARKER, '')
    if (/[A-Za-z]/.test(rest)) left.push(rest)
  }
  return left
}

function Boom({ message }: MessageRendererProps): ReactNode {
  throw new Error(`cannot draw ${message.id}`)
}

const longOutput = Array.from({ length: 40 }, (_, i) => `γραμμή ${i}`).join('\n')

/**
 * One conversation that shows every part: a question, two versions of its
 * answer (the second shown), an answer that failed and one still streaming.
 */
const conversation: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1m', type: 'text', role: 'user', status: 'done', props: { content: 'Πού βρέχει;' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a0', role: 'assistant', parentId: 'u1' },
  { op: 'turn.finish', turnId: 'a0', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1', suggestions: ['Και αύριο;'] },
  { op: 'trace.node', turnId: 'a1', node: { id: 'n1', kind: 'search', label: 'Αναζήτηση', status: 'done', args: { πόλη: 'Αθήνα' } } },
  { op: 'trace.node', turnId: 'a1', node: { id: 'n2', kind: 'tool', label: 'Εργαλείο', status: 'done', parentId: 'n1' } },
  { op: 'source.add', turnId: 'a1', source: { id: 's1', kind: 'url', url: 'https://example.com/a', title: 'Πηγή', snippet: 'Απόσπασμα', citationIndex: 1 } },
  { op: 'message.put', turnId: 'a1', messageId: 'r1', type: 'reasoning', status: 'done', props: { content: 'Σκέψη' } },
  { op: 'message.put', turnId: 'a1', messageId: 't1', type: 'text', role: 'assistant', status: 'done', props: { content: 'Βρέχει [1].\n\n```τ\nκώδικας\n```' } },
  { op: 'message.put', turnId: 'a1', messageId: 'c1', type: 'tool', status: 'streaming', props: { toolCallId: 'c1', name: 'καιρός', state: 'approval-requested', input: { πόλη: 'Αθήνα' } } },
  { op: 'message.put', turnId: 'a1', messageId: 'c2', type: 'tool', status: 'done', props: { toolCallId: 'c2', name: 'ανάγνωση', state: 'output-available', input: { αρχείο: 'α' }, output: longOutput, durationMs: 850, preliminary: true } },
  { op: 'message.put', turnId: 'a1', messageId: 'c3', type: 'tool', status: 'done', props: { toolCallId: 'c3', state: 'input-available', input: { α: 1 } } },
  { op: 'message.put', turnId: 'a1', messageId: 'f1', type: 'file', status: 'done', props: { url: 'javascript:alert(1)', mediaType: 'application/pdf' } },
  { op: 'message.put', turnId: 'a1', messageId: 'f2', type: 'image', status: 'done', props: { url: 'javascript:alert(1)' } },
  { op: 'message.put', turnId: 'a1', messageId: 'f3', type: 'image', status: 'done', props: { url: 'https://example.com/cat.png' } },
  { op: 'message.put', turnId: 'a1', messageId: 'x1', type: 'notice', status: 'done', props: { text: 'Σημείωση', level: 'info' } },
  { op: 'message.put', turnId: 'a1', messageId: 'x2', type: 'error', status: 'done', props: {} },
  { op: 'message.put', turnId: 'a1', messageId: 'x3', type: 'loading', status: 'done', props: {} },
  { op: 'message.put', turnId: 'a1', messageId: 'x4', type: 'recommended-action', status: 'done', props: { rationale: 'Γιατί', confidence: 0.8 } },
  { op: 'message.put', turnId: 'a1', messageId: 'x5', type: 'ξένο', status: 'done', props: { τιμή: 1 } },
  { op: 'message.put', turnId: 'a1', messageId: 'x6', type: 'boom', status: 'done', props: {} },
  { op: 'block.open', turnId: 'a1', blockId: 'b1', kind: 'step', label: 'Βήμα' },
  { op: 'thread.open', turnId: 'a1', threadId: 'th1', blockId: 'b1' },
  { op: 'message.put', turnId: 'a1', messageId: 'l1', blockId: 'b1', threadId: 'th1', type: 'text', role: 'assistant', status: 'done', props: { content: 'Λωρίδα' } },
  { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'tool-approval', toolCallId: 'c1', question: '', payload: {} } },
  { op: 'gate.open', gate: { id: 'g2', turnId: 'a1', kind: 'approval', question: 'Εντάξει;', payload: { ποσό: 3 } } },
  { op: 'gate.open', gate: { id: 'g3', turnId: 'a1', kind: 'question', question: 'Ποιος λογαριασμός;', payload: {} } },
  { op: 'gate.open', gate: { id: 'g4', turnId: 'a1', kind: 'approval', question: 'Στείλε;', payload: {} } },
  { op: 'gate.resolve', gateId: 'g4', status: 'approved', response: { reason: 'Ναι' } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  { op: 'turn.open', turnId: 'u2', role: 'user' },
  { op: 'message.put', turnId: 'u2', messageId: 'u2m', type: 'text', role: 'user', status: 'done', props: { content: 'Ξανά' } },
  { op: 'turn.finish', turnId: 'u2', status: 'done' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'turn.finish', turnId: 'a2', status: 'error', error: weftError('network', 'Η σύνδεση έπεσε') },
  { op: 'turn.open', turnId: 'a2b', role: 'assistant' },
  { op: 'problem', turnId: 'a2b', error: weftError('network', 'Κόπηκε', { code: 'resume_expired' }) },
  { op: 'turn.finish', turnId: 'a2b', status: 'aborted' },
  { op: 'turn.open', turnId: 'u3', role: 'user' },
  { op: 'message.put', turnId: 'u3', messageId: 'u3m', type: 'text', role: 'user', status: 'done', props: { content: 'Πάλι' } },
  { op: 'turn.finish', turnId: 'u3', status: 'done' },
  { op: 'turn.open', turnId: 'a3', role: 'assistant' },
  { op: 'message.put', turnId: 'a3', messageId: 'r3', type: 'reasoning', status: 'streaming', props: { content: 'Σκέφτομαι' } },
  { op: 'stream.status', status: 'error', error: weftError('network', 'Η σύνδεση έπεσε') },
]

class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

const lists: Conversations[] = []
let clipboard: PropertyDescriptor | undefined
beforeAll(() => {
  vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? NoResizeObserver)
  clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard')
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => undefined } })
})
afterAll(() => {
  vi.unstubAllGlobals()
  if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard)
  else delete (navigator as { clipboard?: unknown }).clipboard
})
afterEach(async () => {
  cleanup()
  for (const conversations of lists.splice(0)) await conversations.dispose()
})

/** Four stored conversations, shown as answering, unreadable, in conflict and idle (its last save failed); none selected. */
async function fourStates(): Promise<Conversations> {
  const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
  lists.push(conversations)
  await conversations.ready()
  for (const title of ['Ήσυχη', 'Σύγκρουση', 'Χαλασμένη', 'Ροή']) conversations.create({ title })
  const status = { Ροή: 'streaming', Χαλασμένη: 'error', Σύγκρουση: 'conflict' } as const
  conversations.state.setState((s) => ({
    list: s.list.map((c) => {
      const next = status[c.title as keyof typeof status]
      if (c.title === 'Ήσυχη') return { ...c, saveError: weftError('internal', 'δεν αποθηκεύτηκε', { code: 'conversation_save_failed' }) }
      return next ? { ...c, status: next, error: next === 'error' ? weftError('protocol', 'χαλασμένο') : undefined } : c
    }),
  }))
  return conversations
}

/** The next animation frame, where the chat measures a scroll that followed the person's input. */
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))

/** The person scrolls the chat's viewport up from its end, by the wheel. */
async function scrollUp(viewport: HTMLElement): Promise<void> {
  Object.defineProperty(viewport, 'scrollHeight', { configurable: true, value: 2000 })
  Object.defineProperty(viewport, 'clientHeight', { configurable: true, value: 200 })
  viewport.scrollTop = 1800
  fireEvent.scroll(viewport)
  fireEvent.wheel(viewport, { deltaY: -1800 })
  viewport.scrollTop = 0
  fireEvent.scroll(viewport)
  await nextFrame()
}

describe('every visible string comes from labels', () => {
  it('the chat: transcript, every message type, tools, gates, trace, sources, actions, the composer (refusing too), attachments, status', async () => {
    const store = createAgentStore()
    store.getState().dispatch(conversation)
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    render(
      <AgentProvider store={store}>
        <LabelsProvider labels={markerLabels()}>
          <MarkdownSettingsProvider highlight={false}>
            <WeftCallbacksProvider onAction={() => undefined} onSuggest={() => undefined} onFeedback={() => undefined} onRegenerate={() => undefined} onEdit={() => undefined} onGateAnswer={() => undefined}>
              <RendererProvider renderers={{ boom: Boom }}>
                <Chat
                  footer={(
                    <>
                      <Attachments.Root limits={{ maxSize: 4 }} data-testid="attachments">
                        <Attachments.List />
                        <Attachments.Button />
                        <Composer send={() => undefined} stop={() => undefined} busy={false} />
                      </Attachments.Root>
                      <Composer send={() => undefined} stop={() => undefined} busy />
                      <SendRefusalContext.Provider value={weftError('validation', 'Φορτώνει', { code: 'conversation_unavailable' })}>
                        <Composer send={() => undefined} data-testid="refused" />
                      </SendRefusalContext.Provider>
                      <StatusBar onRetry={() => undefined} />
                    </>
                  )}
                >
                  <Transcript.Root />
                  <Trace.Disclosure turnId="a1" />
                  <BranchPicker turnId="a1" />
                </Chat>
              </RendererProvider>
            </WeftCallbacksProvider>
          </MarkdownSettingsProvider>
        </LabelsProvider>
      </AgentProvider>,
    )
    spy.mockRestore()
    expect(within(screen.getByTestId('refused')).getByRole('textbox').getAttribute('placeholder')).toBe('⟦sendRefused⟧')
    expect(hardCoded()).toEqual([])

    // Attach a file within the limit, then one over it.
    const root = screen.getByTestId('attachments')
    const drop = (file: File) => fireEvent.drop(root, { dataTransfer: { files: [file], types: ['Files'] } })
    drop(new File(['αβ'], 'ω', { type: 'application/octet-stream' }))
    drop(new File(['αβγδεζηθ'], 'ψ', { type: 'application/octet-stream' }))
    expect(screen.getByRole('alert').textContent).toBe('⟦fileRefused⟧')
    expect(hardCoded()).toEqual([])

    // What only a click shows: the whole output, a copy confirmed, "Jump to latest".
    fireEvent.click(screen.getByRole('button', { name: '⟦showMore⟧' }))
    await act(async () => { fireEvent.click(screen.getAllByRole('button', { name: '⟦copy⟧' })[0]!) })
    expect(screen.getAllByText('⟦copied⟧')).not.toHaveLength(0)
    await scrollUp(document.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!)
    expect(screen.getByRole('button', { name: /⟦jumpToLatest⟧/ })).toBeTruthy()
    expect(hardCoded()).toEqual([])
  })

  it('the thread list: every state of a row, rename, delete and undo', async () => {
    const conversations = await fourStates()
    render(
      <LabelsProvider labels={markerLabels()}>
        <ConversationsProvider conversations={conversations}>
          <ThreadList />
        </ConversationsProvider>
      </LabelsProvider>,
    )
    const list = await screen.findByRole('listbox')
    expect(hardCoded()).toEqual([])

    const row = (title: string) => within(list).getByRole('option', { name: new RegExp(title) })
    fireEvent.doubleClick(row('Ήσυχη'))
    expect(await screen.findByRole('textbox', { name: '⟦conversationTitle⟧' })).toBeTruthy()
    expect(hardCoded()).toEqual([])
    fireEvent.keyDown(screen.getByRole('textbox', { name: '⟦conversationTitle⟧' }), { key: 'Escape' })

    await act(async () => { fireEvent.click(within(row('Ήσυχη')).getAllByRole('button', { name: '⟦deleteConversation⟧' })[0]!) })
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('⟦deletedConversation⟧'))
    expect(hardCoded()).toEqual([])
  })

  it('a conversation that cannot be drawn: the alert in its place', () => {
    const Throws = (): ReactNode => {
      throw new Error('cannot draw')
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    render(<LabelsProvider labels={markerLabels()}><ConversationBoundary><Throws /></ConversationBoundary></LabelsProvider>)
    quiet.mockRestore()
    expect(screen.getByRole('alert').textContent).toContain('⟦conversationNotShown⟧')
    expect(hardCoded()).toEqual([])
  })

  it('the queue: waiting and held messages, one with files, and an edit in progress', () => {
    const client = {
      answer: async () => ({ ok: true as const }), selectBranch: () => ({ ok: true as const }), regenerate: async () => ({ ok: true as const }),
      editQueued: () => ({ ok: true as const }), cancelQueued: () => ({ ok: true as const }), sendQueued: async () => ({ ok: true as const }),
    }
    for (const status of ['streaming', 'aborted'] as const) {
      const store = createAgentStore()
      store.getState().dispatch([
        { op: 'queue.put', message: { id: 'q1', text: 'Ένα' } },
        { op: 'queue.put', message: { id: 'q2', text: 'Δύο', files: 2 } },
        { op: 'stream.status', status },
      ])
      const { unmount } = render(<AgentProvider store={store} client={client}><LabelsProvider labels={markerLabels()}><QueuedMessages /></LabelsProvider></AgentProvider>)
      fireEvent.click(within(document.querySelector<HTMLElement>('[data-weft="queue-item"]')!).getByRole('button', { name: '⟦edit⟧' }))
      expect(hardCoded()).toEqual([])
      unmount()
    }
  })

  it('the state inspector: its name (the rest shows the model’s own field names, as its JSON does)', () => {
    const store = createAgentStore()
    render(<AgentProvider store={store}><LabelsProvider labels={markerLabels()}><StateInspector /></LabelsProvider></AgentProvider>)
    expect(screen.getByRole('group', { name: '⟦stateInspector⟧' })).toBeTruthy()
    seen.add('stateInspector')
  })

  it('the usage footer: each figure\'s name, its counts, times, speed and cost', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'turn.update', turnId: 'a1', usage: { inputTokens: 10, outputTokens: 20, reasoningTokens: 3, cachedInputTokens: 4, model: 'μ' }, timing: { runs: [{ startedAt: 0, firstTokenAt: 100, endedAt: 1100 }] } },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
      { op: 'turn.open', turnId: 'a2', role: 'assistant' },
      { op: 'turn.update', turnId: 'a2', usage: { totalTokens: 7 } },
      { op: 'turn.finish', turnId: 'a2', status: 'done' },
    ])
    render(<AgentProvider store={store}><LabelsProvider labels={markerLabels()}><UsageSettingsProvider prices={{ μ: { input: 1, output: 1 } }}><Transcript.Root /></UsageSettingsProvider></LabelsProvider></AgentProvider>)
    expect(hardCoded()).toEqual([])
    expect(document.querySelectorAll('[data-weft="usage-figure"]')).toHaveLength(9)
  })

  it('sub-agent lanes: the summary line, focus and its bar, hide and the way back, in the transcript and the timeline', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'thread.open', turnId: 'a1', threadId: 'λ', label: 'ερευνητής' },
      { op: 'trace.node', turnId: 'a1', node: { id: 'δ', kind: 'delegate', label: 'ερευνητής', status: 'start', actor: { id: 'λ', name: 'ερευνητής' } } },
      { op: 'trace.node', turnId: 'a1', node: { id: 'ψ', parentId: 'δ', kind: 'search', label: 'αναζήτηση', status: 'done' } },
      { op: 'message.put', turnId: 'a1', messageId: 'μ', threadId: 'λ', type: 'text', role: 'assistant', status: 'done', props: { content: 'Σημειώσεις' } },
    ])
    render(<AgentProvider store={store}><LabelsProvider labels={markerLabels()}><Transcript.Root /><Trace.Root turnId="a1" /></LabelsProvider></AgentProvider>)
    expect(hardCoded()).toEqual([])
    fireEvent.click(screen.getAllByRole('button', { name: '⟦laneFocus⟧' })[0]!)
    expect(document.querySelector('[data-weft="lane-focus"]')).not.toBeNull()
    expect(hardCoded()).toEqual([])
    fireEvent.click(document.querySelector<HTMLElement>('[data-weft="lane-unfocus"]')!)
    fireEvent.click(screen.getAllByRole('button', { name: '⟦laneHide⟧' })[0]!)
    expect(document.querySelector('[data-weft="lane-restore"]')).not.toBeNull()
    expect(hardCoded()).toEqual([])
  })

  it('voice: dictation idle, listening and failed; read aloud idle, speaking and failed', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'a1', role: 'assistant' },
      { op: 'message.put', turnId: 'a1', messageId: 'm', type: 'text', role: 'assistant', status: 'done', props: { content: 'Βρέχει' } },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    const dictation = handDictation()
    const readAloud = handReadAloud()
    render(
      <AgentProvider store={store}>
        <LabelsProvider labels={markerLabels()}>
          <VoiceSettingsProvider dictation={dictation} readAloud={readAloud}>
            <MessageActions turnId="a1" />
            <Composer send={() => undefined} busy={false} />
          </VoiceSettingsProvider>
        </LabelsProvider>
      </AgentProvider>,
    )
    expect(hardCoded()).toEqual([])
    const dictate = screen.getByRole('button', { name: '⟦dictate⟧' })
    fireEvent.click(dictate)
    act(() => dictation.last().started())
    expect(screen.getByRole('button', { name: '⟦stopDictation⟧' })).toBeTruthy()
    expect(hardCoded()).toEqual([])
    act(() => {
      dictation.last().error('not-allowed')
      dictation.last().end()
    })
    fireEvent.click(screen.getByRole('button', { name: '⟦readAloud⟧' }))
    expect(screen.getByRole('button', { name: '⟦stopReading⟧' })).toBeTruthy()
    expect(hardCoded()).toEqual([])
    act(() => {
      readAloud.last().handlers.onError?.({ code: 'network', message: 'network' })
      readAloud.last().handlers.onEnd?.()
    })
    expect(hardCoded()).toEqual([])
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toEqual(['⟦readAloudError⟧', '⟦dictationError⟧'])
  })

  it('every label was shown by one of the scenes above', () => {
    // approvalAnswered is deprecated: an answered gate's title is its outcome (gateStates).
    const shown = (key: string) => seen.has(key) || key === 'approvalAnswered'
    expect(Object.keys(englishLabels).filter((key) => !shown(key))).toEqual([])
  })
})

describe('the check itself', () => {
  it('finds a string the kit wrote: English labels leave Latin letters on the page', () => {
    const store = createAgentStore()
    store.getState().dispatch(conversation)
    render(<AgentProvider store={store}><Composer send={() => undefined} /><StatusBar /></AgentProvider>)
    expect(hardCoded()).toEqual(expect.arrayContaining(['Send', 'Message', 'Something went wrong']))
  })
})
