import { cleanup, render, screen } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { NavigationActions } from '../../src/protocols/ag-ui/react/index'

afterEach(cleanup)

const actions = [{ type: 'navigation', path: '/todo/123', label: 'Open the to-do' }]

describe('NavigationActions', () => {
  it('passes className, style, DOM props and the ref to its root; data-weft stays', () => {
    const ref = createRef<HTMLDivElement>()
    const onNavigate = vi.fn()
    render(
      <WeftCallbacksProvider onNavigate={onNavigate}>
        <NavigationActions
          actions={actions} ref={ref} className="tool-links" style={{ gap: '5px' }} id="links"
          data-testid="links" data-weft="mine" aria-label="Places to go" role="group"
        />
      </WeftCallbacksProvider>,
    )
    const root = screen.getByTestId('links')
    expect(ref.current).toBe(root)
    expect(root.tagName).toBe('DIV')
    expect(root.className).toBe('tool-links')
    expect(root.style.gap).toBe('5px')
    expect(root.id).toBe('links')
    expect(root.getAttribute('data-weft')).toBe('navigation-actions')
    expect(screen.getByRole('group', { name: 'Places to go' })).toBe(root)
    screen.getByRole('button', { name: 'Open the to-do' }).click()
    expect(onNavigate).toHaveBeenCalledWith('/todo/123', {})
  })

  it('renders nothing, and sets no ref, when no action passes the check', () => {
    const ref = createRef<HTMLDivElement>()
    render(<NavigationActions actions={[{ type: 'navigation', path: 'https://evil.example' }]} ref={ref} data-testid="links" />)
    expect(screen.queryByTestId('links')).toBeNull()
    expect(ref.current).toBeNull()
  })
})
