import { act, renderHook } from '@testing-library/react'
import { createElement, type ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { blockOutline, turnOutline, useAgentList } from '../../src/components/hooks'
import { createAgentStore } from '../../src/core/store/store'
import { own } from '../../src/core/util/record'
import { AgentProvider } from '../../src/umbrella/providers'
import { fold } from '../../src/core/fold/fold'
import { emptyState } from '../../src/core/model/model'
import { messageIn, messageRecord } from '../../src/core/model/message-table'

describe('a turn outline is recomputed only when where messages sit changes', () => {
  const opened = fold(emptyState(), [
    { op: 'turn.open', turnId: 't', role: 'assistant' },
    { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'Hel' } },
  ])

  it('a streamed token keeps the outline array the view already has', () => {
    const before = turnOutline(opened, 't')
    const after = fold(opened, [{ op: 'message.delta', turnId: 't', messageId: 'a', path: 'content', action: 'append', value: 'lo' }])
    expect(messageIn(after.messages, 'a')!.props.content).toBe('Hello')
    expect(turnOutline(after, 't')).toBe(before)
  })

  it('a new block gives a new outline with the block in place', () => {
    const before = turnOutline(opened, 't')
    const after = fold(opened, [
      { op: 'block.open', turnId: 't', blockId: 's1', kind: 'step' },
      { op: 'message.put', turnId: 't', messageId: 'b', blockId: 's1', type: 'text', props: { content: 'step' } },
    ])
    expect(turnOutline(after, 't')).not.toBe(before)
    expect(turnOutline(after, 't')).toEqual(['m:a', 'b:s1'])
  })
})

describe('where blocks and lanes stand in an outline', () => {
  const state = fold(emptyState(), [
    { op: 'turn.open', turnId: 't', role: 'assistant' },
    { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'a' } },
    { op: 'block.open', turnId: 't', blockId: 's1', kind: 'step' },
    { op: 'thread.open', turnId: 't', threadId: 'l1', blockId: 's1' },
    { op: 'thread.open', turnId: 't', threadId: 'l2', blockId: 's1' },
    { op: 'thread.open', turnId: 't', threadId: 'l3', blockId: 's1' },
    { op: 'message.put', turnId: 't', messageId: 'b', blockId: 's1', threadId: 'l2', type: 'text', props: { content: 'b' } },
    { op: 'message.put', turnId: 't', messageId: 'c', blockId: 's1', type: 'text', props: { content: 'c' } },
    { op: 'message.put', turnId: 't', messageId: 'd', blockId: 's1', threadId: 'l2', type: 'text', props: { content: 'd' } },
    { op: 'block.open', turnId: 't', blockId: 's2', kind: 'step' },
    { op: 'thread.open', turnId: 't', threadId: 'solo' },
    { op: 'message.put', turnId: 't', messageId: 'e', threadId: 'solo', type: 'text', props: { content: 'e' } },
    { op: 'message.put', turnId: 't', messageId: 'f', type: 'text', props: { content: 'f' } },
    { op: 'message.put', turnId: 't', messageId: 'g', threadId: 'solo', type: 'text', props: { content: 'g' } },
  ])

  it('a turn: a block once, where its first message is; an empty block after the one opened before it; a lane outside blocks once', () => {
    expect(turnOutline(state, 't')).toEqual(['m:a', 'b:s1', 'b:s2', 't:solo', 'm:f'])
  })

  it('a block: a lane once, where its first message is; the empty lanes after the lane opened before them', () => {
    // l3 follows l2, opened before it; l1 was opened first and has no message: with nothing before it, it goes last.
    expect(blockOutline(state, 's1')).toEqual(['t:l2', 't:l3', 'm:c', 't:l1'])
  })
})


describe('useAgentList: the same list while its items are the same', () => {
  it('keeps the list a component has across a store change that leaves its items alone, and gives a new one when an item changes', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'a' } },
      { op: 'message.put', turnId: 't', messageId: 'b', type: 'text', props: { content: 'b' } },
    ])
    const wrapper = ({ children }: { children: ReactNode }) => createElement(AgentProvider, { store }, children)
    // A new array on every read, as a selector that maps store ids gives.
    const { result } = renderHook(() => useAgentList((s) => (own(s.turns, 't')?.messageIds ?? []).map((id) => own(messageRecord(s.messages), id)?.type)), { wrapper })
    const first = result.current
    expect(first).toEqual(['text', 'text'])
    act(() => store.getState().dispatch([{ op: 'message.delta', turnId: 't', messageId: 'a', path: 'content', action: 'append', value: '!' }]))
    expect(result.current).toBe(first)
    act(() => store.getState().dispatch([{ op: 'message.put', turnId: 't', messageId: 'c', type: 'tool', props: { toolCallId: 'c', name: 'x' } }]))
    expect(result.current).toEqual(['text', 'text', 'tool'])
    expect(result.current).not.toBe(first)
  })
})
