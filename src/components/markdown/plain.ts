/**
 * Markdown as the plain text a reader sees, for "copy as text".
 */
import { Lexer, type Token } from 'marked'

/** The fields of the tokens read here; each token type has its own few. */
type Read = Token & { tokens?: Token[]; text?: unknown; checked?: boolean; items?: Array<{ tokens: Token[] }>; ordered?: boolean; start?: number | ''; header?: Array<{ tokens: Token[] }>; rows?: Array<Array<{ tokens: Token[] }>> }

/** A token's text; `inline` for a token inside a line (a task's box shows there only). */
function plain(token: Read, inline: boolean): string {
  switch (token.type) {
    case 'space':
    case 'def':
    case 'hr':
      return ''
    case 'br':
      return '\n'
    case 'checkbox':
      return inline ? (token.checked ? '[x] ' : '[ ] ') : ''
    case 'code':
      return String(token.text)
    case 'list':
      return token.items!.map((item, i) => (token.ordered ? `${(typeof token.start === 'number' ? token.start : 1) + i}. ` : '• ') + blocks(item.tokens, '\n')).join('\n')
    case 'table':
      return [token.header!, ...token.rows!].map((row) => row.map((cell) => line(cell.tokens)).join('\t')).join('\n')
    case 'blockquote':
      return blocks(token.tokens ?? [], '\n\n')
  }
  return Array.isArray(token.tokens) ? line(token.tokens) : typeof token.text === 'string' ? token.text : ''
}

function line(tokens: readonly Token[]): string {
  return tokens.map((token) => plain(token, true)).join('')
}

function blocks(tokens: readonly Token[], between: string): string {
  return tokens.map((token) => plain(token, false)).filter(Boolean).join(between)
}

/**
 * The text of a markdown answer without its markup: paragraphs apart by a
 * blank line, list items on their own lines, table cells by tabs.
 *
 * @example
 * markdownToText('## Hi\n\n**Bold** and `code`') // 'Hi\n\nBold and code'
 */
export function markdownToText(markdown: string): string {
  return blocks(new Lexer({ gfm: true }).lex(markdown), '\n\n')
}
