/**
 * Markdown as words to read aloud: the plain text a reader sees, without what
 * a voice should not read out.
 */
import { Lexer, type Token } from 'marked'
import { markdownToText } from './plain'

/** Citation markers (`[1]`, `[2, 3]`) left in the text: a voice reading "bracket one" helps no one. */
const CITATION = /\s?\[\d+(?:\s*[,–-]\s*\d+)*\]/g

/** Top-level tokens a voice skips: code blocks (read symbol by symbol they are noise) and rules. */
function spoken(token: Token): boolean {
  return token.type !== 'code' && token.type !== 'hr'
}

/**
 * The text of a markdown answer to read aloud: as "copy as text" gives it
 * (`markdownToText`: no markup, list items and paragraphs on their own
 * lines), without its code blocks and citation markers. Inline code is read
 * as its text.
 *
 * @example
 * speakableText('Run it:\n\n```sh\nnpm test\n```\n\nIt passes [1].') // 'Run it:\n\nIt passes.'
 */
export function speakableText(markdown: string): string {
  const kept = new Lexer({ gfm: true }).lex(markdown).filter(spoken).map((token) => token.raw).join('')
  return markdownToText(kept).replace(CITATION, '').trim()
}
