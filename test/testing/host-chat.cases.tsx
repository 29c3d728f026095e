/**
 * The host-style component tests, run under jsdom and in Chromium. They use
 * Testing Library and the public `weft/testing` API only.
 */
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { fixtures, renderWithAgent } from 'weft/testing'
import { SupportChat } from '../../stories/testing/SupportChat'

function ask(text: string) {
  fireEvent.change(screen.getByLabelText('Question'), { target: { value: text } })
  fireEvent.click(screen.getByRole('button', { name: 'Ask' }))
}

/** Registers the cases; `where` names the environment in the test titles. */
export function hostChatCases(where: string) {
  describe(`a host component under renderWithAgent (${where})`, () => {
    afterEach(() => cleanup())

    it('shows the streamed answer and sends the host’s request body', async () => {
      const { fetch, finished } = renderWithAgent(<SupportChat />, { stream: fixtures.vocion.plain! })
      ask('Is the release ready?')
      const state = await finished()
      expect(state.status).toBe('done')
      expect(screen.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
      expect(screen.getByTestId('turn-user').textContent).toBe('Is the release ready?')
      expect(screen.getByTestId('status').textContent).toBe('done')
      expect(fetch.calls).toHaveLength(1)
      expect(fetch.lastCall!.method).toBe('POST')
      expect(new URL(fetch.lastCall!.url).pathname).toBe('/api/support/chat')
      expect(fetch.lastCall!.json()).toEqual({ question: 'Is the release ready?', locale: 'en-GB' })
    })

    it('shows an error that arrives mid-stream, with the partial answer kept', async () => {
      const { finished } = renderWithAgent(<SupportChat />, { stream: fixtures['ui-message']['error-mid-stream']! })
      ask('Numbers?')
      await finished()
      expect(screen.getByRole('alert').textContent).toBe('Something went wrong: The model provider returned 503: overloaded')
      expect(screen.getByTestId('turn-assistant').querySelector('p')?.textContent).toBe('The quarterly numbers look fine so far, but the ')
    })

    it('a dropped connection under random byte splits ends the turn in an error, not a hang', async () => {
      const { finished } = renderWithAgent(<SupportChat />, {
        stream: fixtures.yao['dropped-connection']!,
        streamOptions: { chunking: 'random', seed: 42 },
      })
      ask('Tell me everything')
      const state = await finished()
      expect(state.status).toBe('error')
      expect(screen.getByRole('alert').textContent).toMatch(/^Something went wrong: Connection lost/)
      expect(screen.getByTestId('turn-assistant').querySelector('p')?.textContent).toMatch(/^Paragraph 1: the café’s ledger/)
    })

    it('a gate the agent opens is shown, and a second question gets the next answer', async () => {
      const { finished, fetch } = renderWithAgent(<SupportChat />, {
        routes: { 'POST /api/support/chat': [fixtures.vocion.hitl!, fixtures.vocion.plain!] },
      })
      ask('Email Nadia')
      await finished()
      expect(screen.getByTestId('gate').textContent).toMatch(/^Needs approval: /)
      ask('Anything else?')
      await finished()
      expect(screen.getAllByTestId('turn-assistant')).toHaveLength(2)
      expect(screen.getAllByTestId('turn-assistant')[1]!.textContent).toBe('Hello! The build is green and the release is ready.')
      expect(fetch.calls.map((c) => c.json<{ question: string }>().question)).toEqual(['Email Nadia', 'Anything else?'])
    })

    it('starts from a given state, with each render its own store', async () => {
      const first = renderWithAgent(<SupportChat />, { stream: fixtures.vocion.plain! })
      ask('One')
      await first.finished()
      cleanup()
      const second = renderWithAgent(<SupportChat />, { state: first.state() })
      expect(second.store).not.toBe(first.store)
      expect(screen.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
      expect(second.fetch.calls).toHaveLength(0)
    })
  })
}
