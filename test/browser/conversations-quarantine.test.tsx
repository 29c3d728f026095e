/**
 * A stored record is checked deeply before it is drawn. A damaged one is
 * quarantined: listed as unreadable (with its title), exportable as its raw JSON,
 * deletable, and it never reaches the transcript or the other conversations.
 * Random damage to a full record either loads as that record or is quarantined:
 * never a throw, never a render crash.
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import fc from 'fast-check'
import { Component, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { ConversationBoundary } from '../../src/components/conversation-boundary'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import {
  checkRecord, conversationRecord, createConversations, stateOf,
  type ConversationRecord, type ConversationStorage, type Conversations,
} from '../../src/core/conversations/index'
import type { AgentState } from '../../src/core/model/model'
import type { Op } from '../../src/core/model/ops'
import { memoryStorage } from '../../src/core/resume/storage'
import { createAgentStore } from '../../src/core/store/store'
import { ConversationsProvider } from '../../src/umbrella/providers'

const lists: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const c of lists.splice(0)) await c.dispose()
})

/** Records as stored, handed out as they are (no copy), so the check sees exactly what the test wrote. */
function rawStorage(records: Map<string, unknown>): ConversationStorage {
  const summary = (record: unknown) => {
    if (typeof record !== 'object' || record === null) return record
    const { state: _state, ...rest } = record as Record<string, unknown>
    return rest
  }
  return {
    list: async () => [...records].map(([id, record]) => ({ id, summary: summary(record) })),
    load: async (id) => records.get(id),
    save: async (record) => {
      records.set(record.id, structuredClone(record))
    },
    remove: async (id) => {
      records.delete(id)
    },
  }
}

/** Every part the transcript draws: text with a citation, reasoning, a tool call held by a gate, a file, a notice, an error, a step with a lane, a timeline, sources, suggestions, two versions of an answer. */
const fullConversation: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1/text', role: 'user', type: 'text', props: { content: 'Plan a trip' }, status: 'done' },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol: 'ui-message', suggestions: ['And the budget?'], usage: { inputTokens: 3 }, metadata: { title: 'Trip' } },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/reason', role: 'assistant', type: 'reasoning', props: { content: 'Thinking **hard**' }, status: 'done' },
  { op: 'block.open', turnId: 'a1', blockId: 'b1', kind: 'step', label: 'Research' },
  { op: 'thread.open', turnId: 'a1', threadId: 'th1', blockId: 'b1', label: 'Lane one' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/lane', blockId: 'b1', threadId: 'th1', role: 'assistant', type: 'text', props: { content: 'In the lane' }, status: 'done' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/tool', role: 'assistant', type: 'tool', props: { toolCallId: 'call1', name: 'book', input: { city: 'Lisbon' }, state: 'approval-requested' }, status: 'done' },
  { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'approval', question: 'Book it?', payload: { city: 'Lisbon' }, toolCallId: 'call1' } },
  { op: 'gate.open', gate: { id: 'g2', turnId: 'a1', kind: 'question', question: 'When?', payload: {}, status: 'answered', response: { value: 'May' } } },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/file', role: 'assistant', type: 'file', props: { url: 'https://example.com/a.pdf', mediaType: 'application/pdf', filename: 'a.pdf' }, status: 'done' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/notice', role: 'assistant', type: 'notice', props: { text: 'Heads up', level: 'warning' }, status: 'done' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/error', role: 'assistant', type: 'error', props: { message: 'A tool failed', code: 'tool' }, status: 'error' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/action', role: 'assistant', type: 'recommended-action', props: { actionId: 'a', label: 'Do it', confidence: 0.8 }, status: 'done' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/data', role: 'assistant', type: 'data-chart', props: { data: { points: [1, 2] } }, status: 'done' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/text', role: 'assistant', type: 'text', props: { content: 'Go to **Lisbon** [1].\n\n- Alfama\n- Belém' }, status: 'done' },
  { op: 'trace.node', turnId: 'a1', node: { id: 'n1', kind: 'tool', label: 'Search', status: 'done', tool: 'search', args: { q: 'Lisbon' }, result: ['x'], actor: { id: 'a', name: 'Agent' } } },
  { op: 'trace.node', turnId: 'a1', node: { id: 'n2', parentId: 'n1', kind: 'step', label: 'Read', status: 'done', detail: 'two pages' } },
  { op: 'source.add', turnId: 'a1', source: { id: 's1', kind: 'url', url: 'https://example.com', title: 'Example', snippet: 'A page', citationIndex: 1 } },
  { op: 'source.add', turnId: 'a1', source: { id: 's2', kind: 'document', title: 'Notes', filename: 'notes.txt' } },
  { op: 'problem', turnId: 'a1', error: { type: 'protocol', message: 'odd frame', retryable: false, code: 'odd' } },
  { op: 'turn.finish', turnId: 'a1', status: 'error', error: { type: 'network', message: 'dropped', retryable: true }, finishReason: 'stop' },
  { op: 'turn.open', turnId: 'a1b', role: 'assistant', parentId: 'u1' },
  { op: 'message.put', turnId: 'a1b', messageId: 'a1b/text', role: 'assistant', type: 'text', props: { content: 'Second version' }, status: 'done' },
  { op: 'turn.finish', turnId: 'a1b', status: 'aborted' },
  // Back to the first version, the one with every part, as the path the transcript draws.
  { op: 'branch.select', turnId: 'a1' },
  { op: 'cursor', cursor: { protocol: 'ui-message', streamId: 'st', lastEventId: '9', eventCount: 9, sequence: 2, turnId: 'a1b' } },
  { op: 'agentState.set', value: { step: 1, items: ['a'] } },
]

function fullRecord(id: string, title: string): ConversationRecord {
  const store = createAgentStore()
  store.getState().dispatch(fullConversation)
  return structuredClone(conversationRecord({ id, title, createdAt: 1, updatedAt: 2, revision: 3 }, store.getState()))
}

/** Catches what the page itself would lose: a render error nothing inside caught. */
class Outer extends Component<{ children?: ReactNode; onCrash(error: unknown): void }, { crashed: boolean }> {
  override state = { crashed: false }
  static getDerivedStateFromError() {
    return { crashed: true }
  }
  override componentDidCatch(error: unknown) {
    this.props.onCrash(error)
  }
  override render() {
    return this.state.crashed ? <p>page crashed</p> : this.props.children
  }
}

function App({ conversations, onCrash, onExport }: { conversations: Conversations; onCrash(error: unknown): void; onExport?: (id: string, json: string) => void }) {
  return (
    <Outer onCrash={onCrash}>
      <ConversationsProvider conversations={conversations}>
        <ThreadList onExport={onExport} />
        <ConversationBoundary><Transcript.Root /></ConversationBoundary>
      </ConversationsProvider>
    </Outer>
  )
}

async function openOn(records: Map<string, unknown>, selected: string): Promise<Conversations> {
  const selection = memoryStorage()
  selection.setItem('weft:conversations:selected:default', selected)
  const conversations = createConversations({ storage: rawStorage(records), selection, saveOnHide: false })
  lists.push(conversations)
  await conversations.ready()
  return conversations
}

const rowOf = (title: RegExp) => within(screen.getByRole('listbox')).getByRole('option', { name: title })

describe('a damaged record is quarantined', { timeout: 120_000 }, () => {
  it('a null source: listed as unreadable with its title, exported as stored, deleted; the rest of the page works', async () => {
    const records = new Map<string, unknown>()
    records.set('good', fullRecord('good', 'Good trip'))
    const bad = fullRecord('bad', 'Damaged trip')
    ;(bad.state.turns.a1 as unknown as { sources: unknown[] }).sources = [null]
    records.set('bad', bad)
    const conversations = await openOn(records, 'bad')
    const crashes: unknown[] = []
    const exported: Array<[string, string]> = []
    render(<App conversations={conversations} onCrash={(e) => crashes.push(e)} onExport={(id, json) => exported.push([id, json])} />)
    const row = await waitFor(() => rowOf(/Damaged trip/))
    expect(row.getAttribute('data-status')).toBe('error')
    expect(within(row).getByText('Cannot be read')).toBeTruthy()
    expect(row.getAttribute('aria-selected')).toBe('true')
    expect(screen.queryByText('Go to')).toBeNull()

    await userEvent.click(within(row).getByRole('button', { name: 'Export Damaged trip as JSON' }))
    await waitFor(() => expect(exported).toHaveLength(1))
    expect(exported[0]![0]).toBe('bad')
    expect(JSON.parse(exported[0]![1])).toEqual(bad)

    await userEvent.click(rowOf(/Good trip/))
    expect(await screen.findByText('Heads up')).toBeTruthy()
    await userEvent.click(within(rowOf(/Damaged trip/)).getByRole('button', { name: 'Delete Damaged trip' }))
    await waitFor(() => expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1))
    expect(records.has('bad')).toBe(false)
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull()
    expect(crashes).toEqual([])
  })

  it('Export without a handler downloads the record as <id>.json', async () => {
    const records = new Map<string, unknown>([['bad one', { format: 'weft.conversation', version: 1, id: 'bad one', title: 'Broken', createdAt: 1, updatedAt: 1, revision: 1, state: { turns: 5 } }]])
    const conversations = await openOn(records, 'bad one')
    const clicked: Array<{ download: string; href: string }> = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href })
    })
    try {
      render(<App conversations={conversations} onCrash={() => undefined} />)
      await userEvent.click(within(await waitFor(() => rowOf(/Broken/))).getByRole('button', { name: 'Export Broken as JSON' }))
      await waitFor(() => expect(clicked).toHaveLength(1))
    } finally {
      click.mockRestore()
    }
    expect(clicked[0]?.download).toBe('bad_one.json')
    expect(clicked[0]?.href).toMatch(/^blob:/)
  })
})

/** Every path to a value inside the record, objects and arrays included. */
function pathsOf(value: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (at.length > 0) out.push(at)
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out))
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...at, key], out)
  return out
}

type Corruption = { path: Array<string | number>; action: 'set'; value: unknown } | { path: Array<string | number>; action: 'delete' }

function corrupt(record: ConversationRecord, { path, action, ...rest }: Corruption): unknown {
  const copy = structuredClone(record) as unknown as Record<string | number, unknown>
  let at: Record<string | number, unknown> = copy
  for (const key of path.slice(0, -1)) {
    const next = at[key]
    // An earlier damage took the path away: this one has nothing to damage.
    if (typeof next !== 'object' || next === null) return copy
    at = next as Record<string | number, unknown>
  }
  const last = path.at(-1) as string | number
  if (action === 'delete') {
    if (Array.isArray(at)) at.splice(last as number, 1)
    else delete at[last]
  } else {
    at[last] = (rest as { value: unknown }).value
  }
  return copy
}

/** The model fields of a store's state (its functions left out). */
function modelOf(state: AgentState): Record<string, unknown> {
  return Object.fromEntries(Object.entries(state).filter(([, value]) => typeof value !== 'function'))
}

describe('random damage to a full record', { timeout: 600_000 }, () => {
  it('loads as that record or is quarantined: never a throw, never a render crash', async () => {
    const valid = fullRecord('target', 'Target')
    expect(checkRecord(valid, 'target').ok).toBe(true)
    expect(valid.state.turnIds).toEqual(['u1', 'a1'])
    const paths = pathsOf(valid)
    // Damage is spread over the kinds of place the components read (a turn's sources, a message's
    // props, a gate's status, …: the path with its ids and indexes left out), not over the paths,
    // most of which are deep in props; and it mostly gives a value of another type than the one there.
    const groups = new Map<string, Array<Array<string | number>>>()
    for (const path of paths) {
      const kind = path.map((key, i) => (typeof key === 'number' ? '#' : i === 2 && path[0] === 'state' ? '*' : key)).join('.')
      groups.set(kind, [...(groups.get(kind) ?? []), path])
    }
    const where = fc.constantFrom(...groups.values()).chain((group) => fc.constantFrom(...group))
    const anything = fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withTypedArray: true, maxDepth: 2 })
    const hostile = fc.constantFrom<unknown>(null, undefined, '', 0, -1, Number.NaN, true, [], {}, [null], [{}], { id: 5 }, 'user', 'done', 'a1', 'n1', '__proto__')
    const flip = (path: Array<string | number>): unknown => {
      const was = path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], valid)
      return Array.isArray(was) ? [null] : typeof was === 'object' && was !== null ? null : typeof was === 'string' ? 5 : 'text'
    }
    const corruption: fc.Arbitrary<Corruption> = fc.oneof(
      { weight: 2, arbitrary: where.map((path) => ({ path, action: 'set' as const, value: flip(path) })) },
      { weight: 1, arbitrary: fc.record({ path: where, action: fc.constant('set' as const), value: hostile }) },
      { weight: 1, arbitrary: fc.record({ path: where, action: fc.constant('set' as const), value: anything }) },
      { weight: 1, arbitrary: fc.record({ path: where, action: fc.constant('delete' as const) }) },
    )
    let quarantined = 0
    let loaded = 0
    await fc.assert(fc.asyncProperty(fc.array(corruption, { minLength: 1, maxLength: 3 }), async (damage) => {
      let raw: unknown = valid
      for (const one of damage) raw = corrupt(raw as ConversationRecord, one)
      const records = new Map<string, unknown>([['good', fullRecord('good', 'Other')], ['target', raw]])
      const checked = checkRecord(raw, 'target')
      const expected = checked.ok ? modelOf(stateOf(checked.value)) : undefined
      const conversations = createConversations({ storage: rawStorage(records), selection: memoryStorage(), saveOnHide: false })
      try {
        await conversations.ready()
        await conversations.select('target')
        const row = conversations.list().find((c) => c.id === 'target')
        if (!checked.ok) {
          quarantined += 1
          expect(row?.status).toBe('error')
          expect(conversations.storeOf('target')).toBeUndefined()
        } else {
          loaded += 1
          expect(row?.status === 'idle' || row?.status === 'error').toBe(true)
          const store = conversations.storeOf('target')
          if (row?.status === 'idle') expect(modelOf(store!.getState())).toEqual({ ...expected, status: 'idle' })
        }
        const crashes: unknown[] = []
        const view = render(<App conversations={conversations} onCrash={(e) => crashes.push(e)} />)
        await act(async () => undefined)
        expect(crashes).toEqual([])
        expect(document.querySelector('[data-weft="conversation-error"]')).toBeNull()
        expect(document.querySelector('[data-weft="part-error"]')).toBeNull()
        expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(2)
        if (checked.ok && (expected?.turnIds as string[]).length > 0) expect(document.querySelector('[data-weft="turn"]')).not.toBeNull()
        view.unmount()
        // The other conversation is untouched and draws.
        await conversations.select('good')
        expect(conversations.list().find((c) => c.id === 'good')?.status).toBe('idle')
      } finally {
        cleanup()
        await conversations.dispose()
      }
    }), { numRuns: 250 })
    expect(quarantined).toBeGreaterThan(10)
    expect(loaded).toBeGreaterThan(10)
  })
})
