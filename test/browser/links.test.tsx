import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Sources } from '../../src/components/sources'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { renderWith, storeWith, textTurn } from './support'

describe('links from the server', () => {
  it('never renders a javascript: source or file as a link', () => {
    const store = storeWith([
      ...textTurn('See [1] and [2].'),
      { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'javascript:alert(1)', title: 'Trap', citationIndex: 1 } },
      { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'url', url: 'https://example.com/ok', title: 'Fine', citationIndex: 2 } },
      { op: 'message.put', turnId: 't1', messageId: 'f1', type: 'file', props: { url: ' JavaScript:alert(1)', mediaType: 'application/pdf', filename: 'report.pdf' } },
      { op: 'message.put', turnId: 't1', messageId: 'f2', type: 'file', props: { url: 'data:image/svg+xml,<svg onload="alert(1)"/>', mediaType: 'image/svg+xml', filename: 'logo.svg' } },
      { op: 'message.put', turnId: 't1', messageId: 'f3', type: 'file', props: { url: 'https://example.com/a.pdf', mediaType: 'application/pdf', filename: 'a.pdf' } },
      { op: 'message.put', turnId: 't1', messageId: 'f4', type: 'file', props: { url: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png', filename: 'dot.png' } },
    ])
    const { container } = renderWith(store, <Transcript.Root />)
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))
    expect(hrefs).toEqual(['https://example.com/ok', 'https://example.com/a.pdf', 'https://example.com/ok'])
    expect([...container.querySelectorAll('[data-weft="file"] img, img[data-weft="file"]')].map((i) => i.getAttribute('src'))).toEqual(['data:image/png;base64,iVBORw0KGgo='])
    // A source's icon is asked of the safe source's site only.
    expect([...container.querySelectorAll('[data-weft="source-icon"] img')].map((i) => i.getAttribute('src'))).toEqual(['https://example.com/favicon.ico'])
    expect(container.querySelectorAll('img').length).toBe(2)
    // Names stay visible without a link.
    expect(screen.getAllByText('Trap')[0]!.getAttribute('data-weft')).toBe('source-title')
    expect(screen.getByText(/report\.pdf/).tagName).toBe('SPAN')
    expect(screen.getByText(/logo\.svg/).tagName).toBe('SPAN')
    // The marker for the unsafe source stays a marker, not a link.
    const markers = [...container.querySelectorAll('[data-weft="citation"]')]
    expect(markers.map((m) => [m.tagName, m.textContent])).toEqual([['SPAN', '[1]'], ['A', '[2]']])
  })
})

describe('citations', () => {
  const sources: Op[] = [
    { op: 'source.add', turnId: 't1', source: { id: 'doc-b', kind: 'document', url: 'https://notes.example.com/b', title: 'Call notes', citationIndex: 2 } },
    { op: 'source.add', turnId: 't1', source: { id: 'doc-a', kind: 'document', url: 'https://crm.example.com/a', title: 'CRM record', citationIndex: 1 } },
  ]

  it('links each [n] marker to the source with that citation index', () => {
    const { container } = renderWith(storeWith([...textTurn('Renews 30 Sep [1]. Two-year term [2][1]. Not a source [7].'), ...sources]), <Transcript.Root />)
    const links = [...container.querySelectorAll<HTMLAnchorElement>('a[data-weft="citation"]')]
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.title])).toEqual([
      ['[1]', 'https://crm.example.com/a', 'CRM record'],
      ['[2]', 'https://notes.example.com/b', 'Call notes'],
      ['[1]', 'https://crm.example.com/a', 'CRM record'],
    ])
    expect(links[0]!.rel).toBe('noopener noreferrer')
    expect(container.querySelector('[data-weft="text"]')!.textContent).toBe('Renews 30 Sep [1]. Two-year term [2][1]. Not a source [7].')
  })

  it('counts sources in order when none carries an index', () => {
    const store = storeWith([
      ...textTurn('First [1], second [2].'),
      { op: 'source.add', turnId: 't1', source: { id: 'x', kind: 'url', url: 'https://x.example' } },
      { op: 'source.add', turnId: 't1', source: { id: 'y', kind: 'url', url: 'https://y.example' } },
    ])
    const { container } = renderWith(store, <Transcript.Root />)
    expect([...container.querySelectorAll('a[data-weft="citation"]')].map((a) => a.getAttribute('href'))).toEqual(['https://x.example', 'https://y.example'])
  })

  it('lists the sources with their markers and snippets', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      ...sources,
      { op: 'source.add', turnId: 't1', source: { id: 'doc-c', kind: 'document', title: 'Offline memo', snippet: 'No link for this one.' } },
    ])
    renderWith(store, <Sources turnId="t1" />)
    const items = screen.getAllByRole('listitem')
    // The chip: its marker and title; its card (on hover or focus): the title, the URL and the snippet.
    const chip = (li: HTMLElement) => [...li.children].filter((part) => !['source-icon', 'source-card'].includes(part.getAttribute('data-weft')!)).map((part) => part.textContent).join('')
    const card = (li: HTMLElement) => [...li.querySelector('[data-weft="source-card"]')!.children].map((part) => part.textContent)
    expect(items.map(chip)).toEqual(['[2] Call notes', '[1] CRM record', 'Offline memo'])
    expect(card(items[2]!)).toEqual(['Offline memo', 'No link for this one.'])
    expect(card(items[1]!)).toEqual(['CRM record', 'https://crm.example.com/a'])
    expect(screen.getByRole('link', { name: 'CRM record' }).getAttribute('href')).toBe('https://crm.example.com/a')
  })
})
