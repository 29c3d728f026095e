/**
 * Markdown that is still arriving, made to read as its finished form: an open
 * emphasis, code span or strikethrough is closed, a link whose URL is still
 * coming shows its text, a table whose delimiter row has not arrived is a table
 * already, and a bare list or heading marker waits for its text. Applied only to
 * the last block while a message streams, so its cost does not grow with the answer.
 */
import { insideMathBlock, maskInlineMath } from './math'

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const PENDING_MARKER = /^ {0,3}(?:[-*+=_]+|\d{1,9}[.)]?|#{1,6}|`{1,2}|>)[ \t]*$/
const TABLE_ROW = /^ {0,3}\|/
const PARTIAL_DELIMITER = /^ {0,3}\|?[ \t:|-]*$/
const PENDING_MATH = /^ {0,3}(?:\$|\\)$/
const OPEN_LINK = /(!?)\[([^\]\n]*)(?:\]\(([^)\s]*)(?:\s+"[^"\n]*"?)?)?$/

/**
 * How the tail is read.
 *
 * @example
 * const options: TailOptions = { math: true }
 */
export interface TailOptions {
  /** Math is on: an open `$$` or `\\[` block is left as it is, and TeX in `$…$` is not read as emphasis. */
  math?: boolean
}

/**
 * The streaming tail of a markdown text, completed so that it parses as its
 * finished form would. Text inside an open code fence (or, with math on, an open
 * math block) is left as it is.
 *
 * @example
 * completeTail('Some **bold')               // 'Some **bold**'
 * completeTail('See [the docs](https://ex') // 'See the docs'
 * completeTail('| a | b |')                 // '| a | b |\n| --- | --- |'
 */
export function completeTail(text: string, options: TailOptions = {}): string {
  const lines = text.split('\n')
  if (insideFence(lines)) return text
  const math = options.math === true
  if (math && insideMathBlock(lines)) return text
  let last = lines[lines.length - 1] ?? ''
  // A marker with nothing after it yet would read as an empty bullet, a setext heading or an hr;
  // with math on, a `$` or `\` alone at the start of a line may be a math block's opener on its way.
  if (PENDING_MARKER.test(last) || (math && PENDING_MATH.test(last))) {
    lines.pop()
    return lines.join('\n')
  }
  const table = completeTable(lines)
  if (table !== undefined) return table
  const linkFree = closeLink(last)
  last = closeInline(linkFree, math)
  lines[lines.length - 1] = last
  return lines.join('\n')
}

function insideFence(lines: readonly string[]): boolean {
  let open: string | undefined
  for (const line of lines) {
    const match = FENCE.exec(line)
    if (!match) continue
    const fence = match[1]!
    if (open === undefined) open = fence
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined
  }
  return open !== undefined
}

function cells(row: string): number {
  const inner = row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '')
  return inner === '' ? 0 : inner.split(/(?<!\\)\|/).length
}

function delimiterRow(count: number): string {
  return `|${' --- |'.repeat(count)}`
}

function completeTable(lines: string[]): string | undefined {
  const n = lines.length
  const last = lines[n - 1]!
  const before = n > 1 ? lines[n - 2]! : ''
  const beforeThat = n > 2 ? lines[n - 3]! : ''
  // The delimiter row is arriving under its header.
  if (TABLE_ROW.test(before) && !TABLE_ROW.test(beforeThat) && PARTIAL_DELIMITER.test(last)) {
    const count = cells(before)
    if (count === 0) return undefined
    return [...lines.slice(0, -1), delimiterRow(count)].join('\n')
  }
  // A header row, alone: it becomes a table as soon as it has a cell.
  if (TABLE_ROW.test(last) && !TABLE_ROW.test(before)) {
    const count = cells(last)
    if (count === 0) return lines.slice(0, -1).join('\n')
    const header = /(?<!\\)\|\s*$/.test(last) ? last : `${last} |`
    return [...lines.slice(0, -1), header, delimiterRow(count)].join('\n')
  }
  return undefined
}

function closeLink(line: string): string {
  const match = OPEN_LINK.exec(line)
  if (!match) return line
  const [whole, bang, label = ''] = match
  // A citation marker still arriving (`[1`) shows once it is whole.
  if (bang || /^\d*$/.test(label)) return line.slice(0, line.length - whole.length)
  return line.slice(0, line.length - whole.length) + label
}

type Delimiter = '`' | '**' | '*' | '__' | '_' | '~~'

const WORD = /[\p{L}\p{N}]/u

function closeInline(line: string, math: boolean): string {
  const stack: Delimiter[] = []
  const unlinked = line.replace(/\]\([^)]*\)/g, (m) => ' '.repeat(m.length))
  const masked = math ? maskInlineMath(unlinked) : unlinked
  let i = 0
  while (i < masked.length) {
    const c = masked[i]!
    if (c === '\\') {
      i += 2
      continue
    }
    if (stack[stack.length - 1] === '`') {
      if (c === '`') stack.pop()
      i += 1
      continue
    }
    if (c === '`') {
      stack.push('`')
      i += 1
      continue
    }
    const delimiter = readDelimiter(masked, i)
    if (!delimiter) {
      i += 1
      continue
    }
    const prev = i > 0 ? masked[i - 1]! : ' '
    // A delimiter at the very end opens what the next token will fill.
    const next = masked[i + delimiter.length] ?? 'x'
    const canOpen = next.trim() !== '' && !(delimiter[0] === '_' && WORD.test(prev))
    const canClose = prev.trim() !== ''
    if (stack[stack.length - 1] === delimiter && canClose) stack.pop()
    else if (canOpen) stack.push(delimiter)
    i += delimiter.length
  }
  if (stack.length === 0) return line
  let body = line.replace(/\s+$/, '')
  const trailing = line.slice(body.length)
  // Half of a closing `~~` already arrived.
  if (stack.includes('~~') && /[^~]~$/.test(body)) body = body.slice(0, -1)
  let closers = ''
  for (let k = stack.length - 1; k >= 0; k--) {
    const delimiter = stack[k]!
    // An opener with nothing after it yet is left out rather than closed on nothing.
    if (body.endsWith(delimiter) && closers === '') {
      body = body.slice(0, -delimiter.length)
      continue
    }
    closers += delimiter
  }
  return body + closers + (closers === '' ? '' : trailing)
}

function readDelimiter(text: string, at: number): Delimiter | undefined {
  const c = text[at]
  if (c === '*' || c === '_') {
    const pair = text[at + 1] === c
    // Runs of three open both (`***x` → strong and em); read the pair first.
    return (pair ? `${c}${c}` : c) as Delimiter
  }
  if (c === '~' && text[at + 1] === '~') return '~~'
  return undefined
}
