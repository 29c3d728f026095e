/**
 * Yao hierarchical message stream: the five scenarios of the protocol document,
 * wrapped in the lifecycle `event` messages a real Yao server sends.
 *
 * Every message gets a `chunk_id` (`C1`, `C2`, ...) and `metadata.sequence`
 * in arrival order; IDs restart per stream as they do on a real server.
 */
import type { MockFrame, Scenario } from '../scenario.js'

type Props = Record<string, unknown>

interface YaoMessage {
  type: string
  props?: Props
  message_id?: string
  block_id?: string
  thread_id?: string
  delta?: boolean
  delta_path?: string
  delta_action?: 'append' | 'replace' | 'merge' | 'set'
  type_change?: boolean
}

/** Fixed clock so recorded streams are byte-for-byte reproducible. */
const T0 = Date.UTC(2025, 0, 1, 9, 0, 0)
const TRACE_ID = 'trace_mock_0001'

/** Numbers the messages (`chunk_id`, `metadata`) and turns them into SSE frames. */
function stream(messages: YaoMessage[]): MockFrame[] {
  return messages.map((message, index) => {
    const sequence = index + 1
    return {
      data: {
        chunk_id: `C${sequence}`,
        ...message,
        metadata: { sequence, timestamp: T0 + sequence * 40, trace_id: TRACE_ID },
      },
    }
  })
}

function event(name: string, data: Props, message?: string): YaoMessage {
  return { type: 'event', props: { event: name, ...(message ? { message } : {}), data } }
}

const streamStart = (requestId: string): YaoMessage =>
  event(
    'stream_start',
    {
      request_id: requestId,
      chat_id: 'chat_mock_1',
      trace_id: TRACE_ID,
      assistant: { assistant_id: 'mock.assistant', name: 'Mock Assistant' },
    },
    'Stream started',
  )

const streamEnd = (durationMs: number, usage = { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 }): YaoMessage =>
  event('stream_end', { status: 'completed', duration_ms: durationMs, usage }, 'Stream completed')

const blockStart = (blockId: string, type: string, label: string): YaoMessage =>
  event('block_start', { block_id: blockId, type, label })

const blockEnd = (blockId: string): YaoMessage => event('block_end', { block_id: blockId, status: 'completed' })

const messageStart = (messageId: string, type: string, extra: Props = {}): YaoMessage =>
  event('message_start', { message_id: messageId, type, ...extra })

const messageEnd = (messageId: string, chunkCount: number, content?: unknown, extra: Props = {}): YaoMessage =>
  event('message_end', {
    message_id: messageId,
    status: 'completed',
    chunk_count: chunkCount,
    ...extra,
    ...(content !== undefined ? { extra: { content } } : {}),
  })

/** A streaming text-like chunk (`text`, `thinking`). */
function delta(type: string, ids: Pick<YaoMessage, 'message_id' | 'block_id' | 'thread_id'>, content: string): YaoMessage {
  return { ...ids, type, props: { content }, delta: true }
}

const simpleText: Scenario = {
  protocol: 'yao',
  name: 'simple-text',
  title: 'Simple text message (no streaming, no grouping)',
  frames: stream([
    streamStart('req_simple_text'),
    { type: 'text', props: { content: 'Hello World' } },
    streamEnd(35),
  ]),
}

const streamingText: Scenario = {
  protocol: 'yao',
  name: 'streaming-text',
  title: 'LLM streaming response (one message, delta merged)',
  frames: stream([
    streamStart('req_streaming_text'),
    messageStart('M1', 'text'),
    delta('text', { message_id: 'M1' }, 'Hello'),
    delta('text', { message_id: 'M1' }, ' World'),
    delta('text', { message_id: 'M1' }, '!'),
    messageEnd('M1', 3, 'Hello World!'),
    streamEnd(120),
  ]),
}

const B1 = { block_id: 'B1' }
const toolArgs = ['{"city":', ' "Paris",', ' "unit": "celsius"}']

const oneBlock: Scenario = {
  protocol: 'yao',
  name: 'one-block',
  title: 'Agent-controlled LLM call: thinking, tool call and text in one block',
  frames: stream([
    streamStart('req_one_block'),
    blockStart('B1', 'llm', 'Answering the question'),
    messageStart('M1', 'thinking', B1),
    delta('thinking', { message_id: 'M1', ...B1 }, 'The user asks about the weather, '),
    delta('thinking', { message_id: 'M1', ...B1 }, 'so I should call the weather tool.'),
    messageEnd('M1', 2, 'The user asks about the weather, so I should call the weather tool.'),
    messageStart('M2', 'tool_call', { ...B1, tool_call: { id: 'call_weather_1', name: 'get_weather' } }),
    {
      type: 'tool_call',
      message_id: 'M2',
      ...B1,
      props: { id: 'call_weather_1', name: 'get_weather', arguments: '' },
      delta: true,
      delta_action: 'merge',
    },
    ...toolArgs.map(
      (piece): YaoMessage => ({
        type: 'tool_call',
        message_id: 'M2',
        ...B1,
        props: { arguments: piece },
        delta: true,
        delta_action: 'append',
        delta_path: 'arguments',
      }),
    ),
    messageEnd('M2', 1 + toolArgs.length, { id: 'call_weather_1', name: 'get_weather', arguments: toolArgs.join('') }),
    messageStart('M3', 'text', B1),
    delta('text', { message_id: 'M3', ...B1 }, 'It is sunny in Paris, '),
    delta('text', { message_id: 'M3', ...B1 }, '25°C.'),
    messageEnd('M3', 2, 'It is sunny in Paris, 25°C.'),
    blockEnd('B1'),
    streamEnd(840),
  ]),
}

const sequentialBlocks: Scenario = {
  protocol: 'yao',
  name: 'sequential-blocks',
  title: 'Agent sequential operations: LLM → MCP → LLM in three blocks',
  frames: stream([
    streamStart('req_sequential_blocks'),
    blockStart('B1', 'llm', 'Planning'),
    messageStart('M1', 'text', { block_id: 'B1' }),
    delta('text', { message_id: 'M1', block_id: 'B1' }, 'Let me look up '),
    delta('text', { message_id: 'M1', block_id: 'B1' }, 'the forecast.'),
    messageEnd('M1', 2, 'Let me look up the forecast.'),
    blockEnd('B1'),
    blockStart('B2', 'mcp', 'weather.forecast'),
    messageStart('M2', 'loading', { block_id: 'B2' }),
    { type: 'loading', message_id: 'M2', block_id: 'B2', props: { message: 'Calling weather.forecast…' } },
    messageEnd('M2', 1),
    messageStart('M3', 'text', { block_id: 'B2' }),
    { type: 'text', message_id: 'M3', block_id: 'B2', props: { content: 'Forecast: sunny, high 25°C, low 14°C.' } },
    messageEnd('M3', 1, 'Forecast: sunny, high 25°C, low 14°C.'),
    blockEnd('B2'),
    blockStart('B3', 'llm', 'Answer'),
    messageStart('M4', 'text', { block_id: 'B3' }),
    delta('text', { message_id: 'M4', block_id: 'B3' }, 'Tomorrow will be sunny '),
    delta('text', { message_id: 'M4', block_id: 'B3' }, 'with a high of 25°C.'),
    messageEnd('M4', 2, 'Tomorrow will be sunny with a high of 25°C.'),
    blockEnd('B3'),
    streamEnd(1530),
  ]),
}

const inThread = (message_id: string, thread_id: string) => ({ message_id, block_id: 'B1', thread_id })

const concurrentThreadsMessages: YaoMessage[] = [
  streamStart('req_concurrent_threads'),
  blockStart('B1', 'mixed', 'Morning briefing'),
  messageStart('M1', 'text', { block_id: 'B1', thread_id: 'T1' }),
  messageStart('M2', 'text', { block_id: 'B1', thread_id: 'T2' }),
  messageStart('M3', 'text', { block_id: 'B1', thread_id: 'T3' }),
  delta('text', inThread('M1', 'T1'), 'Weather: Sunny'),
  delta('text', inThread('M2', 'T2'), 'News: markets open higher — tech leads.'),
  delta('text', inThread('M1', 'T1'), ', 25°C'),
  messageEnd('M1', 2, 'Weather: Sunny, 25°C', { thread_id: 'T1' }),
  messageEnd('M2', 1, 'News: markets open higher — tech leads.', { thread_id: 'T2' }),
  delta('text', inThread('M3', 'T3'), 'Summary: a sunny day '),
  delta('text', inThread('M3', 'T3'), 'and a calm market.'),
  messageEnd('M3', 2, 'Summary: a sunny day and a calm market.', { thread_id: 'T3' }),
  blockEnd('B1'),
  streamEnd(960),
]

/** Threads interleave; a keepalive comment arrives mid-stream as it does from a real proxy. */
const concurrentFrames = stream(concurrentThreadsMessages)
concurrentFrames.splice(8, 0, { comment: 'keepalive' })

const concurrentThreads: Scenario = {
  protocol: 'yao',
  name: 'concurrent-threads',
  title: 'Concurrent operations: one block, three threads arriving interleaved',
  frames: concurrentFrames,
}

export const yaoScenarios: Scenario[] = [simpleText, streamingText, oneBlock, sequentialBlocks, concurrentThreads]
