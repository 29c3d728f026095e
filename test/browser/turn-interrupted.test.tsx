/**
 * The line under an answer that ended early: "Interrupted" when the stream had
 * nothing left to resume (a `resume_expired` problem) or ended before its
 * protocol's end (a `truncated` problem), "Stopped" when the person
 * stopped it; Retry asks for the answer again through the host's callback or the
 * client bound to the store, and is hidden while another answer streams.
 */
import '../../src/components/styles.css'
import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { RESUME_EXPIRED } from '../../src/core/client/options'
import { weftError } from '../../src/core/model/errors'
import { streamToOps } from '../../src/umbrella/defaults'
import type { Op } from '../../src/core/model/ops'
import type { StoreClient } from '../../src/react/client-slots'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Transcript } from '../../src/components/transcript'
import { renderWith, storeWith, textTurn } from './support'

const expired = weftError('network', 'HTTP 404', { code: RESUME_EXPIRED, status: 404, retryable: false })
const cut: Op[] = [...textTurn('Half an ans', 'streaming'), { op: 'problem', turnId: 't1', error: expired }, { op: 'turn.finish', turnId: 't1', status: 'aborted' }]
const stopped: Op[] = [...textTurn('Half an ans', 'streaming'), { op: 'turn.finish', turnId: 't1', status: 'aborted' }]

function fakeClient(): StoreClient & { regenerate: ReturnType<typeof vi.fn> } {
  return { answer: vi.fn(), selectBranch: vi.fn(), regenerate: vi.fn(async () => ({ ok: true as const })) } as never
}

describe('TurnInterrupted', () => {
  it('an answer cut off with nothing to resume reads "Interrupted", keeps its text, and Retry regenerates it through the bound client', () => {
    const store = storeWith(cut)
    const client = fakeClient()
    const { container } = renderWith(store, <Transcript.Root />, client)
    const line = container.querySelector('[data-weft="turn-interrupted"]')!
    expect(line.getAttribute('data-state')).toBe('interrupted')
    expect(line.textContent).toContain('Interrupted')
    expect(container.querySelector('[data-weft="turn"]')!.getAttribute('data-state')).toBe('aborted')
    expect(container.textContent).toContain('Half an ans')
    expect(container.querySelector('[data-weft="turn-error"]')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(client.regenerate).toHaveBeenCalledWith('t1')
  })

  it('a stream that ended before its protocol\'s end reads "Interrupted" too, with its text and Retry', () => {
    // A UI message stream with no finish and no [DONE]: the body just ended.
    const body = ['{"type":"start"}', '{"type":"text-start","id":"x"}', '{"type":"text-delta","id":"x","delta":"Half an ans"}'].map((d) => `data: ${d}\n\n`).join('')
    const store = storeWith([{ op: 'turn.open', turnId: 't1', role: 'assistant' }, ...streamToOps(body, { protocol: 'ui-message', turnId: 't1' })])
    const client = fakeClient()
    const { container } = renderWith(store, <Transcript.Root />, client)
    const line = container.querySelector('[data-weft="turn-interrupted"]')!
    expect(line.getAttribute('data-state')).toBe('interrupted')
    expect(container.textContent).toContain('Half an ans')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(client.regenerate).toHaveBeenCalledWith('t1')
  })

  it('a stopped answer reads "Stopped"; the host\'s onRegenerate takes Retry over', () => {
    const store = storeWith(stopped)
    const client = fakeClient()
    const onRegenerate = vi.fn()
    const { container } = renderWith(store, <WeftCallbacksProvider onRegenerate={onRegenerate}><Transcript.Root /></WeftCallbacksProvider>, client)
    const line = container.querySelector('[data-weft="turn-interrupted"]')!
    expect(line.getAttribute('data-state')).toBe('stopped')
    expect(line.textContent).toContain('Stopped')
    fireEvent.click(line.querySelector('[data-weft="turn-retry"]')!)
    expect(onRegenerate).toHaveBeenCalledWith('t1')
    expect(client.regenerate).not.toHaveBeenCalled()
  })

  it('shows nothing under a finished answer, and no Retry while another answer streams', () => {
    const done = storeWith(textTurn('All of it'))
    const first = renderWith(done, <Transcript.Root />, fakeClient())
    expect(first.container.querySelector('[data-weft="turn-interrupted"]')).toBeNull()
    first.unmount()

    const busy = storeWith([...cut, { op: 'stream.status', status: 'streaming' }])
    const { container } = renderWith(busy, <Transcript.Root />, fakeClient())
    expect(container.querySelector('[data-weft="turn-interrupted"]')).not.toBeNull()
    expect(container.querySelector('[data-weft="turn-retry"]')).toBeNull()
  })
})
