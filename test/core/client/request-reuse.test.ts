import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentClientOptions } from '../../../src/core/client/options'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import { createAgentStore } from '../../../src/core/store/store'
import { toAgUiMessages } from '../../../src/protocols/ag-ui/request'
import { toUIMessages } from '../../../src/protocols/ui-message/ui-messages'
import { sseStream } from '../../helpers/streams'
import '../../setup'

/** The messages a request of this state carries, rebuilt from nothing. */
const rebuilt: Record<'ui-message' | 'ag-ui', (state: AgentState, path: readonly string[]) => unknown[]> = {
  'ui-message': toUIMessages,
  'ag-ui': toAgUiMessages,
}

interface Sent {
  body: { messages: unknown[] } & Record<string, unknown>
  /** What the same request carries, built again from the store's state as it was sent. */
  expected: unknown[]
}

/** A client whose every request is recorded and answered with the next of `streams`. */
function recording(protocol: 'ui-message' | 'ag-ui', streams: readonly string[], options: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  const sent: Sent[] = []
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    const state = store.getState()
    const answer = state.activeTurnId ?? ''
    const path = state.turnIds.slice(0, Math.max(0, state.turnIds.indexOf(answer)))
    sent.push({ body: JSON.parse(String(init?.body)) as Sent['body'], expected: JSON.parse(JSON.stringify(rebuilt[protocol](state, path))) as unknown[] })
    const text = streams[sent.length - 1] ?? ''
    return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  }
  const client = new AgentClient(store, { url: '/agent', protocol, fetch, scheduler: syncScheduler, idleTimeoutMs: 0, ...options })
  return { store, client, sent }
}

describe('a request reuses the messages of turns that did not change', () => {
  for (const protocol of ['ui-message', 'ag-ui'] as const satisfies readonly ProtocolName[]) {
    it(`${protocol}: every request carries what the conversation rebuilt from nothing carries, whatever the streams did to earlier turns`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(sseStream(protocol, 16), { minLength: 2, maxLength: 5 }), async (streams) => {
          const { client, sent } = recording(protocol, streams)
          for (let i = 0; i < streams.length; i++) await client.send(`question ${i}`)
          expect(sent).toHaveLength(streams.length)
          for (const { body, expected } of sent) expect(body.messages).toEqual(expected)
        }),
        { numRuns: 150 },
      )
    })
  }

  it('an unchanged turn gives the same message object to every request, and a changed one a new one', async () => {
    const built: unknown[][] = []
    const store = createAgentStore()
    const stream = (text: string) => [
      { type: 'start', messageId: `a-${text}` }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' }, { type: 'finish' },
    ].map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
    let calls = 0
    const client = new AgentClient(store, {
      url: '/agent', protocol: 'ui-message', scheduler: syncScheduler, idleTimeoutMs: 0,
      fetch: async () => new Response(stream(`answer ${calls++}`), { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    })
    const definition = (await import('../../../src/protocols/ui-message/protocol')).uiMessageProtocol
    const build = (state: AgentState) => {
      const body = definition.request!({
        state, path: state.turnIds, turnId: 'next', trigger: 'submit', conversationId: 'c', runId: 'r', tools: [], answers: [],
      }) as { messages: unknown[] }
      built.push(body.messages)
      return body.messages
    }
    await client.send('one')
    await client.send('two')
    const first = build(store.getState())
    const second = build(store.getState())
    expect(second).toHaveLength(4)
    second.forEach((message, i) => expect(message).toBe(first[i]))
    // The last answer changes: only its message is built again.
    const state = store.getState()
    const last = state.turnIds.at(-1)!
    store.getState().dispatch([{ op: 'message.delta', turnId: last, messageId: state.turns[last]!.messageIds[0]!, type: 'text', action: 'append', path: 'content', value: '!' }])
    const third = build(store.getState())
    third.slice(0, 3).forEach((message, i) => expect(message).toBe(first[i]))
    expect(third[3]).not.toBe(first[3])
    expect(JSON.stringify(third[3])).toContain('answer 1!')
  })

  it('a host’s body function gets a copy of the built body: what it changes in place is not sent again', async () => {
    const streams = ['data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"A"}\n\ndata: {"type":"text-end","id":"t"}\n\ndata: {"type":"finish"}\n\n', '', '']
    const { client, sent } = recording('ui-message', streams, {
      body: (_input, { built }) => {
        const body = built as { messages: Array<{ parts: Array<Record<string, unknown>> }> }
        // A host that edits the messages it was handed, in place.
        for (const message of body.messages) message.parts[0]!.text += ' (edited)'
        return body
      },
    })
    await client.send('one')
    await client.send('two')
    await client.send('three')
    // The second answer was empty, so it is not sent.
    expect(sent.map((s) => s.body.messages.length)).toEqual([1, 3, 4])
    // Each request was edited once: an edit never reaches the messages a later request reuses.
    expect(sent.map(({ body }) => (body.messages as Array<{ parts: Array<{ text?: string }> }>).map((m) => m.parts[0]!.text))).toEqual([
      ['one (edited)'],
      ['one (edited)', 'A (edited)', 'two (edited)'],
      ['one (edited)', 'A (edited)', 'two (edited)', 'three (edited)'],
    ])
    expect(sent[2]!.expected).toEqual([
      expect.objectContaining({ parts: [expect.objectContaining({ text: 'one' })] }),
      expect.objectContaining({ parts: [expect.objectContaining({ text: 'A' })] }),
      expect.objectContaining({ parts: [expect.objectContaining({ text: 'two' })] }),
      expect.objectContaining({ parts: [expect.objectContaining({ text: 'three' })] }),
    ])
  })
})
