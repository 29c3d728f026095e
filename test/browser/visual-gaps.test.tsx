/**
 * The last gaps of the side-by-side with assistant-ui, as behaviour: the
 * composer's default placeholder, a gate's title after its answer, a plain
 * answer's headline, a held call's input shown once, grouped tool calls, data
 * parts, source chips and the narrow thread list.
 */
import '../../src/components/styles.css'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { RendererProvider } from '../../src/components/renderers'
import { Composer } from '../../src/components/composer'
import { GateCard, Gates } from '../../src/components/gate-card'
import { Sources } from '../../src/components/sources'
import { ThreadList } from '../../src/components/thread-list'
import { ThreadListLayout } from '../../src/components/thread-list-layout'
import { createConversations, memoryConversations } from '../../src/core/conversations/index'
import { ConversationsProvider } from '../../src/umbrella/providers'
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

describe('consecutive tool calls, grouped', () => {
  const call = (id: string, name: string, state = 'output-available', block?: string): Op => ({
    op: 'message.put', turnId: 't1', messageId: id, type: 'tool', status: state === 'input-available' ? 'streaming' : state === 'output-error' ? 'error' : 'done', ...(block ? { blockId: block } : {}),
    props: { toolCallId: id, name, state, input: { q: id }, ...(state === 'output-available' ? { output: { ok: true } } : {}) },
  })
  const words = (id: string, content: string, block?: string): Op => ({ op: 'message.put', turnId: 't1', messageId: id, type: 'text', status: 'done', ...(block ? { blockId: block } : {}), props: { content } })
  const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
  const groups = () => [...document.querySelectorAll<HTMLDetailsElement>('[data-weft="tool-group"]')]
  const callsIn = (group: Element) => [...group.querySelectorAll('[data-weft="tool-name"]')].map((name) => name.textContent)

  it('a finished run is one folded line, "Used 3 tools" and their names, that a click or the keyboard opens onto each call', async () => {
    renderWith(storeWith([open, call('c1', 'search'), call('c2', 'read_page'), call('c3', 'search'), words('m1', 'Found it.')]), <Transcript.Root />)
    const [group, ...more] = groups()
    expect(more).toEqual([])
    expect(group!.getAttribute('data-state')).toBe('done')
    expect(group!.open).toBe(false)
    const summary = group!.querySelector('summary')!
    expect(summary.textContent).toBe('Used 3 toolssearch, read_page')
    expect(callsIn(group!)).toEqual(['search', 'read_page', 'search'])
    // The answer stays outside the group.
    expect(group!.contains(screen.getByText('Found it.'))).toBe(false)
    summary.focus()
    await userEvent.keyboard('{Enter}')
    expect(group!.open).toBe(true)
    expect(summary.checkVisibility()).toBe(true)
    expect(group!.querySelector('[data-weft="tool-header"]')!.checkVisibility()).toBe(true)
    await userEvent.click(summary)
    expect(group!.open).toBe(false)
    expect(group!.querySelector('[data-weft="tool-header"]')!.checkVisibility()).toBe(false)
  })

  it('a single call stays as it is; words between calls end a run', () => {
    renderWith(storeWith([open, call('c1', 'search'), words('m1', 'Then:'), call('c2', 'read_page'), words('m2', 'Done.')]), <Transcript.Root />)
    expect(groups()).toEqual([])
    expect(document.querySelectorAll('[data-weft="tool"]').length).toBe(2)
  })

  it('is open while a call runs or failed, and says so', () => {
    const { unmount } = renderWith(storeWith([open, call('c1', 'search'), call('c2', 'book', 'input-available')]), <Transcript.Root />)
    expect([groups()[0]!.open, groups()[0]!.getAttribute('data-state'), groups()[0]!.querySelector('[data-weft="tool-group-label"]')!.textContent]).toEqual([true, 'running', 'Using 2 tools…'])
    unmount()
    renderWith(storeWith([open, call('c1', 'search'), call('c2', 'post', 'output-error')]), <Transcript.Root />)
    expect([groups()[0]!.open, groups()[0]!.getAttribute('data-state')]).toEqual([true, 'error'])
  })

  it('folds the calls of successive steps together; a step with words ends the run', () => {
    const step = (n: number): Op => ({ op: 'block.open', turnId: 't1', blockId: `s${n}`, kind: 'step', label: `Step ${n}` })
    renderWith(storeWith([open, step(1), call('c1', 'search', 'output-available', 's1'), step(2), call('c2', 'read_page', 'output-available', 's2'), call('c3', 'read_page', 'output-available', 's2'), step(3), words('m1', 'Here it is.', 's3')]), <Transcript.Root />)
    const [group, ...more] = groups()
    expect(more).toEqual([])
    expect(callsIn(group!)).toEqual(['search', 'read_page', 'read_page'])
    expect(group!.querySelectorAll('[data-weft="block"]').length).toBe(2)
    expect(group!.contains(screen.getByText('Here it is.'))).toBe(false)
  })

  it('leaves out the calls a host\'s tool renderer draws (generative UI stays in sight)', () => {
    const Weather = () => <p>Sunny</p>
    renderWith(storeWith([open, call('c1', 'get_weather'), call('c2', 'search'), call('c3', 'get_weather')]), <RendererProvider toolRenderers={{ get_weather: Weather }}><Transcript.Root /></RendererProvider>)
    expect(groups()).toEqual([])
    expect(screen.getAllByText('Sunny').length).toBe(2)
  })
})

describe('a data part\'s default card', () => {
  const part = (type: string, props: Record<string, unknown>): Op[] => [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.put', turnId: 't1', messageId: 'd1', type, status: 'done', props },
  ]
  const fields = () => [...document.querySelectorAll('[data-weft="data-fields"] > div')].map((row) => [row.querySelector('dt')?.textContent ?? null, row.querySelector('dd')!.textContent])

  it('lists the fields as keys and one-line values, with the raw JSON folded behind a disclosure', async () => {
    renderWith(storeWith(part('data-weather', { data: { city: 'Paris', tempC: 18, rain: false, tags: ['mild', 'wet'], wind: { kph: 12, from: 'SW' }, hours: [{ h: 9 }], note: null } })), <Transcript.Root />)
    expect(fields()).toEqual([['city', 'Paris'], ['tempC', '18'], ['rain', 'false'], ['tags', 'mild, wet'], ['wind', 'kph: 12, from: SW'], ['hours', '[{"h":9}]'], ['note', '—']])
    const raw = document.querySelector<HTMLDetailsElement>('[data-weft="data-raw"]')!
    expect(raw.open).toBe(false)
    expect(raw.querySelector('pre')!.checkVisibility()).toBe(false)
    expect(raw.querySelector('summary')!.textContent).toBe('JSON')
    await userEvent.click(raw.querySelector('summary')!)
    expect(raw.querySelector('pre')!.checkVisibility()).toBe(true)
    expect(JSON.parse(raw.querySelector('pre')!.textContent!)).toEqual({ city: 'Paris', tempC: 18, rain: false, tags: ['mild', 'wet'], wind: { kph: 12, from: 'SW' }, hours: [{ h: 9 }], note: null })
  })

  it('draws every value as text, cuts a long one, and shows a value that is not an object on one line', () => {
    const { unmount } = renderWith(storeWith(part('data-note', { data: { html: '<img src=x onerror=alert(1)>', long: 'x'.repeat(500) } })), <Transcript.Root />)
    expect(document.querySelector('[data-weft="data"] img')).toBeNull()
    expect(fields()[0]).toEqual(['html', '<img src=x onerror=alert(1)>'])
    expect(fields()[1]![1]!.length).toBe(120)
    unmount()
    renderWith(storeWith(part('data-count', { data: 42 })), <Transcript.Root />)
    expect(fields()).toEqual([[null, '42']])
  })

  it('is replaced by a host\'s renderer for the type or for data-*', () => {
    const Mine = () => <p data-testid="mine">mine</p>
    renderWith(storeWith(part('data-weather', { data: { city: 'Paris' } })), <RendererProvider renderers={{ 'data-*': Mine }}><Transcript.Root /></RendererProvider>)
    expect(screen.getByTestId('mine')).toBeTruthy()
    expect(document.querySelector('[data-weft="data-fields"]')).toBeNull()
  })
})

describe('source chips', () => {
  const withSources = (...sources: Array<Record<string, unknown>>): Op[] => [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    ...sources.map((source, i): Op => ({ op: 'source.add', turnId: 't1', source: { id: `s${i}`, kind: 'url', ...source } })),
  ]
  const icons = () => [...document.querySelectorAll<HTMLElement>('[data-weft="source-icon"]')]

  it('show the site\'s icon, lazily and without a referrer, over its first letter; a failed icon leaves the letter', () => {
    renderWith(storeWith(withSources({ url: 'https://www.meteofrance.com/paris?x=1', title: 'Météo-France' })), <Sources turnId="t1" />)
    const [icon] = icons()
    const img = icon!.querySelector('img')!
    expect([img.getAttribute('src'), img.getAttribute('loading'), img.getAttribute('referrerpolicy'), img.alt]).toEqual(['https://www.meteofrance.com/favicon.ico', 'lazy', 'no-referrer', ''])
    expect([icon!.textContent, icon!.getAttribute('aria-hidden'), icon!.getAttribute('data-state')]).toEqual(['M', 'true', 'loading'])
    expect(getComputedStyle(img).opacity).toBe('0')
    fireEvent.load(img)
    expect(icon!.getAttribute('data-state')).toBe('loaded')
    expect(getComputedStyle(img).opacity).toBe('1')
    fireEvent.error(img)
    expect(icon!.querySelector('img')).toBeNull()
    expect([icon!.textContent, icon!.getAttribute('data-state')]).toEqual(['M', 'error'])
  })

  it('ask nothing of a URL that is not http or https, nor when the host says not to; a host\'s icon address goes through safeUrl', () => {
    const ops = withSources({ url: 'mailto:nadia@contoso.example', title: 'Mail' }, { url: '/docs/intro', title: 'Docs' }, { url: 'javascript:alert(1)', title: 'Trap' }, { title: 'Memo', kind: 'document' }, { url: 'ftp://files.example/a', title: 'FTP' })
    const { unmount } = renderWith(storeWith(ops), <Sources turnId="t1" />)
    expect(document.querySelectorAll('img').length).toBe(0)
    expect(icons().map((icon) => icon.textContent)).toEqual(['M', 'D', 'T', 'M', 'F'])
    unmount()
    const web = withSources({ url: 'https://a.example/x', title: 'A' }, { url: 'https://b.example/y', title: 'B' })
    const off = renderWith(storeWith(web), <Sources turnId="t1" favicon={false} />)
    expect(document.querySelectorAll('img').length).toBe(0)
    off.unmount()
    renderWith(storeWith(web), <Sources turnId="t1" favicon={(_source, url) => (url.hostname === 'a.example' ? `https://icons.example/${url.hostname}.png` : 'javascript:alert(1)')} />)
    expect([...document.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual(['https://icons.example/a.example.png'])
  })

  it('show a card with the whole title, the URL and the snippet on hover and on focus; Escape hides it', async () => {
    renderWith(storeWith(withSources({ url: 'https://crm.example.com/contoso', title: 'Contoso — renewal record', snippet: 'Renews on 1 March.' }, { title: 'Offline memo', kind: 'document' })), <Sources turnId="t1" />)
    const [first, second] = [...document.querySelectorAll<HTMLElement>('[data-weft="source-card"]')]
    expect(first!.checkVisibility()).toBe(false)
    expect([...first!.children].map((part) => part.textContent)).toEqual(['Contoso — renewal record', 'https://crm.example.com/contoso', 'Renews on 1 March.'])
    const link = screen.getByRole('link', { name: 'Contoso — renewal record' })
    expect(link.getAttribute('aria-describedby')).toBe(first!.id)
    expect(first!.getAttribute('role')).toBe('tooltip')
    await userEvent.hover(link)
    expect(first!.checkVisibility()).toBe(true)
    await userEvent.unhover(link)
    expect(first!.checkVisibility()).toBe(false)
    await userEvent.tab()
    expect(document.activeElement).toBe(link)
    expect(first!.checkVisibility()).toBe(true)
    await userEvent.keyboard('{Escape}')
    expect(first!.checkVisibility()).toBe(false)
    // A source without a link is reachable by the keyboard too, for its card.
    await userEvent.tab()
    expect(document.activeElement!.textContent).toBe('Offline memo')
    expect(second!.checkVisibility()).toBe(true)
    expect(first!.getAttribute('data-state')).toBeNull()
  })
})

describe('the thread list beside the chat', () => {
  const lists: Array<{ dispose(): Promise<void> }> = []
  afterEach(async () => {
    for (const list of lists.splice(0)) await list.dispose()
  })

  async function layout(width: number) {
    const conversations = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    for (const title of ['Trip plans', 'Renewal', 'Budget']) conversations.create({ title })
    render(
      <ConversationsProvider conversations={conversations}>
        <div style={{ width, height: 480 }}>
          <ThreadListLayout>
            <ThreadList />
            <main data-testid="chat">The chat</main>
          </ThreadListLayout>
        </div>
      </ConversationsProvider>,
    )
    const nav = await waitFor(() => document.querySelector<HTMLElement>('nav[data-weft="thread-list"]')!)
    const toggle = document.querySelector<HTMLElement>('[data-weft="thread-toggle"]')!
    expect([nav.getAttribute('aria-label'), toggle.getAttribute('aria-label')]).toEqual(['Conversations', 'Conversations'])
    return { conversations, nav, toggle }
  }

  it('is a sidebar beside the chat where there is room: no toggle', async () => {
    const { nav, toggle } = await layout(1000)
    expect(nav.checkVisibility()).toBe(true)
    expect(toggle.checkVisibility()).toBe(false)
    expect(nav.getBoundingClientRect().right).toBeLessThanOrEqual(screen.getByTestId('chat').getBoundingClientRect().left)
  })

  it('at 375 px is a drawer over the full-width chat, opened by a button; focus goes in, Escape closes it and returns focus', async () => {
    const { nav, toggle } = await layout(375)
    const chat = screen.getByTestId('chat')
    expect(nav.checkVisibility()).toBe(false)
    expect(toggle.checkVisibility()).toBe(true)
    expect(chat.getBoundingClientRect().width).toBeGreaterThan(370)
    expect([toggle.getAttribute('aria-expanded'), toggle.getAttribute('aria-controls')]).toEqual(['false', nav.id])
    await userEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(nav.checkVisibility()).toBe(true)
    // Over the chat, not beside it.
    expect(nav.getBoundingClientRect().left).toBe(chat.getBoundingClientRect().left)
    await waitFor(() => expect(nav.contains(document.activeElement)).toBe(true))
    expect(document.activeElement!.getAttribute('role')).toBe('option')
    await userEvent.keyboard('{Escape}')
    expect(nav.checkVisibility()).toBe(false)
    expect(document.activeElement).toBe(toggle)
  })

  it('closes when a conversation is chosen, or on a click beside it', async () => {
    const { nav, toggle, conversations } = await layout(375)
    await userEvent.click(toggle)
    await userEvent.click(screen.getByRole('option', { name: /Renewal/ }))
    await waitFor(() => expect(conversations.state.getState().selectedId).toBe(conversations.state.getState().list.find((c) => c.title === 'Renewal')!.id))
    expect(nav.checkVisibility()).toBe(false)
    expect(document.activeElement).toBe(toggle)
    await userEvent.click(toggle)
    expect(nav.checkVisibility()).toBe(true)
    const backdrop = document.querySelector<HTMLElement>('[data-weft="thread-backdrop"]')!
    const box = nav.getBoundingClientRect()
    await userEvent.click(backdrop, { position: { x: box.right + 20, y: 100 } })
    expect(nav.checkVisibility()).toBe(false)
  })
})
