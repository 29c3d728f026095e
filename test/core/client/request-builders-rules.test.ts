/**
 * The request builders rule by rule, with exact results: AG-UI's messages from
 * each kind of turn (user text and files, assistant text, system text, tool calls
 * and their results, what each message kept), the AI SDK request's `messageId`
 * and `resume`, Yao's newest question, and the request plan (the host's `body`,
 * bodies sent as they are, the text of a send input).
 */
import { describe, expect, it } from 'vitest'
import { WeftStreamError } from '../../../src/core/model/errors'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import { defaultRequest, hostBody, textOf } from '../../../src/core/client/request-plan'
import { agUiRequest as agUiBody, toAgUiMessages } from '../../../src/protocols/ag-ui/request'
import { uiMessageRequest as uiMessageBody } from '../../../src/protocols/ui-message/request'
import { yaoRequest } from '../../../src/protocols/yao/request'

type Props = Record<string, unknown>
const turn = (turnId: string, role: 'user' | 'assistant' | 'system', messages: Array<[string, string, Props] | [string, string, Props, string]>): Op[] => [
  { op: 'turn.open', turnId, role },
  ...messages.map(([messageId, type, props, messageRole]): Op => ({ op: 'message.put', turnId, messageId, type, props, role: (messageRole ?? role) as 'user' })),
]
const stateOf = (...turns: Op[][]) => fold(emptyState(), turns.flat())
/** The builders' bodies are objects; typed as such to read their fields. */
const agUiRequest = (context: RequestContext) => agUiBody(context) as Record<string, unknown>
const uiMessageRequest = (context: RequestContext) => uiMessageBody(context) as Record<string, unknown>
const agUi = (state: AgentState, path = state.turnIds) => toAgUiMessages(state, path)

describe('AG-UI messages: a user turn', () => {
  it('its texts joined by a newline, under the first message\'s id', () => {
    const state = stateOf(turn('u1', 'user', [['m1', 'text', { content: 'Hi' }], ['m2', 'text', { content: 'there' }], ['m3', 'text', { content: 7 }]]))
    expect(agUi(state)).toStrictEqual([{ id: 'm1', role: 'user', content: 'Hi\nthere\n' }])
  })

  it('with files, a list of parts: the text, then each file as data or a URL, an image or a document', () => {
    const state = stateOf(turn('u1', 'user', [
      ['m1', 'text', { content: 'Look' }],
      ['f1', 'image', { url: 'data:image/png;base64,AAAA', mediaType: 'image/png' }],
      ['f2', 'file', { url: 'https://x.test/r.pdf', mediaType: 'application/pdf' }],
      ['f3', 'file', { url: 'data:;base64,BBBB', mediaType: 'text/plain' }],
      ['f4', 'file', { url: 'https://x.test/blob' }],
      ['f5', 'image', { url: 'data:image/jpeg;base64,\nCC\nCC', mediaType: 'image/png' }],
      ['f6', 'file', { url: 42, mediaType: 7 }],
    ]))
    expect(agUi(state)).toStrictEqual([{
      id: 'm1', role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image', source: { type: 'data', value: 'AAAA', mimeType: 'image/png' } },
        { type: 'document', source: { type: 'url', value: 'https://x.test/r.pdf', mimeType: 'application/pdf' } },
        { type: 'document', source: { type: 'data', value: 'BBBB', mimeType: 'text/plain' } },
        { type: 'document', source: { type: 'url', value: 'https://x.test/blob', mimeType: 'application/octet-stream' } },
        { type: 'image', source: { type: 'data', value: '\nCC\nCC', mimeType: 'image/jpeg' } },
        { type: 'document', source: { type: 'url', value: '', mimeType: 'application/octet-stream' } },
      ],
    }])
  })

  it('files alone: no text part, under the first file\'s id; a data URL that only looks like one is a URL', () => {
    const state = stateOf(turn('u1', 'user', [['f1', 'file', { url: 'xdata:image/png;base64,AA', mediaType: 'image/png' }], ['f2', 'file', { url: 'data:image/png,AA', mediaType: 'image/png' }]]))
    expect(agUi(state)).toStrictEqual([{
      id: 'f1', role: 'user',
      content: [
        { type: 'image', source: { type: 'url', value: 'xdata:image/png;base64,AA', mimeType: 'image/png' } },
        { type: 'image', source: { type: 'url', value: 'data:image/png,AA', mimeType: 'image/png' } },
      ],
    }])
  })

  it('a user turn with nothing to send sends nothing, and a turn the state does not hold is skipped', () => {
    const state = stateOf(turn('u1', 'user', [['m1', 'reasoning', { content: 'x' }]]), turn('u2', 'user', [['m2', 'text', { content: 'Hi' }]]))
    expect(agUi(state, ['u1', 'nope', 'u2'])).toStrictEqual([{ id: 'm2', role: 'user', content: 'Hi' }])
  })

  it('keeps the message\'s name, metadata, encrypted value and unread fields; its own fields win', () => {
    const extra = { seq: 3, id: 'not-this', role: 'x', content: 'x', name: 'x', metadata: 'x', encryptedValue: 'x', toolCalls: 'x', toolCallId: 'x', error: 'x', __proto__x: 1 }
    const state = stateOf(turn('u1', 'user', [['m1', 'text', { content: 'Hi', name: 'ann', metadata: { a: 1 }, encryptedValue: 'enc', extra }]]))
    expect(agUi(state)).toStrictEqual([{ seq: 3, __proto__x: 1, name: 'ann', metadata: { a: 1 }, encryptedValue: 'enc', id: 'm1', role: 'user', content: 'Hi' }])
    const plain = stateOf(turn('u1', 'user', [['m1', 'text', { content: 'Hi', name: 3, metadata: 'm', encryptedValue: 4, extra: 'not a record' }]]))
    expect(agUi(plain)).toStrictEqual([{ id: 'm1', role: 'user', content: 'Hi' }])
  })
})

describe('AG-UI messages: an answer', () => {
  it('each text an assistant message, a system text a system message, other messages nothing', () => {
    const state = stateOf(turn('a1', 'assistant', [
      ['t1', 'text', { content: 'One' }],
      ['s1', 'text', { content: 'Be brief' }, 'system'],
      ['r1', 'reasoning', { content: 'hmm' }],
      ['t2', 'text', { content: 'Two', name: 'helper' }],
      ['t3', 'text', { content: 5 }],
      ['s2', 'image', { url: 'x' }, 'system'],
    ]))
    expect(agUi(state)).toStrictEqual([
      { id: 't1', role: 'assistant', content: 'One' },
      { id: 's1', role: 'system', content: 'Be brief' },
      { name: 'helper', id: 't2', role: 'assistant', content: 'Two' },
      { id: 't3', role: 'assistant', content: '' },
    ])
  })

  it('a user text inside an answer is not sent as the answer\'s', () => {
    const state = stateOf(turn('a1', 'assistant', [['t1', 'text', { content: 'One' }], ['u1', 'text', { content: 'Echo' }, 'user']]))
    expect(agUi(state)).toStrictEqual([{ id: 't1', role: 'assistant', content: 'One' }])
  })

  it('tool calls go on the text before them, their results after it', () => {
    const state = stateOf(turn('a1', 'assistant', [
      ['t1', 'text', { content: 'Let me look' }],
      ['c1', 'tool', { toolCallId: 'call-1', name: 'search', input: { q: 'x' }, state: 'output-available', output: 'found' }],
      ['c2', 'tool', { toolCallId: 'call-2', name: 'fetch', inputText: '{"u":1}', input: { u: 2 }, state: 'output-error', errorText: 'timeout' }],
      ['c3', 'tool', { toolCallId: 'call-3', name: '', input: undefined, state: 'output-denied' }],
      ['c4', 'tool', { toolCallId: 'call-4', name: 'wait', inputText: '', input: [1], state: 'input-available' }],
      ['t2', 'text', { content: 'Done' }],
    ]))
    expect(agUi(state)).toStrictEqual([
      {
        id: 't1', role: 'assistant', content: 'Let me look',
        toolCalls: [
          { id: 'call-1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
          { id: 'call-2', type: 'function', function: { name: 'fetch', arguments: '{"u":1}' } },
          { id: 'call-3', type: 'function', function: { name: 'tool', arguments: '{}' } },
          { id: 'call-4', type: 'function', function: { name: 'wait', arguments: '[1]' } },
        ],
      },
      { id: 'call-1:result', role: 'tool', toolCallId: 'call-1', content: 'found' },
      { id: 'call-2:result', role: 'tool', toolCallId: 'call-2', content: 'timeout', error: 'timeout' },
      { id: 'call-3:result', role: 'tool', toolCallId: 'call-3', content: 'The user denied this tool call.', error: 'denied' },
      { id: 't2', role: 'assistant', content: 'Done' },
    ])
  })

  it('a call with no text before it, or naming another parent, gets a message of its own', () => {
    const state = stateOf(turn('a1', 'assistant', [
      ['c1', 'tool', { name: 'a', state: 'output-error' }],
      ['c2', 'tool', { toolCallId: 'call-2', name: 'b', parentMessageId: 'p1' }],
      ['c3', 'tool', { toolCallId: 'call-3', name: 'c', parentMessageId: 'p1' }],
      ['c4', 'tool', { toolCallId: 'call-4', name: 'd', parentMessageId: 'p2' }],
      ['t1', 'text', { content: 'So' }],
      ['c5', 'tool', { toolCallId: 'call-5', name: 'e', parentMessageId: 't1' }],
      ['c6', 'tool', { toolCallId: 'call-6', name: 'f' }],
    ]))
    const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } })
    expect(agUi(state)).toStrictEqual([
      { id: 'c1:call', role: 'assistant', toolCalls: [call('c1', 'a')] },
      { id: 'c1:result', role: 'tool', toolCallId: 'c1', content: 'the tool failed', error: 'the tool failed' },
      { id: 'p1', role: 'assistant', toolCalls: [call('call-2', 'b'), call('call-3', 'c')] },
      { id: 'p2', role: 'assistant', toolCalls: [call('call-4', 'd')] },
      { id: 't1', role: 'assistant', content: 'So', toolCalls: [call('call-5', 'e'), call('call-6', 'f')] },
    ])
  })

  it('a parentMessageId that is not a string names no parent', () => {
    const state = stateOf(turn('a1', 'assistant', [['t1', 'text', { content: 'So' }], ['c1', 'tool', { toolCallId: 'call-1', name: 'e', parentMessageId: 5 }]]))
    expect(agUi(state)).toStrictEqual([{ id: 't1', role: 'assistant', content: 'So', toolCalls: [{ id: 'call-1', type: 'function', function: { name: 'e', arguments: '{}' } }] }])
  })

  it('a message id the turn lists but the state does not hold is skipped', () => {
    const state = stateOf(turn('a1', 'assistant', [['t1', 'text', { content: 'So' }]]))
    const dangling = { ...state, turns: { ...state.turns, a1: { ...state.turns.a1!, messageIds: ['ghost', 't1'] } } }
    expect(agUi(dangling)).toStrictEqual([{ id: 't1', role: 'assistant', content: 'So' }])
  })

  it('a result goes as text: a string as it is, a lone content field unwrapped, anything else as JSON', () => {
    const outputs: unknown[] = ['plain', { content: 'inner' }, { content: 'inner', more: 1 }, { content: 3 }, null, undefined, 0, [1]]
    const state = stateOf(turn('a1', 'assistant', outputs.map((output, i): [string, string, Props] => [`c${i}`, 'tool', { toolCallId: `k${i}`, name: 'n', state: 'output-available', output }])))
    expect(agUi(state).filter((m) => m.role === 'tool').map((m) => m.content)).toStrictEqual([
      'plain', 'inner', '{"content":"inner","more":1}', '{"content":3}', 'null', 'null', '0', '[1]',
    ])
  })

  it('a call and its result keep what they came with; the builder\'s own fields win', () => {
    const state = stateOf(turn('a1', 'assistant', [[
      'c1', 'tool', {
        toolCallId: 'call-1', name: 'search', input: {}, state: 'output-available', output: 'ok', resultMessageId: 'tr-1', encryptedValue: 'enc',
        metadata: { m: 1 }, extra: { index: 0, id: 'x', type: 'x', function: 'x', encryptedValue: 'x' }, resultExtra: { seq: 9, id: 'x', role: 'x' },
      },
    ]]))
    expect(agUi(state)).toStrictEqual([
      { id: 'call-1:call', role: 'assistant', toolCalls: [{ index: 0, encryptedValue: 'enc', id: 'call-1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
      { seq: 9, metadata: { m: 1 }, id: 'tr-1', role: 'tool', toolCallId: 'call-1', content: 'ok' },
    ])
    const bare = stateOf(turn('a1', 'assistant', [['c1', 'tool', { toolCallId: 'call-1', name: 's', state: 'output-denied', encryptedValue: 1, metadata: 'x', resultMessageId: 2 }]]))
    expect(agUi(bare)).toStrictEqual([
      { id: 'call-1:call', role: 'assistant', toolCalls: [{ id: 'call-1', type: 'function', function: { name: 's', arguments: '{}' } }] },
      { id: 'call-1:result', role: 'tool', toolCallId: 'call-1', content: 'The user denied this tool call.', error: 'denied' },
    ])
  })

  it('the request\'s messages are the path\'s, turn after turn', () => {
    const state = stateOf(turn('u1', 'user', [['m1', 'text', { content: 'Hi' }]]), turn('a1', 'assistant', [['t1', 'text', { content: 'Hello' }]]))
    const context: RequestContext = { state, path: ['u1', 'nope', 'a1'], turnId: 'a2', trigger: 'submit', conversationId: 'th', runId: 'r', tools: [], answers: [] }
    expect(agUiRequest(context).messages).toStrictEqual([{ id: 'm1', role: 'user', content: 'Hi' }, { id: 't1', role: 'assistant', content: 'Hello' }])
    expect((agUiRequest({ ...context, answers: [{ gateId: 'g', kind: 'interrupt', interruptId: '', response: 1 }] }) as Record<string, unknown>).resume).toBeUndefined()
  })
})

describe('the AI SDK request: messageId and resume', () => {
  const state = stateOf(
    turn('u1', 'user', [['m1', 'text', { content: 'Hi' }]]),
    [{ op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1' }, { op: 'message.put', turnId: 'a1', messageId: 't1', type: 'text', role: 'assistant', props: { content: 'Hello' } }],
  )
  const base: RequestContext = { state, path: ['u1'], turnId: 'a2', trigger: 'submit', conversationId: 'chat', runId: 'r', tools: [], answers: [] }
  const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }

  it('a regenerate names the answer it replaces only when that answer is known', () => {
    expect(uiMessageRequest({ ...base, trigger: 'regenerate', replacing: 'a1' })).toStrictEqual({ id: 'chat', messages: [user], trigger: 'regenerate-message', messageId: 'a1' })
    expect(uiMessageRequest({ ...base, trigger: 'regenerate' })).toStrictEqual({ id: 'chat', messages: [user], trigger: 'regenerate-message' })
    expect(uiMessageRequest({ ...base, trigger: 'regenerate', replacing: 'gone' })).toStrictEqual({ id: 'chat', messages: [user], trigger: 'regenerate-message' })
  })

  it('a continuation names the last message only when it is an answer', () => {
    const continued = uiMessageRequest({ ...base, path: ['u1', 'a1'], trigger: 'continue' })
    expect([continued.trigger, continued.messageId]).toEqual(['submit-message', 'a1'])
    expect(uiMessageRequest({ ...base, trigger: 'continue' })).toStrictEqual({ id: 'chat', messages: [user], trigger: 'submit-message' })
    expect(uiMessageRequest({ ...base, path: [], trigger: 'continue' })).toStrictEqual({ id: 'chat', messages: [], trigger: 'submit-message' })
    expect(uiMessageRequest({ ...base, path: ['u1', 'a1'], trigger: 'submit', replacing: 'a1' }).messageId).toBeUndefined()
  })

  it('only an action review\'s answer goes as resume', () => {
    const answers = [{ gateId: 'g0', kind: 'approval', response: { approved: true } }, { gateId: 'g1', kind: 'action-review', response: { decisions: [] } }]
    expect(uiMessageRequest({ ...base, answers }).resume).toStrictEqual({ decisions: [] })
    expect('resume' in uiMessageRequest({ ...base, answers: answers.slice(0, 1) })).toBe(false)
  })
})

describe('Yao: the newest question', () => {
  it('the newest user turn with text or files, skipping answers, empty questions and turns the state lacks', () => {
    const state = stateOf(
      turn('u1', 'user', [['m1', 'text', { content: 'First' }]]),
      turn('a1', 'assistant', [['t1', 'text', { content: 'Answer' }]]),
      turn('u2', 'user', [['m2', 'reasoning', { content: 'nothing to send' }]]),
    )
    const context: RequestContext = { state, path: ['u1', 'a1', 'u2', 'gone'], turnId: 'a2', trigger: 'submit', conversationId: 'c', runId: 'r', tools: [], answers: [] }
    expect(yaoRequest(context)).toStrictEqual({ chat_id: 'c', messages: [{ role: 'user', content: 'First' }] })
    expect(yaoRequest({ ...context, path: ['a1'] })).toStrictEqual({ chat_id: 'c', messages: [] })
    expect(yaoRequest({ ...context, path: [] })).toStrictEqual({ chat_id: 'c', messages: [] })
    const withFile = stateOf(turn('u1', 'user', [['f1', 'file', { url: 'https://x.test/a.pdf', mediaType: 'application/pdf' }]]))
    expect(yaoRequest({ ...context, state: withFile, path: ['u1'] })).toStrictEqual({
      chat_id: 'c', messages: [{ role: 'user', content: '', attachments: [{ url: 'https://x.test/a.pdf', mediaType: 'application/pdf' }] }],
    })
  })
})

describe('the request plan', () => {
  it('the text of a send input', () => {
    expect([textOf('Hi'), textOf({ text: 'Hi' }), textOf({ text: 3 } as never), textOf(undefined), textOf({ files: [] } as never)]).toEqual(['Hi', 'Hi', undefined, undefined, undefined])
  })

  it('needs a url', () => {
    let thrown: unknown
    try {
      defaultRequest({}, 'Hi', 't')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(WeftStreamError)
    expect((thrown as WeftStreamError).info).toMatchObject({ type: 'validation', message: 'the agent client needs a url (or a source)' })
  })

  it('sends a string, a Blob, FormData and URLSearchParams as they are, with no content type of its own', () => {
    const blob = new Blob(['x'])
    const form = new FormData()
    const params = new URLSearchParams('a=1')
    for (const body of ['text', blob, form, params]) {
      const plan = defaultRequest({ url: '/a', body }, 'Hi', 't')
      expect(plan.body).toBe(body)
      expect(new Headers(plan.headers).has('content-type')).toBe(false)
    }
  })

  it('a HEAD or GET sends no body; a JSON body keeps the host\'s content type', () => {
    expect(defaultRequest({ url: '/a', method: 'HEAD' }, 'Hi', 't').body).toBeNull()
    expect(defaultRequest({ url: '/a', method: 'GET', body: 'x' }, 'Hi', 't').body).toBeNull()
    const plan = defaultRequest({ url: '/a', headers: { 'Content-Type': 'application/vnd.x+json' } }, 'Hi', 't', { a: 1 })
    expect([plan.body, new Headers(plan.headers).get('content-type')]).toEqual(['{"a":1}', 'application/vnd.x+json'])
    expect(defaultRequest({ url: '/a', method: 'PUT' }, undefined, 't').body).toBe('{"input":""}')
    expect(defaultRequest({ url: '/a' }, 'Hi', 't', 0).body).toBe('0')
    expect(defaultRequest({ url: '/a' }, 'Hi', 't', false).body).toBe('false')
    // A body function that gives nothing leaves the default body.
    expect(defaultRequest({ url: '/a', body: () => null }, 'Hi', 't', { a: 1 }).body).toBe('{"input":"Hi"}')
  })

  it('the host\'s body: a value replaces the built one; a function gets the input, the turn, a copy of the built body and the trigger', () => {
    const built = { messages: [{ role: 'user', content: 'Hi' }] }
    expect(hostBody({ body: { mine: true } }, 'Hi', 't1', built, 'submit')).toStrictEqual({ mine: true })
    expect(hostBody({}, 'Hi', 't1', built, 'submit')).toBe(built)
    const seen: unknown[] = []
    const result = hostBody({
      body: (input, context) => {
        seen.push(input, context)
        ;(context.built as typeof built).messages.push({ role: 'user', content: 'changed' })
        return { ...(context.built as object), model: 'small' }
      },
    }, 'Hi', 't1', built, 'regenerate')
    expect(seen).toStrictEqual(['Hi', { turnId: 't1', built: { messages: [{ role: 'user', content: 'Hi' }, { role: 'user', content: 'changed' }] }, trigger: 'regenerate' }])
    expect(result).toStrictEqual({ messages: [{ role: 'user', content: 'Hi' }, { role: 'user', content: 'changed' }], model: 'small' })
    expect(built.messages).toHaveLength(1)
    const plan = defaultRequest({ url: '/a', body: (_input, context) => ({ trigger: context.trigger }) }, 'Hi', 't1')
    expect(plan.body).toBe('{"trigger":"submit"}')
  })

  it('a built body that cannot be copied is handed over as it is', () => {
    const form = new FormData()
    const uncloneable = { run: () => 1 }
    const got: unknown[] = []
    for (const built of [form, uncloneable, 'text', null]) hostBody({ body: (_i, context) => (got.push(context.built), null) }, 'Hi', 't', built, 'submit')
    expect(got[0]).toBe(form)
    expect(got[1]).toBe(uncloneable)
    expect(got.slice(2)).toEqual(['text', null])
    const blob = new Blob(['x'])
    const params = new URLSearchParams('a=1')
    const same: unknown[] = []
    for (const built of [blob, params]) hostBody({ body: (_i, context) => (same.push(context.built), null) }, 'Hi', 't', built, 'submit')
    expect(same[0]).toBe(blob)
    expect(same[1]).toBe(params)
  })
})
