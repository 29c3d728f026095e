import '../../src/components/styles.css'
import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/components/composer'
import { LabelsProvider } from '../../src/components/labels'
import { renderWith, storeWith } from './support'

/** An icon button: named by its label, drawing one svg hidden from assistive tech, showing no text. */
function expectIconButton(button: HTMLElement, name: string) {
  expect(button.getAttribute('aria-label')).toBe(name)
  // A pointer user gets the same name as a tooltip.
  expect(button.getAttribute('title')).toBe(name)
  expect(button.textContent!.trim()).toBe('')
  const svgs = button.querySelectorAll('svg')
  expect(svgs).toHaveLength(1)
  expect(svgs[0]!.getAttribute('aria-hidden')).toBe('true')
  const box = button.getBoundingClientRect()
  expect(box.width).toBeGreaterThan(0)
  expect(box.width).toBe(box.height)
}

describe('the composer’s Send/Stop icon button', () => {
  it('Send and Stop are icons named by the English labels by default', () => {
    const store = storeWith([])
    renderWith(store, <Composer send={() => undefined} stop={() => undefined} />)
    expectIconButton(screen.getByRole('button', { name: 'Send' }), 'Send')
    act(() => store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }]))
    const stop = screen.getByRole('button', { name: 'Stop' })
    expectIconButton(stop, 'Stop')
    expect(stop.getAttribute('data-state')).toBe('stop')
  })

  it('takes its name from the labels provider', () => {
    const store = storeWith([])
    renderWith(store, (
      <LabelsProvider labels={{ send: '发送', stop: '停止' }}>
        <Composer send={() => undefined} stop={() => undefined} />
      </LabelsProvider>
    ))
    expectIconButton(screen.getByRole('button', { name: '发送' }), '发送')
    act(() => store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }]))
    expectIconButton(screen.getByRole('button', { name: '停止' }), '停止')
  })

  it('children replace the icon, and then name the button themselves', () => {
    renderWith(storeWith([]), (
      <Composer.Root send={() => undefined} busy={false}>
        <Composer.Input />
        <Composer.Send>Ask</Composer.Send>
      </Composer.Root>
    ))
    const button = screen.getByRole('button', { name: 'Ask' })
    expect(button.hasAttribute('aria-label')).toBe(false)
    expect(button.hasAttribute('title')).toBe(false)
    expect(button.querySelector('svg')).toBeNull()
  })
})
