/**
 * `safeUrl`, rule by rule, in Node (the browser file checks the same function where
 * links are drawn): which schemes pass, what noise is taken out before the check and
 * out of the URL handed back, and which data images an image may use.
 */
import { describe, expect, it } from 'vitest'
import { safeUrl } from '../../../src/components/safe-url'

describe('safeUrl: schemes', () => {
  it('passes http, https and mailto, each on its own', () => {
    expect(safeUrl('http://example.com/a')).toBe('http://example.com/a')
    expect(safeUrl('https://example.com/a')).toBe('https://example.com/a')
    expect(safeUrl('mailto:ann@example.com')).toBe('mailto:ann@example.com')
    expect(safeUrl('HTTPS://EXAMPLE.COM/A')).toBe('HTTPS://EXAMPLE.COM/A')
  })

  it('passes relative URLs as given (they take a safe scheme)', () => {
    for (const url of ['/docs/intro', 'notes/1', '#top', '?q=1', '../up', '//cdn.example.com/x.png']) expect(safeUrl(url), url).toBe(url)
  })

  it('refuses every other scheme', () => {
    for (const url of ['javascript:alert(1)', 'vbscript:x', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'blob:https://example.com/1', 'ftp://example.com', 'tel:123', 'ws://example.com']) {
      expect(safeUrl(url), url).toBeUndefined()
    }
  })

  it('refuses what is not a string, is empty once cleaned, or does not parse', () => {
    for (const value of [undefined, null, 0, 1, true, {}, [], '', ' ', '\t\n', '\u0000\u0020', 'http://[::1', 'https://exa mple.com']) {
      expect(safeUrl(value), JSON.stringify(value)).toBeUndefined()
    }
  })
})

describe('safeUrl: noise the browser ignores', () => {
  it('takes every tab, newline and carriage return out, anywhere, and hands back the cleaned URL', () => {
    expect(safeUrl('ht\ttp://exa\nmple.com/\ra\tb')).toBe('http://example.com/ab')
    expect(safeUrl('/a\t/b\t/c')).toBe('/a/b/c')
  })

  it('sees a scheme split by noise as the browser does', () => {
    for (const url of ['java\tscript:alert(1)', 'java\nscript:alert(1)', 'java\rscript:alert(1)', 'j\ta\tv\ta\tscript:alert(1)']) {
      expect(safeUrl(url), JSON.stringify(url)).toBeUndefined()
    }
  })

  it('trims control characters and spaces at both ends, and only there', () => {
    expect(safeUrl('  https://example.com/a  ')).toBe('https://example.com/a')
    expect(safeUrl('\u0001\u001fhttps://example.com/a\u0000\u0020')).toBe('https://example.com/a')
    expect(safeUrl('https://example.com/a\u0001')).toBe('https://example.com/a')
    expect(safeUrl('/a b')).toBe('/a b')
    expect(safeUrl('\u0000javascript:alert(1)')).toBeUndefined()
    expect(safeUrl(' \u0008javascript:alert(1) ')).toBeUndefined()
  })

  it('leaves characters above the space alone', () => {
    expect(safeUrl('/a!b~')).toBe('/a!b~')
    expect(safeUrl('!https://example.com')).toBe('!https://example.com')
  })
})

describe('safeUrl: data images', () => {
  const raster = ['png', 'jpeg', 'jpg', 'gif', 'webp', 'avif']

  it('passes each raster format, with base64 or plain data, only when asked for an image', () => {
    for (const format of raster) {
      for (const url of [`data:image/${format};base64,AAAA`, `data:image/${format},AAAA`]) {
        expect(safeUrl(url, { image: true }), url).toBe(url)
        expect(safeUrl(url), url).toBeUndefined()
        expect(safeUrl(url, { image: false }), url).toBeUndefined()
        expect(safeUrl(url, {}), url).toBeUndefined()
      }
    }
  })

  it('reads the scheme and format in any case', () => {
    expect(safeUrl('DATA:IMAGE/PNG;base64,AA', { image: true })).toBe('DATA:IMAGE/PNG;base64,AA')
    expect(safeUrl('Data:Image/Jpeg,AA', { image: true })).toBe('Data:Image/Jpeg,AA')
  })

  it('refuses SVG, other types and formats that only start like a raster one', () => {
    for (const url of [
      'data:image/svg+xml,<svg onload="alert(1)"/>', 'data:image/svg+xml;base64,PHN2Zz4=', 'data:image/pngx;base64,AA',
      'data:image/png', 'data:image/,AA', 'data:image/bmp;base64,AA', 'data:text/html;base64,AA', 'data:,image/png;', 'data:application/png;base64,AA',
    ]) {
      expect(safeUrl(url, { image: true }), url).toBeUndefined()
    }
  })

  it('reads the type at the start of the URL only', () => {
    expect(safeUrl('data:text/html,data:image/png;base64,AA', { image: true })).toBeUndefined()
    expect(safeUrl('javascript:alert("data:image/png;")', { image: true })).toBeUndefined()
  })

  it('still passes links when asked for an image, and trims a data image too', () => {
    expect(safeUrl('https://example.com/a.png', { image: true })).toBe('https://example.com/a.png')
    expect(safeUrl('/a.png', { image: true })).toBe('/a.png')
    expect(safeUrl(' data:image/png;base64,A\nA ', { image: true })).toBe('data:image/png;base64,AA')
  })
})
