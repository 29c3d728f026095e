/**
 * LangChain messages as LangGraph sends them (in `messages` tuples, `updates`,
 * `values` and thread history): their kind, the text and reasoning of their
 * content, and their tool calls. Pure readers, shared by the stream and history.
 */
import { finiteNumber, idOf, isRecord, nonEmpty, readUsage, stringOf, type ReadUsage, type UsageFields } from '../../protocol-kit/index'

/** The kinds weft reads. */
export type LcKind = 'ai' | 'tool' | 'human' | 'system' | 'remove' | 'other'

/**
 * A message record, unwrapped from LangChain's serialized form
 * (`{ lc: 1, type: 'constructor', id: [..., 'AIMessageChunk'], kwargs }`) when it comes so.
 *
 * @example
 * lcMessage({ type: 'ai', content: 'Hi', id: 'run-1' })?.kind // 'ai'
 */
export function lcMessage(value: unknown): (Record<string, unknown> & { kind: LcKind }) | undefined {
  if (!isRecord(value)) return undefined
  if (value.lc === 1 && value.type === 'constructor' && isRecord(value.kwargs) && Array.isArray(value.id)) {
    return { ...value.kwargs, kind: kindOf(value.id.at(-1)) }
  }
  return { ...value, kind: kindOf(value.type ?? value.role) }
}

function kindOf(type: unknown): LcKind {
  switch (type) {
    case 'ai': case 'AIMessage': case 'AIMessageChunk': case 'assistant': return 'ai'
    case 'tool': case 'ToolMessage': case 'ToolMessageChunk': return 'tool'
    case 'human': case 'HumanMessage': case 'HumanMessageChunk': case 'user': return 'human'
    case 'system': case 'SystemMessage': case 'developer': return 'system'
    case 'remove': case 'RemoveMessage': return 'remove'
    default: return 'other'
  }
}

/**
 * The text and reasoning a content carries: a string is text; a list of blocks
 * gives its `text` blocks as text and its `reasoning` / `thinking` blocks as
 * reasoning. Other blocks (images, tool use) are left to the tool calls.
 *
 * @example
 * contentText([{ type: 'reasoning', reasoning: 'Hmm' }, { type: 'text', text: 'Hi' }]) // { text: 'Hi', reasoning: 'Hmm' }
 */
export function contentText(content: unknown): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' }
  let text = ''
  let reasoning = ''
  if (Array.isArray(content)) {
    for (const block of content) {
      if (typeof block === 'string') text += block
      else if (isRecord(block)) {
        if (block.type === 'text' || block.type === 'text_delta') text += stringOf(block.text) ?? ''
        else if (block.type === 'reasoning') reasoning += stringOf(block.reasoning) ?? stringOf(block.text) ?? ''
        else if (block.type === 'thinking') reasoning += stringOf(block.thinking) ?? ''
      }
    }
  }
  return { text, reasoning }
}

/**
 * A message's reasoning kept outside its content (`additional_kwargs.reasoning_content`, as some providers send it).
 *
 * @example
 * sideReasoning({ additional_kwargs: { reasoning_content: 'Hmm' } }) // 'Hmm'
 */
export function sideReasoning(message: Record<string, unknown>): string {
  const kwargs = isRecord(message.additional_kwargs) ? message.additional_kwargs : undefined
  return stringOf(kwargs?.reasoning_content) ?? ''
}

/**
 * One streamed piece of a tool call (`tool_call_chunks`).
 *
 * @example
 * const piece: CallPiece = { key: '#0', id: 'call_1', name: 'search', args: '{"q' }
 */
export interface CallPiece {
  /** Which call of the message it belongs to: its index, else its id. */
  key: string
  id?: string
  name?: string
  args: string
}

/**
 * The tool-call pieces of a chunk.
 *
 * @example
 * callPieces({ tool_call_chunks: [{ id: 'c1', name: 'search', args: '{', index: 0 }] }) // [{ key: '#0', id: 'c1', name: 'search', args: '{' }]
 */
export function callPieces(message: Record<string, unknown>): CallPiece[] {
  const list = Array.isArray(message.tool_call_chunks) ? message.tool_call_chunks : []
  const out: CallPiece[] = []
  for (const item of list) {
    if (!isRecord(item)) continue
    const index = finiteNumber(item.index)
    const id = idOf(item.id)
    const key = index !== undefined ? `#${index}` : id
    if (key === undefined) continue
    out.push({ key, ...(id ? { id } : {}), ...(nonEmpty(item.name) ? { name: item.name as string } : {}), args: stringOf(item.args) ?? '' })
  }
  return out
}

/**
 * A whole tool call (`tool_calls`, with parsed `args`).
 *
 * @example
 * const call: WholeCall = { id: 'call_1', name: 'search', args: { q: 'x' } }
 */
export interface WholeCall {
  id: string
  name: string
  args: unknown
}

/**
 * The whole tool calls of a message.
 *
 * @example
 * wholeCalls({ tool_calls: [{ id: 'c1', name: 'search', args: { q: 'x' } }] }) // [{ id: 'c1', name: 'search', args: { q: 'x' } }]
 */
export function wholeCalls(message: Record<string, unknown>): WholeCall[] {
  const list = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const out: WholeCall[] = []
  for (const item of list) {
    if (!isRecord(item)) continue
    const id = idOf(item.id)
    if (!id) continue
    out.push({ id, name: nonEmpty(item.name) ?? 'tool', args: item.args ?? {} })
  }
  return out
}

/**
 * What a tool message says about its call: the props weft's tool message takes.
 *
 * @example
 * toolResultProps({ tool_call_id: 'c1', content: 'sunny' }) // { state: 'output-available', output: 'sunny' }
 */
export function toolResultProps(message: Record<string, unknown>): { state: 'output-available' | 'output-error'; output?: unknown; errorText?: string } {
  const { text } = contentText(message.content)
  const output = typeof message.content === 'string' || !Array.isArray(message.content) ? message.content : text
  if (message.status === 'error') return { state: 'output-error', errorText: text || 'the tool failed' }
  return { state: 'output-available', output: output ?? '' }
}

/**
 * Where LangChain's `usage_metadata` keeps each count.
 *
 * @example
 * readUsage({ input_tokens: 10, output_tokens: 5 }, LC_USAGE_FIELDS).usage?.inputTokens // 10
 */
export const LC_USAGE_FIELDS: UsageFields = {
  inputTokens: 'input_tokens', outputTokens: 'output_tokens', totalTokens: 'total_tokens',
  reasoningTokens: 'output_token_details.reasoning', cachedInputTokens: 'input_token_details.cache_read',
}

/**
 * The usage a message or chunk reports (`usage_metadata`), in weft's names, with
 * the model its `response_metadata` names; undefined when it reports none.
 *
 * @example
 * usageOf({ usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } })?.usage
 * // { inputTokens: 10, outputTokens: 5, totalTokens: 15, raw: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }
 */
export function usageOf(message: Record<string, unknown>): ReadUsage | undefined {
  if (message.usage_metadata === undefined || message.usage_metadata === null) return undefined
  const read = readUsage(message.usage_metadata, LC_USAGE_FIELDS)
  const meta = isRecord(message.response_metadata) ? message.response_metadata : undefined
  const model = nonEmpty(meta?.model_name) ?? nonEmpty(meta?.model)
  if (read.usage && model) read.usage.model = model
  return read
}
