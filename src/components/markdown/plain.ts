/**
 * Markdown as the plain text a reader sees, for "copy as text".
 */
import { Lexer, type Token } from 'marked'

function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return ''
  return tokens.map((token) => {
    if (token.type === 'br') return '\n'
    if (token.type === 'checkbox') return (token as { checked?: boolean }).checked ? '[x] ' : '[ ] '
    if ('tokens' in token && Array.isArray(token.tokens)) return inline(token.tokens)
    return 'text' in token && typeof token.text === 'string' ? token.text : ''
  }).join('')
}

function block(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'def':
    case 'hr':
      return ''
    case 'code':
      return (token as { text: string }).text
    case 'list':
      return (token as { items: Array<{ tokens: Token[] }>; ordered: boolean; start?: number | '' }).items
        .map((item, i) => {
          const list = token as { ordered: boolean; start?: number | '' }
          const mark = list.ordered ? `${(typeof list.start === 'number' ? list.start : 1) + i}. ` : '• '
          return mark + item.tokens.map(block).filter(Boolean).join('\n')
        })
        .join('\n')
    case 'table': {
      const table = token as { header: Array<{ tokens: Token[] }>; rows: Array<Array<{ tokens: Token[] }>> }
      return [table.header, ...table.rows].map((row) => row.map((cell) => inline(cell.tokens)).join('\t')).join('\n')
    }
    case 'blockquote':
      return ((token as { tokens: Token[] }).tokens ?? []).map(block).filter(Boolean).join('\n\n')
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : 'text' in token && typeof token.text === 'string' ? token.text : ''
  }
}

/**
 * The text of a markdown answer without its markup: paragraphs apart by a
 * blank line, list items on their own lines, table cells by tabs.
 *
 * @example
 * markdownToText('## Hi\n\n**Bold** and `code`') // 'Hi\n\nBold and code'
 */
export function markdownToText(markdown: string): string {
  return new Lexer({ gfm: true }).lex(markdown).map(block).filter((text) => text !== '').join('\n\n')
}
