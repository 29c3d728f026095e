/**
 * A streamed answer in `Chat`, in Chromium, as the page draws it: token by token,
 * one commit per animation frame, after enough turns that the transcript is a
 * virtual list. When the answer finishes, every node already drawn stays (no block
 * is rebuilt) and the finish changes only a few nodes; and at no point of the
 * stream does a "ResizeObserver loop completed with undelivered notifications"
 * error reach the window, where a host's error tracker would record it.
 */
import '../../src/components/styles.css'
import { act } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import type { Op } from '../../src/core/model/ops'
import type { AgentStore } from '../../src/core/store/store'
import { renderWith, storeWith } from './support'

const ANSWER = [
  '## The plan\n\nA first paragraph with **bold** words, `code` and a [link](https://example.com).\n\n',
  '- one item\n- two items\n  - a nested one\n- three items\n\n',
  '| name | value |\n| --- | ---: |\n| alpha | 1 |\n| beta | 2 |\n\n',
  '> A quote that goes on\n> for two lines.\n\n',
  '```ts\nconst answer = 42\nconsole.log(answer)\n```\n\n',
  '1. first\n2. second\n\n',
  'A last paragraph that is still streaming when the answer ends',
].join('').repeat(3)

const earlier = (count: number): Op[] =>
  Array.from({ length: count }, (_, i): Op[] => [
    { op: 'turn.open', turnId: `t${i}`, role: i % 2 ? 'assistant' : 'user' },
    { op: 'message.put', turnId: `t${i}`, messageId: `m${i}`, type: 'text', status: 'done', props: { content: `Message ${i}\n\nwith a second paragraph.` } },
    { op: 'turn.finish', turnId: `t${i}`, status: 'done' },
  ]).flat()

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
const frames = async (n: number) => { for (let i = 0; i < n; i++) await frame() }

/** Streams `text` into a new answer after a question, a few tokens per frame, as the client's frame batches do. */
async function stream(store: AgentStore, text: string) {
  const dispatch = (ops: Op[]) => act(() => store.getState().dispatch(ops))
  dispatch([
    { op: 'turn.open', turnId: 'q', role: 'user' },
    { op: 'message.put', turnId: 'q', messageId: 'q/m', type: 'text', status: 'done', props: { content: 'Tell me everything.' } },
    { op: 'turn.finish', turnId: 'q', status: 'done' },
  ])
  await frame()
  dispatch([{ op: 'turn.open', turnId: 'a', role: 'assistant' }])
  const tokens = text.match(/[^ ]+ ?|\s+/g)!
  for (let i = 0; i < tokens.length; i += 6) {
    dispatch([{ op: 'message.delta', turnId: 'a', messageId: 'a/m', type: 'text', action: 'append', path: 'content', value: tokens.slice(i, i + 6).join('') }])
    await frame()
  }
}

const finish = (store: AgentStore) => act(() => store.getState().dispatch([
  { op: 'message.finish', messageId: 'a/m', status: 'done' },
  { op: 'turn.finish', turnId: 'a', status: 'done' },
]))

let errors: string[] = []
const onError = (event: ErrorEvent) => { errors.push(event.message) }
beforeEach(() => {
  errors = []
  window.addEventListener('error', onError)
})
afterEach(() => window.removeEventListener('error', onError))

describe('the end of a streamed answer in Chat', () => {
  it('keeps every node already drawn: the blocks are the same elements before and after the finish, and few nodes change', async () => {
    const store = storeWith(earlier(60))
    const { container } = renderWith(store, <MarkdownSettingsProvider highlight={false}><div style={{ height: 500 }}><Chat /></div></MarkdownSettingsProvider>)
    expect(container.querySelector('[data-weft="transcript"]')!.getAttribute('data-state')).toBe('virtual')
    await stream(store, ANSWER)
    await frames(2)
    const answer = container.querySelector<HTMLElement>('[data-weft="turn"][data-state="streaming"]')!
    const text = answer.querySelector<HTMLElement>('[data-weft="text"]')!
    expect(text.getAttribute('aria-busy')).toBe('true')
    const blocks = [...text.querySelector('[data-weft="markdown"]')!.children]
    expect(blocks.length).toBeGreaterThan(20)
    const every = [answer, text, ...answer.querySelectorAll('*')]

    const removed: Node[] = []
    let added = 0
    const watcher = new MutationObserver((records) => {
      for (const record of records) {
        removed.push(...record.removedNodes)
        added += record.addedNodes.length
      }
    })
    watcher.observe(container, { childList: true, subtree: true })
    finish(store)
    await frames(3)
    watcher.disconnect()

    expect(every.filter((node) => !node.isConnected)).toEqual([])
    expect([...text.querySelector('[data-weft="markdown"]')!.children]).toEqual(blocks)
    expect(text.getAttribute('aria-busy')).toBeNull()
    expect(answer.getAttribute('data-state')).toBe('done')
    // Nothing of the answer is taken out; what the finish adds is the turn's actions (copy and the like), not a redraw.
    expect(removed.filter((node) => answer.contains(node) || node.contains(answer))).toEqual([])
    expect(added).toBeLessThan(10)
    expect(text.textContent).toContain('A last paragraph that is still streaming when the answer ends')
  })

  it('raises no ResizeObserver loop error while the answer streams, joins the list and ends', async () => {
    const store = storeWith(earlier(60))
    renderWith(store, <MarkdownSettingsProvider highlight={false}><div style={{ height: 500 }}><Chat /></div></MarkdownSettingsProvider>)
    await frames(2)
    await stream(store, ANSWER)
    finish(store)
    await frames(3)
    // A next question moves the answer into the virtual list, which measures it.
    await stream(store, ANSWER.slice(0, 600))
    finish(store)
    await frames(5)
    expect(errors).toEqual([])
  })
})
