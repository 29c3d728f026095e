// @vitest-environment jsdom
/**
 * weft next to LangGraph's own `useStream` (`@langchain/langgraph-sdk/react`) on the same real server
 * and the same graphs: the messages each shows after a run, the interrupt each offers and the answer
 * after resuming it, and the branches each finds in a thread that was regenerated and edited.
 */
import { act, renderHook, waitFor } from '@testing-library/react'
import { useStream } from '@langchain/langgraph-sdk/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LangGraphServer, startLangGraphServer } from '../../scripts/langgraph-server.mjs'
import { AgentClient } from '../../src/core/client/agent-client'
import type { AgentState, Message } from '../../src/core/model/model'
import { messageIn } from '../../src/core/model/message-table'
import { syncScheduler } from '../../src/core/store/batcher'
import { createAgentStore } from '../../src/core/store/store'
import { selectBranch } from '../../src/core/store/branches'
import { langGraphProtocol, langGraphSource, readLangGraphHistory } from '../../src/protocols/langgraph/index'

let server: LangGraphServer

beforeAll(async () => {
  server = await startLangGraphServer()
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

/** What a person reads, the same way for both: texts, and tool calls with their results. */
type Line = string

function weftLines(state: AgentState): Line[] {
  return state.turnIds.flatMap((id) => state.turns[id]!.messageIds.map((m) => messageIn(state.messages, m) as Message)).flatMap((m): Line[] => {
    if (m.type === 'tool') return [`call ${m.props.name} ${JSON.stringify(m.props.input)}`, `result ${String(m.props.output)}`]
    return [`${m.role === 'user' ? 'human' : 'ai'}: ${String(m.props.content)}`]
  })
}

function sdkLines(messages: ReadonlyArray<Record<string, any>>): Line[] {
  return messages.flatMap((m): Line[] => {
    if (m.type === 'tool') return [`result ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`]
    const lines: Line[] = []
    const text = typeof m.content === 'string' ? m.content : (m.content as Array<{ text?: string }>).map((b) => b.text ?? '').join('')
    if (text) lines.push(`${m.type}: ${text}`)
    for (const call of m.tool_calls ?? []) lines.push(`call ${call.name} ${JSON.stringify(call.args)}`)
    return lines
  })
}

function weft(assistantId: string, threadId?: string) {
  const store = createAgentStore()
  const source = langGraphSource({ apiUrl: server.url, assistantId, ...(threadId ? { threadId } : {}) })
  const client = new AgentClient(store, { source, protocol: 'langgraph', protocols: [langGraphProtocol], idleTimeoutMs: 0, scheduler: syncScheduler })
  return { store, source, client }
}

/** Testing Library gives up after a second; a busy machine can take longer for the server's history, and no test here asserts a timing. */
const PATIENT = { timeout: 20_000 }

describe('weft and useStream on the same runs', () => {
  it('a tool-calling run: the same messages, tool calls and results', async () => {
    const { result } = renderHook(() => useStream({ apiUrl: server.url, assistantId: 'agent' }))
    await act(async () => {
      await result.current.submit({ messages: [{ type: 'human', content: 'What is the weather in Paris?' }] })
    })
    await waitFor(() => expect(result.current.isLoading).toBe(false), PATIENT)
    const { store, client } = weft('agent')
    await client.send('What is the weather in Paris?')
    expect(weftLines(store.getState())).toEqual(sdkLines(result.current.messages as Array<Record<string, any>>))
    expect(weftLines(store.getState())).toHaveLength(5)
  })

  it('an interrupt: the same value offered, and the same answer after resuming it', async () => {
    const { result } = renderHook(() => useStream({ apiUrl: server.url, assistantId: 'approval' }))
    await act(async () => {
      await result.current.submit({ messages: [{ type: 'human', content: 'Email Ada' }] })
    })
    await waitFor(() => expect(result.current.interrupt).toBeDefined(), PATIENT)
    const { store, client } = weft('approval')
    await client.send('Email Ada')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate.payload).toEqual(result.current.interrupt!.value)
    await act(async () => {
      await result.current.submit(undefined, { command: { resume: { approved: true } } })
    })
    await waitFor(() => expect(result.current.isLoading).toBe(false), PATIENT)
    await client.answer(gate.id, { approved: true })
    expect(weftLines(store.getState())).toEqual(sdkLines(result.current.messages as Array<Record<string, any>>))
  })

  it('a thread regenerated and edited: the same branches at the same messages', async () => {
    const { store, source, client } = weft('agent')
    await client.send('What is the weather in Paris?')
    await client.regenerate()
    await client.edit(store.getState().turnIds[0]!, 'And in Rome?')
    const { result } = renderHook(() => useStream({ apiUrl: server.url, assistantId: 'agent', threadId: source.threadId, fetchStateHistory: { limit: 100 } }))
    await waitFor(() => expect(result.current.messages.length).toBeGreaterThan(0), PATIENT)
    const messages = result.current.messages as Array<Record<string, any>>
    // The head is the edited branch in both.
    expect(weftLines(store.getState())).toEqual(sdkLines(messages))
    const human = messages[0]!
    expect(result.current.getMessagesMetadata(human as never)?.branchOptions).toHaveLength(2)
    const live = store.getState()
    expect(selectBranch(live, live.turnIds[0]!).count).toBe(2)
    // weft's own reading of the same history finds the same number of branches at the question.
    const reloaded = createAgentStore()
    const history = await (await fetch(`${server.url}/threads/${source.threadId}/history`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":100}' })).json()
    reloaded.getState().dispatch(readLangGraphHistory(history, { state: reloaded.getState() }))
    expect(selectBranch(reloaded.getState(), reloaded.getState().turnIds[0]!).count).toBe(2)
  })
})
