import { render, screen, waitFor } from '@testing-library/react'
import { useRef } from 'react'
import { describe, expect, it } from 'vitest'
import { Transcript } from '../../src/components/transcript'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'
import { useHistory, useOlderOnScroll } from '../../src/react/use-history'

const conversation = Array.from({ length: 90 }, (_, i) => ({
  id: `m${i}`, role: i % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text: `Message number ${i}` }],
}))

function Chat({ asked }: { asked: Array<number | undefined> }) {
  const ref = useRef<HTMLDivElement>(null)
  const history = useHistory<number>({
    // The AI SDK protocol's own history reader (its definition's slot) reads each page.
    protocol: 'ui-message',
    load: async (before) => {
      asked.push(before)
      const end = before ?? conversation.length
      const start = Math.max(0, end - 30)
      // Each page overlaps the one after it by three messages.
      return { data: conversation.slice(start, Math.min(conversation.length, end + 3)), next: start, hasMore: start > 0 }
    },
  })
  useOlderOnScroll(ref, history)
  return (
    <div ref={ref} data-testid="scroller" style={{ height: 240, overflowY: 'auto', overflowAnchor: 'none' }}>
      {history.loading && <p>Loading earlier messages…</p>}
      <Transcript.Root />
    </div>
  )
}

describe('older pages on scroll-up', () => {
  it('load above what the reader sees, keep their place, and never repeat a message', async () => {
    const store = createAgentStore()
    const asked: Array<number | undefined> = []
    render(<AgentProvider store={store}><Chat asked={asked} /></AgentProvider>)
    await screen.findByText('Message number 89')
    const scroller = screen.getByTestId('scroller')
    expect(store.getState().turnIds).toHaveLength(30)

    for (const expected of [60, 30]) {
      // The reader scrolls to the top; the message there must stay where it is on screen.
      scroller.scrollTop = 0
      const oldest = store.getState().turnIds[0] as string
      const element = await screen.findByText(`Message number ${oldest.slice(1)}`)
      const before = element.getBoundingClientRect().top
      scroller.dispatchEvent(new Event('scroll'))
      await waitFor(() => expect(asked.at(-1)).toBe(expected))
      await waitFor(() => expect(store.getState().turnIds[0]).not.toBe(oldest))
      await waitFor(() => expect(Math.abs(element.getBoundingClientRect().top - before)).toBeLessThan(2))
      expect(scroller.scrollTop).toBeGreaterThan(100)
    }
    expect(store.getState().turnIds).toEqual(conversation.map((m) => m.id))
    expect(screen.getAllByText(/^Message number \d+$/)).toHaveLength(90)
  })
})
