/**
 * weft/mermaid's sanitizer on its own: whatever Mermaid lets through, the SVG
 * that reaches the page has no script, no handler, no link and no HTML inside.
 * (Its own file: importing the render module loads Mermaid, which the lazy
 * loading tests in math-diagrams.test.tsx must not see.)
 */
import { describe, expect, it } from 'vitest'
import { sanitizeSvg } from '../../src/mermaid/render-with-mermaid'

declare global {
  interface Window { weftPwned?: number }
}

function expectInert(root: Element) {
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      expect(attribute.name, `${element.tagName} ${attribute.name}`).not.toMatch(/^on/i)
      expect(attribute.value, `${element.tagName} ${attribute.name}`).not.toMatch(/^\s*(javascript|data):/i)
    }
  }
  expect(window.weftPwned).toBeUndefined()
}

describe('sanitizeSvg', () => {
  it('sanitizes the SVG before it reaches the page, whatever Mermaid let through', () => {
    const svg = [
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="window.weftPwned=1">',
      '<style>#d .node { fill: red; }</style>',
      '<script>window.weftPwned=2</script>',
      '<a href="javascript:window.weftPwned=3"><text>link</text></a>',
      '<a xlink:href="javascript:window.weftPwned=4"><text>old link</text></a>',
      '<g onclick="window.weftPwned=5"><rect width="10" height="10" /></g>',
      '<foreignObject><div><img src="x" onerror="window.weftPwned=6"></div></foreignObject>',
      '<animate attributeName="href" to="javascript:window.weftPwned=7" />',
      '<use href="data:image/svg+xml,<svg onload=window.weftPwned=8>" />',
      '<text>kept</text>',
      '</svg>',
    ].join('')
    const host = document.createElement('div')
    host.innerHTML = sanitizeSvg(svg)
    document.body.append(host)
    try {
      expect(host.querySelector('svg style')!.textContent).toBe('#d .node { fill: red; }')
      expect(host.querySelector('svg rect')).not.toBeNull()
      expect([...host.querySelectorAll('text')].map((t) => t.textContent)).toContain('kept')
      expect(host.querySelectorAll('script, foreignObject, img, animate, [href], [*|href]')).toHaveLength(0)
      expectInert(host)
    } finally {
      host.remove()
    }
  })

})
