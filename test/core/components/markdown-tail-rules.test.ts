/**
 * `completeTail`, rule by rule, with the exact text each streaming tail becomes:
 * pending block markers, tables whose delimiter row has not arrived, links still
 * arriving, and inline delimiters left open. The fences and CRLF are pinned in
 * `pins-markdown-tail.test.ts`.
 */
import { describe, expect, it } from 'vitest'
import { completeTail } from '../../../src/components/markdown/tail'

const cases = (pairs: Array<[string, string]>) => {
  for (const [input, output] of pairs) expect(completeTail(input), JSON.stringify(input)).toBe(output)
}

describe('completeTail: inside an open fence', () => {
  it('leaves the text as it is, whatever the last line holds', () => {
    cases([
      ['```js\nconst a = **b', '```js\nconst a = **b'],
      ['~~~\n- ', '~~~\n- '],
      ['```\n| a | b', '```\n| a | b'],
      ['   ```\n[link](ht', '   ```\n[link](ht'],
    ])
  })

  it('a fence indented four spaces is no fence', () => {
    cases([['    ```\nSome **bold', '    ```\nSome **bold**']])
  })
})

describe('completeTail: a marker with nothing after it yet', () => {
  it('drops the last line when it is only a list, heading, quote, code or rule marker', () => {
    cases([
      ['Intro\n-', 'Intro'], ['Intro\n- ', 'Intro'], ['Intro\n*', 'Intro'], ['Intro\n+\t', 'Intro'], ['Intro\n=', 'Intro'],
      ['Intro\n_', 'Intro'], ['Intro\n---', 'Intro'], ['Intro\n==', 'Intro'], ['Intro\n1', 'Intro'], ['Intro\n1.', 'Intro'],
      ['Intro\n12)', 'Intro'], ['Intro\n123456789.', 'Intro'], ['Intro\n#', 'Intro'], ['Intro\n###### ', 'Intro'],
      ['Intro\n`', 'Intro'], ['Intro\n``', 'Intro'], ['Intro\n>', 'Intro'], ['Intro\n   -', 'Intro'], ['-', ''],
      ['Intro\n\n- a\n- ', 'Intro\n\n- a'],
    ])
  })

  it('keeps a line that is more than a marker', () => {
    cases([
      ['Intro\n- a', 'Intro\n- a'], ['Intro\n    -', 'Intro\n    -'], ['Intro\n#######', 'Intro\n#######'],
      ['Intro\n1234567890', 'Intro\n1234567890'], ['Intro\n#a', 'Intro\n#a'], ['Intro\n1.5', 'Intro\n1.5'], ['Intro\n>a', 'Intro\n>a'],
      ['Intro\n-a', 'Intro\n-a'], ['Intro\n- -x', 'Intro\n- -x'],
    ])
  })
})

describe('completeTail: tables', () => {
  it('a delimiter row arriving under its header is completed to one cell per header cell', () => {
    cases([
      ['| a | b |\n|', '| a | b |\n| --- | --- |'],
      ['| a | b |\n| -', '| a | b |\n| --- | --- |'],
      ['| a | b | c |\n|:--|', '| a | b | c |\n| --- | --- | --- |'],
      ['Intro\n| a |\n| -- |', 'Intro\n| a |\n| --- |'],
      ['  | a | b |\n  |', '  | a | b |\n| --- | --- |'],
      ['| a | b |   \n|', '| a | b |   \n| --- | --- |'],
      ['| a \\| b |\n|', '| a \\| b |\n| --- |'],
    ])
  })

  it('a header row with no cells under which a delimiter starts is not a table', () => {
    cases([['|\n| -', '|\n| -'], ['||\n|', '||\n|']])
  })

  it('a row under two rows is a body row, not a delimiter', () => {
    cases([
      ['| a |\n| --- |\n|', '| a |\n| --- |\n|'],
      ['| a |\n| --- |\n| 1', '| a |\n| --- |\n| 1'],
      ['| a |\n| --- |\n| *x', '| a |\n| --- |\n| *x*'],
    ])
  })

  it('a line under a header that is not a delimiter is left to the inline rules', () => {
    cases([['| a |\n| x *y', '| a |\n| x *y*']])
  })

  it('a header row alone becomes a table as soon as it has a cell, closed with a pipe when it has none at its end', () => {
    cases([
      ['| a | b', '| a | b |\n| --- | --- |'],
      ['| a | b |', '| a | b |\n| --- | --- |'],
      ['Intro\n| a', 'Intro\n| a |\n| --- |'],
      ['| a | b |  ', '| a | b |  \n| --- | --- |'],
      ['| a \\|', '| a \\| |\n| --- |'],
      ['| a \\| b', '| a \\| b |\n| --- |'],
    ])
  })

  it('a header row with no cell yet is dropped', () => {
    cases([['Intro\n|', 'Intro'], ['|', ''], ['Intro\n| ', 'Intro'], ['Intro\n||', 'Intro']])
  })

  it('a header row after a paragraph line is still a header', () => {
    cases([['Intro\nmore\n| a', 'Intro\nmore\n| a |\n| --- |']])
  })
})

describe('completeTail: links still arriving', () => {
  it('shows the text of a link whose text or URL is still coming', () => {
    cases([
      ['See [the docs](https://ex', 'See the docs'],
      ['See [the do', 'See the do'],
      ['See [the docs](', 'See the docs'],
      ['See [the docs](https://ex "Ti', 'See the docs'],
      ['See [the docs](https://ex "Title"', 'See the docs'],
      ['See [a](x) and [b](y', 'See [a](x) and b'],
    ])
  })

  it('drops an image or a citation marker until it is whole', () => {
    cases([
      ['See ![a chart](https://ex', 'See '],
      ['See ![a ch', 'See '],
      ['Fact [1', 'Fact '],
      ['Fact [12](https://ex', 'Fact '],
      ['Fact [', 'Fact '],
    ])
  })

  it('leaves a whole link, a closed bracket and a link with spaces in its URL alone', () => {
    cases([
      ['See [the docs](https://ex.com)', 'See [the docs](https://ex.com)'],
      ['See [the docs]', 'See [the docs]'],
      ['See [the docs](a b', 'See [the docs](a b'],
    ])
  })

  it('completes the emphasis around a link text it showed', () => {
    cases([['**See [the do', '**See the do**']])
  })
})

describe('completeTail: inline delimiters', () => {
  it('closes each open delimiter', () => {
    cases([
      ['Some **bold', 'Some **bold**'], ['Some *it', 'Some *it*'], ['Some __bold', 'Some __bold__'], ['Some _it', 'Some _it_'],
      ['Some ~~gone', 'Some ~~gone~~'], ['Some `code', 'Some `code`'],
    ])
  })

  it('closes nested delimiters innermost first', () => {
    cases([['**a *b', '**a *b***'], ['***x', '***x***'], ['~~a **b `c', '~~a **b `c`**~~'], ['_a **b', '_a **b**_']])
  })

  it('leaves closed delimiters closed', () => {
    cases([['**a** b', '**a** b'], ['*a* **b', '*a* **b**'], ['`a` *b', '`a` *b*'], ['~~a~~ _b_', '~~a~~ _b_'], ['**a*', '**a**']])
  })

  it('reads nothing inside a code span', () => {
    cases([['`a*b', '`a*b`'], ['`a **b', '`a **b`'], ['`a` `b _c', '`a` `b _c`']])
  })

  it('skips an escaped character, and only that one', () => {
    cases([['\\*not', '\\*not'], ['\\`x', '\\`x'], ['\\**x', '\\**x*'], ['a\\\\*b', 'a\\\\*b*']])
  })

  it('a delimiter followed by a space does not open', () => {
    cases([['a * b', 'a * b'], ['a ** b', 'a ** b'], ['a ~~ b', 'a ~~ b']])
  })

  it('a delimiter after a space does not close', () => {
    cases([['*a *b', '*a *b**'], ['**a **b', '**a **b****']])
  })

  it('an underscore inside a word neither opens nor closes; an asterisk does', () => {
    cases([['snake_case_name', 'snake_case_name'], ['a_b', 'a_b'], ['a*b', 'a*b*'], ['1_b', '1_b'], ['é_b', 'é_b'], ['._b', '._b_']])
  })

  it('a single tilde is text', () => {
    cases([['a~b', 'a~b'], ['a ~b', 'a ~b']])
  })

  it('an opener with nothing after it yet is left out, not closed on nothing', () => {
    cases([['a **', 'a '], ['a *', 'a '], ['a `', 'a '], ['a ` ', 'a '], ['**a *', '**a **'], ['a ~~', 'a ']])
  })

  it('half of a closing ~~ that arrived is completed, not doubled', () => {
    cases([['a ~~b~', 'a ~~b~~'], ['a ~~b~ ', 'a ~~b~~ '], ['a **b~', 'a **b~**']])
  })

  it('keeps whitespace at the end after the closers', () => {
    cases([['Some **bold  ', 'Some **bold**  '], ['Some *it\t', 'Some *it*\t']])
  })

  it('reads no delimiter inside a whole link\'s URL', () => {
    cases([
      ['[a](http://x*y) b', '[a](http://x*y) b'],
      ['[a](u*v) [b](w*x) c', '[a](u*v) [b](w*x) c'],
      ['[a](u_v) _c', '[a](u_v) _c_'],
    ])
  })

  it('an underscore right after a whole link opens (a link ends in punctuation, not a word)', () => {
    cases([['[a](u)_c', '[a](u)_c_'], ['[a](u)*c', '[a](u)*c*']])
  })

  it('an outer opener the text ends with is closed, not dropped, once an inner one was closed', () => {
    cases([['**a `b**', '**a `b**`**'], ['~~a `b~~', '~~a `b~~`~~']])
  })

  it('completes only the last line', () => {
    cases([['**a\nb *c', '**a\nb *c*'], ['a\n\nSome **bold', 'a\n\nSome **bold**']])
  })
})
