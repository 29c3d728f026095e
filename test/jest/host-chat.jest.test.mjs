/**
 * A host's component test under Jest (jsdom), importing only weft's public
 * entries from the built package, as an app that installed weft does. Plain
 * JavaScript with `createElement`, so Jest needs no transform at all.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { createElement as h, useState } from 'react'
import { useAgentStream, useMessage, useStatus, useTurn, useTurnIds } from 'weft/react'
import { fixtures, mockFetch, renderWithAgent, streamResponse } from 'weft/testing'

function Answer({ id }) {
  const message = useMessage(id)
  return message?.type === 'text' ? h('p', null, String(message.props.content ?? '')) : null
}

function Turn({ id }) {
  const turn = useTurn(id)
  if (!turn) return null
  return h(
    'li',
    { 'data-testid': `turn-${turn.role}` },
    ...turn.messageIds.map((m) => h(Answer, { key: m, id: m })),
    turn.error ? h('p', { role: 'alert' }, `Something went wrong: ${turn.error.message}`) : null,
  )
}

/** The host's own chat: its markup, its request body, weft's hooks underneath. */
function HelpDesk() {
  const [question, setQuestion] = useState('')
  const { send } = useAgentStream({ url: '/api/help', body: (input) => ({ q: typeof input === 'string' ? input : input?.text }) })
  const status = useStatus()
  const turnIds = useTurnIds()
  return h(
    'section',
    null,
    h('ol', null, ...turnIds.map((id) => h(Turn, { key: id, id }))),
    h('label', null, 'Question', h('input', { value: question, onChange: (e) => setQuestion(e.target.value) })),
    h('button', { type: 'button', onClick: () => void send(question) }, 'Ask'),
    h('output', { 'data-testid': 'status' }, status),
  )
}

function ask(text) {
  fireEvent.change(screen.getByLabelText('Question'), { target: { value: text } })
  fireEvent.click(screen.getByRole('button', { name: 'Ask' }))
}

afterEach(() => cleanup())

describe('weft/testing under Jest and jsdom', () => {
  it('renderWithAgent streams a fixture in random byte splits; finished() waits for the exact answer', async () => {
    const { fetch, finished } = renderWithAgent(h(HelpDesk), {
      stream: fixtures.vocion.plain,
      streamOptions: { chunking: 'random', seed: 11, eol: '\r\n' },
    })
    ask('Is the release ready?')
    const state = await finished()
    expect(state.status).toBe('done')
    expect(screen.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
    expect(screen.getByTestId('status').textContent).toBe('done')
    expect(fetch.calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(['POST /api/help'])
    expect(fetch.lastCall.json()).toEqual({ q: 'Is the release ready?' })
  })

  it('mockFetch routes answer with streamResponse, one answer per call', async () => {
    const second = [
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Second answer, ' }, delta: true },
      { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'with ünïcödé.' }, delta: true },
    ]
    const routes = mockFetch({
      'POST /api/help': [
        (_request, { signal }) => streamResponse(fixtures.yao['streaming-text'], { chunking: 'random', seed: 5, signal }),
        (_request, { signal }) => streamResponse(second, { protocol: 'yao', chunking: 'random', seed: 6, signal }),
      ],
    })
    const { finished } = renderWithAgent(h(HelpDesk), { clientDefaults: { fetch: routes } })
    ask('First?')
    await finished()
    ask('Second?')
    await finished()
    expect(screen.getAllByTestId('turn-assistant').map((li) => li.textContent)).toEqual(['Hello World!', 'Second answer, with ünïcödé.'])
    expect(routes.calls.map((c) => c.json().q)).toEqual(['First?', 'Second?'])
  })

  it('an error mid-stream keeps the partial answer and shows the error', async () => {
    const { finished } = renderWithAgent(h(HelpDesk), { stream: fixtures['ui-message']['error-mid-stream'] })
    ask('Numbers?')
    const state = await finished()
    expect(state.status).toBe('error')
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong: The model provider returned 503: overloaded')
    expect(screen.getByTestId('turn-assistant').querySelector('p').textContent).toBe('The quarterly numbers look fine so far, but the ')
  })
})
