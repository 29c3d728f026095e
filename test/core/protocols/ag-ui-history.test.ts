import { describe, expect, it } from 'vitest'
import { agUiHistoryOps, agUiHistoryUrl, type AgUiHistoryPage } from '../../../src/protocols/ag-ui/history'
import { fold } from '../../../src/core/fold/fold'
import { foldStream } from '../../../src/umbrella/defaults'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { messageIn } from '../../../src/core/model/message-table'

const page = (messages: unknown[], extra: Partial<AgUiHistoryPage> = {}): AgUiHistoryPage => ({
  scope: 'history_day', threadId: 'th', day: '2026-03-16', hasMore: false, messages, ...extra,
})
const hydrate = (p: AgUiHistoryPage, state: AgentState = emptyState()) => fold(state, agUiHistoryOps(p, state))

describe('agUiHistoryUrl', () => {
  it.each([
    ['/api/v1/agent/history', undefined, '/api/v1/agent/history'],
    ['/api/v1/agent/history', '2026-03-16', '/api/v1/agent/history?before=2026-03-16'],
    ['/h?thread=1', '2026-03-16', '/h?thread=1&before=2026-03-16'],
    ['https://x.example/h#top', '2026-03-16', 'https://x.example/h?before=2026-03-16'],
  ])('%s before %s', (url, before, expected) => {
    expect(agUiHistoryUrl(url, before)).toBe(expected)
  })
})

describe('agUiHistoryOps', () => {
  it('groups a page into a user turn and an assistant turn per run, sorted by seq', () => {
    const s = hydrate(page([
      { id: 'a2', seq: 4, role: 'assistant', runId: 'r2', content: 'Second answer' },
      { id: 'u1', seq: 1, role: 'user', runId: 'r1', content: 'First question' },
      { id: 'a1', seq: 2, role: 'assistant', runId: 'r1', content: 'First answer' },
      { id: 'u2', seq: 3, role: 'user', runId: 'r2', content: [{ type: 'text', text: 'Second' }, { type: 'binary', mimeType: 'image/png', url: 'https://x/img.png' }] },
      { id: 'rs', seq: 5, role: 'reasoning', runId: 'r2', content: 'why' },
    ]))
    expect(s.turnIds).toEqual(['ag-ui-user:u1', 'ag-ui-run:r1', 'ag-ui-user:u2', 'ag-ui-run:r2'])
    expect(s.turns['ag-ui-run:r2']).toMatchObject({ role: 'assistant', runId: 'r2', threadId: 'th', status: 'done', messageIds: ['a2', 'rs'], metadata: { historyDay: '2026-03-16', runId: 'r2' } })
    expect(s.turns['ag-ui-user:u2']!.runId).toBeUndefined()
    expect(messageIn(s.messages, 'u2')!.props).toMatchObject({ content: 'Second', parts: [{ type: 'text' }, { type: 'binary' }] })
    expect(messageIn(s.messages, 'rs')!.type).toBe('reasoning')
    expect(messageIn(s.messages, 'a1')).toMatchObject({ status: 'done', role: 'assistant', type: 'text' })
  })

  it('without run ids, consecutive answers share a turn', () => {
    const s = hydrate(page([
      { id: 'u', role: 'user', content: 'q' },
      { id: 'a', role: 'assistant', content: 'x', tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }] },
      { id: 't', role: 'tool', tool_call_id: 'c', content: 'r' },
      { id: 'b', role: 'assistant', content: 'y' },
    ]))
    expect(s.turnIds).toEqual(['ag-ui-user:u', 'ag-ui-history:a'])
    expect(s.turns['ag-ui-history:a']!.messageIds).toEqual(['a', 'c', 'b'])
    expect(messageIn(s.messages, 'c')!.props).toMatchObject({ name: 'f', input: {}, output: 'r', resultMessageId: 't', state: 'output-available' })
  })

  it('a tool result whose call is on an older page still gets its own tool message', () => {
    const s = hydrate(page([{ id: 't', role: 'tool', runId: 'r', toolCallId: 'c9', tool_name: 'search', content: '{"hits":1}', error: 'partial' }]))
    expect(messageIn(s.messages, 'c9')).toMatchObject({ type: 'tool', status: 'error', props: { toolCallId: 'c9', name: 'search', output: { hits: 1 }, state: 'output-error', errorText: 'partial' } })
  })

  it('leaves what the store already has alone and adds to the turn of a run it already shows', () => {
    const live = foldStream([
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a1', content: 'Live text' },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' },
    ], { protocol: 'ag-ui', turnId: 'live' })
    const s = hydrate(page([
      { id: 'a1', role: 'assistant', runId: 'r1', content: 'Stored text' },
      { id: 'a1b', role: 'assistant', runId: 'r1', content: 'More' },
    ]), live)
    expect(s.turnIds).toEqual(['live'])
    expect(s.turns.live!.messageIds).toEqual(['a1', 'a1b'])
    expect(messageIn(s.messages, 'a1')!.props.content).toBe('Live text')
  })

  it('a page whose messages are all known adds no turn', () => {
    const first = hydrate(page([{ id: 'u', role: 'user', content: 'q' }, { id: 'a', role: 'assistant', runId: 'r', content: 'x' }]))
    const ops = agUiHistoryOps(page([{ id: 'u', role: 'user', content: 'q' }, { id: 'a', role: 'assistant', runId: 'r', content: 'x' }]), first)
    expect(ops).toEqual([])
  })

  it('keeps sub-agent messages in their thread and reports messages it cannot read', () => {
    const s = hydrate(page([
      { id: 'a', role: 'assistant', runId: 'r', content: 'x', subagentRunId: 'sa' },
      { role: 'assistant', content: 'no id' },
    ]))
    expect(messageIn(s.messages, 'a')!.threadId).toBe('sa')
    expect(s.threads.sa!.messageIds).toEqual(['a'])
    expect(s.turns['ag-ui-run:r']!.problems.map((p) => p.code)).toEqual(['history'])
  })
})
