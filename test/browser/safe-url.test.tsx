import { describe, expect, it } from 'vitest'
import { safeUrl } from '../../src/components/safe-url'

describe('safeUrl', () => {
  it('keeps http, https, mailto and relative URLs as given', () => {
    for (const url of ['https://example.com/a?b=1#c', 'http://example.com', 'mailto:ann@example.com', '/docs/intro', 'notes/1', '#top', '?q=1', '//cdn.example.com/x.png']) {
      expect(safeUrl(url)).toBe(url)
    }
  })

  it('refuses script and other schemes, however they are spelled', () => {
    for (const url of [
      'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', '\u0000javascript:alert(1)',
      'java\tscript:alert(1)', 'java\nscript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd', 'blob:https://example.com/1', 'ftp://example.com',
    ]) {
      expect(safeUrl(url), url).toBeUndefined()
    }
  })

  it('refuses what is not a usable string', () => {
    for (const value of [undefined, null, 42, {}, '', '   ', 'http://[::1']) expect(safeUrl(value)).toBeUndefined()
  })

  it('accepts raster data images only when asked, and never SVG', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    expect(safeUrl(png)).toBeUndefined()
    expect(safeUrl(png, { image: true })).toBe(png)
    expect(safeUrl('data:image/svg+xml,<svg onload="alert(1)"/>', { image: true })).toBeUndefined()
    expect(safeUrl('javascript:alert(1)', { image: true })).toBeUndefined()
  })
})
