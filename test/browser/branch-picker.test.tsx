import { act, fireEvent, screen } from '@testing-library/react'
import { createRef } from 'react'
import { describe, expect, it } from 'vitest'
import { BranchPicker } from '../../src/components/branch-picker'
import type { Op } from '../../src/core/model/ops'
import { useTurnIds } from '../../src/react/selectors'
import { renderWith, storeWith } from './support'

/** A question with two answers (a regenerate) and, under the first, a follow-up. */
const tree: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'turn.open', turnId: 'u2', role: 'user' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'turn.open', turnId: 'a1b', role: 'assistant', parentId: 'u1' },
]

function Path() {
  return <output data-testid="path">{useTurnIds().join(' ')}</output>
}

describe('BranchPicker', () => {
  it('shows the place among siblings and switches the active path', () => {
    const store = storeWith(tree)
    renderWith(store, <><BranchPicker turnId="a1b" /><Path /></>)
    const group = screen.getByRole('group', { name: 'Version 2 of 2' })
    expect(group.textContent).toContain('2 / 2')
    expect(group.getAttribute('data-state')).toBe('last')
    expect(screen.getByRole('button', { name: 'Next version' })).toHaveProperty('disabled', true)
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Previous version' })))
    // The first answer's branch comes back whole, follow-up included.
    expect(screen.getByTestId('path').textContent).toBe('u1 a1 u2 a2')
    expect(store.getState().turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
  })

  it('a turn without siblings shows no picker', () => {
    renderWith(storeWith(tree), <BranchPicker turnId="u1" data-testid="picker" />)
    expect(screen.queryByTestId('picker')).toBeNull()
  })

  it('follows the store: a new sibling appears in the count', () => {
    const store = storeWith(tree.slice(0, 2))
    renderWith(store, <BranchPicker turnId="a1" describe={(n, of) => `Answer ${n} of ${of}`} />)
    expect(screen.queryByRole('group')).toBeNull()
    act(() => store.getState().dispatch([{ op: 'turn.open', turnId: 'a1c', role: 'assistant', parentId: 'u1' }, { op: 'branch.select', turnId: 'a1' }]))
    expect(screen.getByRole('group', { name: 'Answer 1 of 2' }).getAttribute('data-state')).toBe('first')
  })

  it('passes className, style, DOM props and the ref to its root; data-weft, data-state and role stay', () => {
    const ref = createRef<HTMLDivElement>()
    renderWith(
      storeWith(tree),
      <BranchPicker turnId="a1b" ref={ref} className="versions" style={{ gap: '3px' }} id="picker" data-testid="picker" data-weft="mine" role="toolbar" />,
    )
    const root = screen.getByTestId('picker')
    expect(ref.current).toBe(root)
    expect(root.className).toBe('versions')
    expect(root.style.gap).toBe('3px')
    expect(root.id).toBe('picker')
    expect(root.getAttribute('data-weft')).toBe('branch-picker')
    expect(root.getAttribute('data-state')).toBe('last')
    expect(root.getAttribute('role')).toBe('group')
    expect(root.getAttribute('aria-label')).toBe('Version 2 of 2')
  })

  it('an aria-label given by the host names the group', () => {
    renderWith(storeWith(tree), <BranchPicker turnId="a1b" aria-label="Answer versions" />)
    expect(screen.getByRole('group', { name: 'Answer versions' }).getAttribute('data-weft')).toBe('branch-picker')
  })
})
