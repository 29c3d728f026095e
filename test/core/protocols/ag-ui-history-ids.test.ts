/**
 * A history page and a `MESSAGES_SNAPSHOT` read the same AG-UI messages the same
 * way: a message, tool call or lane whose id cannot be a key of the store
 * (`__proto__`, `constructor`, `prototype`) is left out with one problem, and
 * every other message is kept, side by side, whatever the mix.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { foldStream } from '../../../src/umbrella/defaults'
import { messageList } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { agUiHistoryOps } from '../../../src/protocols/ag-ui/history'

type Ev = Record<string, unknown>

/** Ids a server may send: plain ones, ones that name an object's members, and the three no store key may be. */
const IDS = ['m1', 'm2', 'c1', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'constructor', 'prototype']

/** The messages kept and the problems told by the live path: one MESSAGES_SNAPSHOT in a run. */
function bySnapshot(messages: unknown[]): { ids: string[]; problems: string[] } {
  const s = foldStream([
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
    { type: 'MESSAGES_SNAPSHOT', messages: structuredClone(messages) },
    { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' },
  ], { protocol: 'ag-ui' })
  return { ids: idsOf(s), problems: problemsOf(s).map((p) => `${p.code}: ${p.message}`) }
}

/** The same messages as a history page, loaded into a store that already shows a turn. */
function byHistory(messages: unknown[]): { ids: string[]; problems: string[] } {
  const base = foldStream([{ type: 'RUN_STARTED', threadId: 'th', runId: 'r0' }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r0' }], { protocol: 'ag-ui' })
  const s = fold(base, agUiHistoryOps({ hasMore: false, messages: structuredClone(messages) }, base))
  return { ids: idsOf(s), problems: problemsOf(s).map((p) => `${p.code}: ${p.message}`) }
}

const idsOf = (s: AgentState) => messageList(s.messages).map((m) => m.id).sort()
const problemsOf = (s: AgentState) => [...(s.error ? [s.error] : []), ...s.turnIds.flatMap((id) => s.turns[id]!.problems)]

/** The problems of one path, with the path's own code and prefix taken off (`message` for a snapshot, `history: …` for a page). */
const reasons = (problems: string[]) => problems.map((p) => p.replace(/^(message|history): (history: )?/, '')).sort()

describe('history and MESSAGES_SNAPSHOT, side by side', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('a page with one message "%s" keeps the others and tells the same problem', (bad) => {
    const messages: Ev[] = [
      { id: 'u1', role: 'user', content: 'Question' },
      { id: bad, role: 'assistant', content: 'Bad id' },
      { id: 'a2', role: 'assistant', content: 'Answer' },
    ]
    const live = bySnapshot(messages)
    const history = byHistory(messages)
    expect(live.ids).toEqual(['a2', 'u1'])
    expect(history.ids).toEqual(['a2', 'u1'])
    expect(live.problems).toEqual([`message: refused the message id "${bad}"; the message was left out`])
    expect(history.problems).toEqual([`history: history: refused the message id "${bad}"; the message was left out`])
  })

  it('a tool call, a result or a lane with such an id is left out the same way; the rest of its message stays', () => {
    const messages: Ev[] = [
      { id: 'u1', role: 'user', content: 'Question' },
      {
        id: 'a1', role: 'assistant', content: 'Calling',
        toolCalls: [{ id: '__proto__', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } }],
      },
      { id: 't1', role: 'tool', toolCallId: 'constructor', content: 'r' },
      { id: 's1', role: 'assistant', content: 'In a lane', subagentRunId: 'prototype' },
    ]
    const live = bySnapshot(messages)
    const history = byHistory(messages)
    expect(live.ids).toEqual(['a1', 'c2', 'u1'])
    expect(history.ids).toEqual(live.ids)
    expect(reasons(live.problems)).toEqual([
      'refused the subagentRunId "prototype" of message "s1"; the message was left out',
      'refused the tool call id "__proto__" of message "a1"; the call was left out',
      'refused the tool call id "constructor" of message "t1"; the result was left out',
    ])
    expect(reasons(history.problems)).toEqual(reasons(live.problems))
  })

  it('any mix of messages: both keep the same messages and tell the same problems', () => {
    const id = fc.constantFrom(...IDS)
    const call = fc.record({ id, type: fc.constant('function'), function: fc.record({ name: fc.constantFrom('f', 'g'), arguments: fc.constantFrom('{}', '{"a":1}') }) })
    const lane = fc.option(id, { nil: undefined })
    const message = fc.oneof(
      fc.record({ id, role: fc.constantFrom('user', 'system', 'reasoning'), content: fc.constantFrom('x', 'y'), subagentRunId: lane }, { requiredKeys: ['id', 'role', 'content'] }),
      fc.record({ id, role: fc.constant('assistant'), content: fc.constantFrom('', 'a'), toolCalls: fc.array(call, { maxLength: 2 }), subagentRunId: lane }, { requiredKeys: ['id', 'role', 'content'] }),
      fc.record({ id, role: fc.constant('tool'), toolCallId: id, content: fc.constantFrom('r', '{"ok":true}') }),
    )
    fc.assert(fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), (messages) => {
      const live = bySnapshot(messages)
      const history = byHistory(messages)
      expect(history.ids).toEqual(live.ids)
      expect(reasons(history.problems)).toEqual(reasons(live.problems))
      for (const kept of live.ids) expect(['__proto__', 'constructor', 'prototype']).not.toContain(kept)
    }), { numRuns: 150 })
  })
})
