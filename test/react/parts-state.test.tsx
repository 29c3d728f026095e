/**
 * State the small parts keep themselves: the time a tool call took when the
 * server does not say, the attached files between changes, and the chat's hold
 * on the end of the transcript.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useEffect } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Attachments, useAttachments, type AttachmentsState } from '../../src/components/attachments'
import { Chat } from '../../src/components/chat'
import { Transcript } from '../../src/components/transcript'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'

beforeAll(() => {
  vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? class { observe() {} unobserve() {} disconnect() {} })
})
afterAll(() => vi.unstubAllGlobals())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('a tool call’s duration', () => {
  it('is what the view saw from the call running to its result, when the server gives none', () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'message.put', turnId: 't', messageId: 'c', type: 'tool', status: 'streaming', props: { toolCallId: 'c', name: 'search', state: 'input-available', input: { q: 'x' } } },
    ])
    const { container } = render(<AgentProvider store={store}><Transcript.Root /></AgentProvider>)
    expect(container.querySelector('[data-weft="tool-duration"]')).toBeNull()
    vi.setSystemTime(1_002_400)
    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't', messageId: 'c', action: 'set', path: 'state', value: 'output-available' },
      { op: 'message.finish', messageId: 'c', status: 'done' },
    ]))
    expect(container.querySelector('[data-weft="tool-duration"]')?.textContent).toBe('2.4 s')
    // Later renders keep the time it took.
    vi.setSystemTime(1_009_000)
    act(() => store.getState().dispatch([{ op: 'message.delta', turnId: 't', messageId: 'c', action: 'set', path: 'output', value: { n: 1 } }]))
    expect(container.querySelector('[data-weft="tool-duration"]')?.textContent).toBe('2.4 s')
  })

  it('is the server’s durationMs when it gives one', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'message.put', turnId: 't', messageId: 'c', type: 'tool', status: 'done', props: { toolCallId: 'c', name: 'search', state: 'output-available', durationMs: 850 } },
    ])
    const { container } = render(<AgentProvider store={store}><Transcript.Root /></AgentProvider>)
    expect(container.querySelector('[data-weft="tool-duration"]')?.textContent).toBe('850 ms')
  })
})

describe('the attached files', () => {
  it('two changes in one event both count; remove and take work on the list as it is', () => {
    let handle: AttachmentsState | undefined
    function Grab() {
      const state = useAttachments()
      useEffect(() => { handle = state })
      return null
    }
    render(<Attachments.Root><Grab /><Attachments.List /></Attachments.Root>)
    const a = new File(['a'], 'a.txt'), b = new File(['b'], 'b.txt'), c = new File(['c'], 'c.txt')
    act(() => {
      handle!.add([a])
      handle!.add([b, c])
    })
    expect(handle!.files).toEqual([a, b, c])
    act(() => handle!.remove(1))
    expect(handle!.files).toEqual([a, c])
    let taken: File[] = []
    act(() => { taken = handle!.take() })
    expect(taken).toEqual([a, c])
    expect(handle!.files).toEqual([])
  })

  it('a file over the limits is refused and reported; the next accepted file clears the refusal', () => {
    const onError = vi.fn()
    let handle: AttachmentsState | undefined
    function Grab() {
      const state = useAttachments()
      useEffect(() => { handle = state })
      return null
    }
    render(<Attachments.Root limits={{ maxSize: 3 }} onError={onError}><Grab /><Attachments.List /></Attachments.Root>)
    act(() => handle!.add([new File(['too long'], 'big.txt')]))
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'attachment_size' }))
    expect(handle!.files).toEqual([])
    expect(screen.getByRole('alert')).toBeTruthy()
    act(() => handle!.add([new File(['ok'], 'ok.txt')]))
    expect(handle!.files).toHaveLength(1)
    expect(handle!.error).toBeUndefined()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('the chat’s hold on the end', () => {
  it('lets go when the person scrolls up, and Jump to latest takes it back', async () => {
    // A scroll that follows the person's input is measured in the next animation frame.
    const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))
    const store = createAgentStore()
    const { container } = render(<AgentProvider store={store}><Chat /></AgentProvider>)
    const chat = container.querySelector<HTMLElement>('[data-weft="chat"]')!
    const viewport = container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
    Object.defineProperty(viewport, 'scrollHeight', { configurable: true, value: 2000 })
    Object.defineProperty(viewport, 'clientHeight', { configurable: true, value: 200 })
    viewport.scrollTop = 1800
    fireEvent.scroll(viewport)
    expect(chat.getAttribute('data-state')).toBe('at-end')
    fireEvent.wheel(viewport, { deltaY: -1800 })
    viewport.scrollTop = 0
    fireEvent.scroll(viewport)
    await nextFrame()
    expect(chat.getAttribute('data-state')).toBe('scrolled')
    fireEvent.click(screen.getByRole('button', { name: /Jump to latest/ }))
    expect(chat.getAttribute('data-state')).toBe('at-end')
    expect(viewport.scrollTop).toBe(2000)
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
  })
})
