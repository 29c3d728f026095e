/// <reference types="vite/client" />
/**
 * A host page's own global CSS stays outside the chat: the stylesheet of the
 * app `npm create vite` makes (react-ts) centres #root's text and styles every
 * `code`, `h1`, `h2` and `p`; under it, an answer's text, headings, lists and code
 * blocks are drawn as weft draws them.
 */
import '../../src/components/styles.css'
import template from '../../node_modules/create-vite/template-react-ts/src/index.css?raw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Markdown } from '../../src/components/markdown/markdown'
import { renderWith, storeWith } from './support'

const answer = '## Plan\n\nA paragraph with `inline code`.\n\n- one\n- two\n\n```ts\nconst a = 1\n```\n'
let style: HTMLStyleElement

beforeEach(() => {
  style = document.createElement('style')
  style.textContent = template
  document.head.append(style)
})
afterEach(() => style.remove())

function draw() {
  const root = document.createElement('div')
  root.id = 'root'
  document.body.append(root)
  const view = renderWith(storeWith([]), <div data-weft="chat"><Markdown text={answer} /></div>)
  root.append(view.container)
  return { root, markdown: view.container.querySelector<HTMLElement>('[data-weft="markdown"]')! }
}

describe('under the create-vite template\'s global CSS', () => {
  it('the template really centres #root (the check can fail)', () => {
    const { root } = draw()
    expect(getComputedStyle(root).textAlign).toBe('center')
  })

  it('an answer\'s paragraph, heading, list and code start at the start, and a code block\'s code is a block', () => {
    const { markdown } = draw()
    for (const selector of ['p', 'h2', 'li', 'pre']) {
      expect([selector, getComputedStyle(markdown.querySelector(selector)!).textAlign]).toEqual([selector, 'start'])
    }
    const blockCode = markdown.querySelector('pre > code')!
    expect(getComputedStyle(blockCode).display).toBe('block')
    expect(getComputedStyle(blockCode).backgroundColor).toBe('rgba(0, 0, 0, 0)')
    expect(getComputedStyle(blockCode).paddingLeft).toBe('0px')
    const inline = markdown.querySelector(':not(pre) > code')!
    expect(getComputedStyle(inline).display).toBe('inline')
    // The heading keeps weft's size (1.125rem = 18px for h2 at the default root size), not the template's 24px.
    expect(getComputedStyle(markdown.querySelector('h2')!).fontSize).not.toBe('24px')
  })
})
