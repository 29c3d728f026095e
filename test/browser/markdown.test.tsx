import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Lexer } from 'marked'
import { Markdown, MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { groupsOf, MarkdownBlocks } from '../../src/components/markdown/blocks'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { markdownAnswer } from '../fixtures/markdown-answer'
import { renderWith, storeWith } from './support'

const plain = (ui: React.ReactNode) => <MarkdownSettingsProvider highlight={false}>{ui}</MarkdownSettingsProvider>

function draw(text: string, streaming = false, dataImages = false) {
  return renderWith(storeWith([]), <MarkdownSettingsProvider highlight={false} dataImages={dataImages}><Markdown text={text} streaming={streaming} /></MarkdownSettingsProvider>)
}

describe('Markdown: GFM', () => {
  it('draws headings, emphasis, lists, task lists, quotes, tables, links, code and rules', () => {
    const { container } = draw(markdownAnswer)
    const md = container.querySelector('[data-weft="markdown"]')!
    expect(md.querySelector('h2')!.textContent).toBe('Weather in Paris')
    expect(md.querySelector('strong')!.textContent).toBe('18 °C')
    expect(md.querySelector('em')!.textContent).toBe('light rain')
    expect(md.querySelector('del')!.textContent).toBe('no')
    const firstList = md.querySelector('ul')!
    expect(firstList.querySelector('code')!.textContent).toBe('fetch')
    expect([...firstList.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['nested one', 'nested two'])
    const tasks = [...md.querySelectorAll('li[data-task] [data-weft="task-box"]')]
    expect(tasks.map((t) => t.getAttribute('data-state'))).toEqual(['checked', 'unchecked'])
    expect(md.querySelector('blockquote em')!.textContent).toBe('colder')
    const headers = [...md.querySelectorAll('th')]
    expect(headers.map((th) => [th.textContent, th.style.textAlign])).toEqual([['City', 'left'], ['Temp', 'right'], ['Rain', 'center']])
    expect([...md.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual(['Paris18yes', 'Lyon21no'])
    const link = screen.getByRole('link', { name: 'Météo-France' })
    expect(link.getAttribute('href')).toBe('https://meteofrance.com/paris')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer')
    const code = md.querySelector('[data-weft="code-block"]')!
    expect(code.getAttribute('data-lang')).toBe('ts')
    expect(code.querySelector('[data-weft="code-lang"]')!.textContent).toBe('ts')
    expect(code.querySelector('pre code')!.textContent).toBe("const res = await fetch('/api/weather?city=Paris')\nconsole.log(await res.json())")
    expect(md.querySelector('hr')).not.toBeNull()
    expect(md.lastElementChild!.textContent).toBe('That is all.')
  })

  it('reads character references', () => {
    const { container } = draw('Tom &amp; Jerry &lt;3 &#169; &#x1F600;')
    expect(container.textContent).toBe('Tom & Jerry <3 © 😀')
  })
})

describe('Markdown: safe by construction', () => {
  it('shows raw HTML as text and never creates its elements', () => {
    const { container } = draw('<script>window.__pwned = 1</script>\n\nHi <img src=x onerror="window.__pwned=2"> <b>bold</b>\n\n<div onclick="x()">block</div>')
    expect(container.querySelector('script, img, b, div[onclick]')).toBeNull()
    expect(container.textContent).toContain('<script>window.__pwned = 1</script>')
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned=2">')
    expect((window as { __pwned?: number }).__pwned).toBeUndefined()
  })

  it('refuses script URLs in links and images, and images that are not http(s)', () => {
    const { container } = draw('[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) ![d](javascript:x) ![e](/local.png) ![f](data:image/png;base64,AAAA) ![g](https://example.com/g.png)')
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([])
    expect([...container.querySelectorAll('[data-weft="link-blocked"]')].map((s) => s.textContent)).toEqual(['a', 'b', 'c'])
    expect([...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['https://example.com/g.png'])
    expect([...container.querySelectorAll('[data-weft="image-blocked"]')].map((s) => s.textContent)).toEqual(['d', 'e', 'f'])
  })

  it('accepts raster data images only when the host allows them', () => {
    const { container } = draw('![f](data:image/png;base64,AAAA) ![s](data:image/svg+xml;base64,PHN2Zz4=)', false, true)
    expect([...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['data:image/png;base64,AAAA'])
  })
})

/** Text outside code that shows markdown syntax the reader should never see. */
function rawMarkup(root: Element): string | undefined {
  const copy = root.cloneNode(true) as Element
  copy.querySelectorAll('pre, code').forEach((el) => el.remove())
  const text = copy.textContent ?? ''
  for (const marker of ['**', '~~', '](', '```', '##', '`']) if (text.includes(marker)) return marker
  for (const p of copy.querySelectorAll('p')) if (/^\s*[|>#]/.test(p.textContent ?? '')) return p.textContent ?? ''
  return undefined
}

describe('Markdown: streaming', () => {
  it('shows every prefix of an answer as its finished form, with no raw markup', () => {
    const { container, rerender } = render(plain(<Markdown text="" streaming />))
    const seen: Array<[number, string]> = []
    for (let end = 1; end <= markdownAnswer.length; end++) {
      rerender(plain(<Markdown text={markdownAnswer.slice(0, end)} streaming />))
      const found = rawMarkup(container)
      if (found) seen.push([end, found])
    }
    expect(seen).toEqual([])
  })

  it('draws an unterminated fence, table, link and emphasis as they will end', () => {
    const { container } = draw('Some **bold and *it', true)
    expect(container.querySelector('strong')!.textContent).toBe('bold and it')
    expect(container.querySelector('strong em')!.textContent).toBe('it')
    const table = draw('| a | b |\n|--', true).container
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['a', 'b'])
    const fence = draw('```python\nprint(1)\n', true).container
    expect(fence.querySelector('[data-weft="code-block"]')!.getAttribute('data-lang')).toBe('python')
    expect(fence.querySelector('pre')!.textContent).toBe('print(1)')
    const link = draw('Read [the guide](https://exa', true).container
    expect(link.textContent).toBe('Read the guide')
    expect(link.querySelector('a')).toBeNull()
  })

  it('keeps finished blocks (same objects) and lexes only the text from the last open block on', () => {
    const blocks = new MarkdownBlocks()
    const paragraphs = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}).`)
    const text = paragraphs.join('\n\n')
    let previous = blocks.update('', true).done
    let lexedBefore = 0
    let replaced = 0
    const perToken: number[] = []
    for (let end = 8; end <= text.length; end += 8) {
      const next = blocks.update(text.slice(0, end), true).done
      // Every block that was closed before is the very same object now.
      for (let i = 0; i < previous.length; i++) if (next[i] !== previous[i]) replaced++
      perToken.push(blocks.lexedChars - lexedBefore)
      lexedBefore = blocks.lexedChars
      previous = next
    }
    // A token costs the length of the open block, not of the answer so far.
    expect(replaced).toBe(0)
    expect(Math.max(...perToken)).toBeLessThan(paragraphs[199]!.length + 16)
    expect(previous).toHaveLength(199)
    expect(blocks.update(text, false).live).toHaveLength(1)
  })

  it('groups closed blocks by 32 and keeps every group that did not change, so a block closing redraws one group', () => {
    const text = Array.from({ length: 100 }, (_, i) => `Paragraph ${i}.`).join('\n\n')
    const blocks = new MarkdownBlocks()
    const before = blocks.update(text, true).done
    expect(before).toHaveLength(99)
    const groups = groupsOf(before, [])
    expect(groups.map((group) => group.length)).toEqual([32, 32, 32, 3])
    expect(groups.flat()).toEqual(before)
    const after = blocks.update(`${text}\n\nOne more.`, true).done
    const next = groupsOf(after, groups)
    expect(next.map((group) => group.length)).toEqual([32, 32, 32, 4])
    expect(next.map((group, g) => group === groups[g])).toEqual([true, true, true, false])
    // Blocks that are not the same objects (the text started over) get new groups.
    const fresh = groupsOf(new MarkdownBlocks().update(text, true).done, groups)
    expect(fresh.map((group, g) => group === groups[g])).toEqual([false, false, false, false])
    expect(groupsOf([], groups)).toEqual([])
  })

  it('starts over when the text is replaced rather than extended', () => {
    const blocks = new MarkdownBlocks()
    blocks.update('First **one**\n\nSecond', true)
    const { done, live } = blocks.update('Replaced text\n\nSecond and more', true)
    expect(done.map((b) => b.token.raw)).toEqual(['Replaced text'])
    expect(live.map((b) => b.token.raw)).toEqual(['Second and more'])
  })

  it('a view that mounts again on a long answer (the finished node, a virtual row) starts from the closed blocks', () => {
    const text = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}).`).join('\n\n')
    const lexed: string[] = []
    const lex = Lexer.prototype.lex
    Lexer.prototype.lex = function countedLex(this: Lexer, src: string) {
      lexed.push(src)
      return lex.call(this, src)
    }
    try {
      const { container, rerender } = render(plain(<Markdown key="streaming" text={text.slice(0, -10)} streaming />))
      lexed.length = 0
      rerender(plain(<Markdown key="final" text={text} />))
      // Only the last paragraph is lexed for the new view, and it draws every block.
      const last = text.length - text.lastIndexOf('Paragraph 59')
      expect(lexed).toHaveLength(1)
      expect(lexed[0]!.length).toBeGreaterThanOrEqual(last)
      expect(lexed[0]!.length).toBeLessThanOrEqual(last + 4)
      expect(container.querySelectorAll('p')).toHaveLength(60)
      expect(container.querySelectorAll('p')[59]!.textContent).toBe('Paragraph 59 with bold text and a link.')
      // A text that does not go on from a known one is lexed whole.
      lexed.length = 0
      const other = `Another answer.\n\n${text}`
      rerender(plain(<Markdown key="other" text={other} />))
      expect(lexed.map((src) => src.length)).toEqual([other.length])
    } finally {
      Lexer.prototype.lex = lex
    }
  })

  it('a parser started from another gives the blocks a fresh one gives', () => {
    const text = `${markdownAnswer}\n\n${'More text here. '.repeat(200)}\n\n## End\n\nLast **words**`
    const first = new MarkdownBlocks()
    for (let end = 100; end < text.length; end += 100) first.update(text.slice(0, end), true)
    const adopted = MarkdownBlocks.forText(text).update(text, false)
    const fresh = new MarkdownBlocks().update(text, false)
    const raws = ({ done, live }: { done: readonly { key: number; token: { raw: string } }[]; live: readonly { key: number; token: { raw: string } }[] }) =>
      [...done, ...live].map((block) => [block.key, block.token.raw])
    expect(adopted.done.length).toBeGreaterThan(0)
    expect(raws(adopted)).toEqual(raws(fresh))
  })

  it('does not redraw finished blocks while the last one streams', () => {
    const { container, rerender } = render(plain(<Markdown text={'First paragraph.\n\nSecond'} streaming />))
    const first = container.querySelector('p')!
    rerender(plain(<Markdown text={'First paragraph.\n\nSecond grows'} streaming />))
    rerender(plain(<Markdown text={'First paragraph.\n\nSecond grows more\n\n- a list'} streaming />))
    expect(container.querySelector('p')).toBe(first)
    expect(container.querySelector('li')!.textContent).toBe('a list')
  })

  it('keeps the element of a block that closes, and of every block when a group fills and the next one starts', () => {
    const paragraphs = (count: number) => Array.from({ length: count }, (_, i) => `Paragraph ${i}.`).join('\n\n')
    const { container, rerender } = render(plain(<Markdown text={`${paragraphs(31)}\n\nThe open one`} streaming />))
    const open = () => [...container.querySelectorAll('p')].at(-1)!
    const before = [...container.querySelectorAll('p')]
    expect(before).toHaveLength(32)
    expect(open().textContent).toBe('The open one')
    const element = open()
    // The open block closes (a 33rd starts, in a new group of 32): nothing already drawn is drawn anew.
    rerender(plain(<Markdown text={`${paragraphs(31)}\n\nThe open one, closed.\n\nNext`} streaming />))
    const after = [...container.querySelectorAll('p')]
    expect(after).toHaveLength(33)
    expect(after[31]).toBe(element)
    expect(element.textContent).toBe('The open one, closed.')
    expect(after.slice(0, 32)).toEqual(before)
    rerender(plain(<Markdown text={`${paragraphs(31)}\n\nThe open one, closed.\n\nNext and more`} streaming={false} />))
    expect([...container.querySelectorAll('p')].slice(0, 32)).toEqual(before)
    expect(open().textContent).toBe('Next and more')
  })
})

describe('Markdown in the transcript', () => {
  const sourceOps = (): Op[] => [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://meteo.example/paris', title: 'Météo Paris', citationIndex: 1 } },
    { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: '**Rain** today [1].\n\n- more [1]' },
    { op: 'turn.finish', turnId: 't1', status: 'done' },
  ]

  it('links [n] markers inside markdown to their sources', () => {
    const { container } = renderWith(storeWith(sourceOps()), plain(<Transcript.Root />))
    const citations = [...container.querySelectorAll('[data-weft="text"] a[data-weft="citation"]')]
    expect(citations.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('title')])).toEqual([
      ['[1]', 'https://meteo.example/paris', 'Météo Paris'],
      ['[1]', 'https://meteo.example/paris', 'Météo Paris'],
    ])
    expect(container.querySelector('[data-weft="text"] strong')!.textContent).toBe('Rain')
  })

  it('keeps a person’s own words as they typed them, not as markdown', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 'u1', role: 'user' },
      { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', props: { content: 'What is **2*3**?' }, status: 'done' },
    ])
    const { container } = renderWith(store, <Transcript.Root />)
    expect(container.querySelector('strong')).toBeNull()
    expect(container.querySelector('[data-weft="text"]')!.textContent).toBe('What is **2*3**?')
  })

  it('marks the streaming answer busy and keeps every node when it finishes', () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: '## Hi' },
    ])
    const { container } = renderWith(store, plain(<Transcript.Root />))
    const streaming = container.querySelector('[data-weft="text"]')!
    const heading = streaming.querySelector('h2')!
    expect(streaming.getAttribute('aria-busy')).toBe('true')
    act(() => store.getState().dispatch([{ op: 'message.finish', messageId: 'm1', status: 'done' }]))
    const done = container.querySelector('[data-weft="text"]')!
    expect(done).toBe(streaming)
    expect(done.querySelector('h2')).toBe(heading)
    expect(done.hasAttribute('aria-busy')).toBe(false)
    expect(heading.textContent).toBe('Hi')
  })
})
