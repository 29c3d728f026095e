/**
 * A chat model for the LangGraph test graphs: what it answers is a pure function of the
 * messages it is given (no counter kept between calls), so every run of a graph streams the
 * same chunks whatever ran before it. It streams text word by word, reasoning as `reasoning`
 * content blocks, and tool calls as `tool_call_chunks` whose arguments arrive in pieces.
 */
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import { BaseChatModel, type BaseChatModelParams } from '@langchain/core/language_models/chat_models'
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'

/** One scripted tool call: its arguments are streamed in `argPieces`, which join to JSON. */
export interface ScriptedToolCall {
  id: string
  name: string
  argPieces: string[]
}

/** What the model answers to one call. */
export interface Turn {
  /** Reasoning streamed first, as `{ type: 'reasoning' }` content blocks (makes the content an array). */
  reasoning?: string
  /** The answer, streamed a word at a time. */
  text?: string
  toolCalls?: ScriptedToolCall[]
  /** Pause before each chunk, in milliseconds. */
  delayMs?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Split text into words that keep their trailing space, so the pieces join back exactly. */
export function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}

function chunksOf(turn: Turn): AIMessageChunk[] {
  const chunks: AIMessageChunk[] = []
  const blocks = turn.reasoning !== undefined
  if (turn.reasoning !== undefined) {
    for (const piece of words(turn.reasoning)) {
      chunks.push(new AIMessageChunk({ content: [{ type: 'reasoning', reasoning: piece, index: 0 }] }))
    }
  }
  for (const piece of words(turn.text ?? '')) {
    chunks.push(new AIMessageChunk({ content: blocks ? [{ type: 'text', text: piece, index: 1 }] : piece }))
  }
  turn.toolCalls?.forEach((call, index) => {
    call.argPieces.forEach((args, piece) => {
      chunks.push(new AIMessageChunk({
        content: '',
        tool_call_chunks: [piece === 0
          ? { type: 'tool_call_chunk', id: call.id, name: call.name, args, index }
          : { type: 'tool_call_chunk', args, index }],
      }))
    })
  })
  return chunks
}

export class ScriptedChatModel extends BaseChatModel {
  private readonly script: (messages: BaseMessage[]) => Turn

  constructor(script: (messages: BaseMessage[]) => Turn, fields: BaseChatModelParams = {}) {
    super(fields)
    this.script = script
  }

  _llmType(): string {
    return 'scripted'
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const turn = this.script(messages)
    for (const message of chunksOf(turn)) {
      if (turn.delayMs) await sleep(turn.delayMs)
      const text = typeof message.content === 'string' ? message.content : ''
      const chunk = new ChatGenerationChunk({ message, text })
      yield chunk
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk })
    }
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let whole: ChatGenerationChunk | undefined
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) whole = whole ? whole.concat(chunk) : chunk
    const message = whole ? (whole.message as AIMessageChunk) : new AIMessageChunk({ content: '' })
    return {
      generations: [{
        text: whole?.text ?? '',
        message: new AIMessage({ content: message.content, tool_calls: message.tool_calls ?? [], id: message.id }),
      }],
    }
  }
}

/** The text of a message, whatever form its content takes. */
export function textOf(message: BaseMessage | undefined): string {
  if (!message) return ''
  if (typeof message.content === 'string') return message.content
  return message.content.map((block) => ('text' in block && typeof block.text === 'string' ? block.text : '')).join('')
}
