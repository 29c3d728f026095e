import { describe, expect, it } from 'vitest'
import { turnOutline } from '../../src/components/hooks'
import { fold } from '../../src/core/fold/fold'
import { emptyState } from '../../src/core/model'

describe('a turn outline is recomputed only when where messages sit changes', () => {
  const opened = fold(emptyState(), [
    { op: 'turn.open', turnId: 't', role: 'assistant' },
    { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'Hel' } },
  ])

  it('a streamed token keeps the outline array the view already has', () => {
    const before = turnOutline(opened, 't')
    const after = fold(opened, [{ op: 'message.delta', turnId: 't', messageId: 'a', path: 'content', action: 'append', value: 'lo' }])
    expect(after.messages.a!.props.content).toBe('Hello')
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
