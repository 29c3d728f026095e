/**
 * The default stylesheet's promises: every part that can be used alone sets
 * the kit's font on itself, and every colour comes from a variable.
 */
import '../../src/components/styles.css'
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/core/model/model'
import { RecommendedActionCard } from '../../src/components/messages/recommended-action'
import { TraceHeadline } from '../../src/components/trace'
import { TurnError } from '../../src/components/transcript'
import { weftError } from '../../src/core/model/errors'
import { NavigationActions } from '../../src/protocols/ag-ui/react/index'
import { renderWith, storeWith } from './support'

describe('styles.css', () => {
  it('a trace headline, a turn error, navigation actions and a recommended action alone use the kit’s font, not the page’s serif', () => {
    const action = { id: 'r1', turnId: 't1', type: 'recommended-action', role: 'assistant', status: 'done', props: { actionId: 'gmail.send', label: 'Draft the note', rationale: 'She asked for it.' } } as unknown as Message
    renderWith(storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'tool', label: 'Searched', status: 'done' } },
      { op: 'turn.finish', turnId: 't1', status: 'error', error: weftError('network', 'The connection dropped.') },
    ]), (
      <div style={{ fontFamily: 'serif' }}>
        <TraceHeadline turnId="t1" data-testid="headline" />
        <TurnError turnId="t1" data-testid="error" />
        <NavigationActions actions={[{ label: 'Open calendar', path: '/calendar' }]} data-testid="navigation" />
        <RecommendedActionCard message={action} />
      </div>
    ))
    const probe = document.createElement('span')
    probe.style.fontFamily = 'var(--weft-font)'
    document.body.append(probe)
    const kitFont = getComputedStyle(probe).fontFamily
    probe.remove()
    expect(kitFont).toContain('system-ui')
    const parts = [
      screen.getByTestId('headline'), screen.getByTestId('error'), screen.getByTestId('navigation'),
      document.querySelector<HTMLElement>('[data-weft="recommended-action"]')!,
    ]
    expect(parts.map((part) => [part.getAttribute('data-weft'), getComputedStyle(part).fontFamily])).toEqual(
      parts.map((part) => [part.getAttribute('data-weft'), kitFont]),
    )
  })

  it('names no colour outside the variables’ declarations', () => {
    // The stylesheet as Vite's dev server injected it for the import above.
    const css = document.querySelector('style[data-vite-dev-id$="components/styles.css"]')?.textContent ?? ''
    expect(css).toContain('--weft-font')
    const declarations = css
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split(/[;{}]/)
      .map((d) => d.trim())
      .filter((d) => d.includes(':') && !d.startsWith('--') && !d.startsWith('@'))
    const coloured = declarations.filter((d) => /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|oklch|lab|lch)\(/i.test(d.slice(d.indexOf(':') + 1)))
    expect(coloured).toEqual([])
  })

  it('the shadow follows the theme', () => {
    const light = document.createElement('div')
    light.setAttribute('data-theme', 'light')
    const dark = document.createElement('div')
    dark.setAttribute('data-theme', 'dark')
    document.body.append(light, dark)
    const shadow = (el: HTMLElement) => getComputedStyle(el).getPropertyValue('--weft-shadow').trim()
    expect(shadow(light)).not.toBe('')
    expect(shadow(dark)).not.toBe(shadow(light))
    light.remove()
    dark.remove()
  })
})
