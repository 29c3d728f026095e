/**
 * AI SDK style UI message stream: the three complete examples of the protocol
 * document (plain answer, tool call, reasoning), and one stream that shows the
 * rest: streamed tool input for two parallel calls, an approval, sources, a file,
 * data parts replaced in place, a transient data part and `<think>` tags cut
 * across deltas. Every stream ends with `data: [DONE]`, as the document's server does.
 */
import type { MockFrame, Scenario } from '../scenario.js'

type Chunk = Record<string, unknown> & { type: string }

/** The marker header an AI SDK server sets on a UI message stream. */
const HEADERS = { 'x-vercel-ai-ui-message-stream': 'v1' }

function stream(chunks: Chunk[]): MockFrame[] {
  return [...chunks.map((data): MockFrame => ({ data })), { data: '[DONE]' }]
}

const thinking = (id: string, title: string, status: string, items: string[]): Chunk =>
  ({ type: 'data-thinking-step', data: { id, title, status, items } })

const text = (id: string, ...deltas: string[]): Chunk[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): Chunk => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
]

/** The document's "plain answer" example. */
const plainChunks: Chunk[] = [
  { type: 'start', messageId: 'msg_abc123' },
  { type: 'start-step' },
  thinking('thinking-1', '正在理解您的请求', 'in_progress', ['Processing: 什么是向量数据库？']),
  thinking('thinking-1', '正在理解您的请求', 'completed', ['Processing: 什么是向量数据库？']),
  ...text('text_xyz789', '向量数据库是', '一种专为存储和检索', '高维向量而设计的数据库...'),
  { type: 'finish-step' },
  { type: 'finish' },
]

/** The document's "with a tool call" example. */
const toolChunks: Chunk[] = [
  { type: 'start', messageId: 'msg_abc123' },
  { type: 'start-step' },
  thinking('thinking-1', '正在理解您的请求', 'in_progress', ['Processing: 搜索最新 AI 论文']),
  thinking('thinking-1', '正在理解您的请求', 'completed', ['Processing: 搜索最新 AI 论文']),
  thinking('thinking-2', '查询个人知识库中', 'in_progress', ['Query: 最新 AI 论文']),
  { type: 'tool-input-start', toolCallId: 'call_xxx', toolName: 'search_knowledge_base' },
  { type: 'tool-input-available', toolCallId: 'call_xxx', toolName: 'search_knowledge_base', input: { query: '最新 AI 论文' } },
  thinking('thinking-2', 'Searching knowledge base', 'completed', ['Query: 最新 AI 论文', 'Found relevant information (2048 chars)']),
  { type: 'tool-output-available', toolCallId: 'call_xxx', output: { status: 'completed', result_length: 2048 } },
  { type: 'data-terminal-info', data: { text: '知识库搜索已完成', type: 'success' } },
  ...text('text_xyz789', '根据知识库中的内容...'),
  { type: 'finish-step' },
  { type: 'finish' },
]

/** The document's "with reasoning" example. */
const reasoningChunks: Chunk[] = [
  { type: 'start', messageId: 'msg_abc123' },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'reasoning_r01' },
  { type: 'reasoning-delta', id: 'reasoning_r01', delta: '让我先分析这个问题...' },
  { type: 'reasoning-delta', id: 'reasoning_r01', delta: '需要考虑以下几个方面...' },
  { type: 'reasoning-end', id: 'reasoning_r01' },
  ...text('text_xyz789', '综合分析后，结论是...'),
  { type: 'finish-step' },
  { type: 'finish' },
]

const weatherInput = (city: string) => ({ city, unit: 'celsius' })

/** Two steps: parallel weather calls, then an e-mail that needs approval and the answer. */
const fullChunks: Chunk[] = [
  { type: 'start', messageId: 'msg_full_1', messageMetadata: { model: 'mock-large' } },
  { type: 'start-step' },
  // A model that writes its reasoning inline, tags cut across deltas.
  ...text('txt_0', '<thi', 'nk>The user wants the weather in two cities, ', 'so two calls.</th', 'ink>\n\nLet me check both cities.'),
  thinking('thinking-1', 'Checking the weather', 'in_progress', ['San Francisco', 'Tokyo']),
  { type: 'tool-input-start', toolCallId: 'call_sf', toolName: 'get_weather' },
  { type: 'tool-input-start', toolCallId: 'call_tk', toolName: 'get_weather' },
  { type: 'tool-input-delta', toolCallId: 'call_sf', inputTextDelta: '{"city":"San Fra' },
  { type: 'tool-input-delta', toolCallId: 'call_tk', inputTextDelta: '{"city":' },
  { type: 'tool-input-delta', toolCallId: 'call_sf', inputTextDelta: 'ncisco","unit":"cel' },
  { type: 'tool-input-delta', toolCallId: 'call_tk', inputTextDelta: '"Tokyo","unit":"celsius"}' },
  { type: 'tool-input-delta', toolCallId: 'call_sf', inputTextDelta: 'sius"}' },
  { type: 'tool-input-available', toolCallId: 'call_sf', toolName: 'get_weather', input: weatherInput('San Francisco') },
  { type: 'tool-input-available', toolCallId: 'call_tk', toolName: 'get_weather', input: weatherInput('Tokyo') },
  { type: 'data-weather', id: 'forecast', data: { status: 'loading', cities: [] } },
  { type: 'tool-output-available', toolCallId: 'call_sf', output: { status: 'fetching' }, preliminary: true },
  { type: 'tool-output-available', toolCallId: 'call_sf', output: { temperature: 17, conditions: 'fog' } },
  { type: 'tool-output-available', toolCallId: 'call_tk', output: { temperature: 24, conditions: 'clear' } },
  { type: 'data-weather', id: 'forecast', data: { status: 'ready', cities: ['San Francisco', 'Tokyo'] } },
  { type: 'data-progress', data: { percent: 50 }, transient: true },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'tool-input-start', toolCallId: 'call_mail', toolName: 'send_email' },
  { type: 'tool-input-delta', toolCallId: 'call_mail', inputTextDelta: '{"to":"ana@example.com","subject":"Wea' },
  { type: 'tool-input-delta', toolCallId: 'call_mail', inputTextDelta: 'ther","body":"SF 17\\u00b0C, Tokyo 24\\u00b0C"}' },
  {
    type: 'tool-input-available', toolCallId: 'call_mail', toolName: 'send_email',
    input: { to: 'ana@example.com', subject: 'Weather', body: 'SF 17°C, Tokyo 24°C' },
  },
  { type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_mail' },
  { type: 'tool-approval-response', approvalId: 'approval_1', approved: true },
  { type: 'tool-output-available', toolCallId: 'call_mail', output: { sent: true } },
  { type: 'source-url', sourceId: 'src_1', url: 'https://weather.example.com/sf', title: 'San Francisco forecast' },
  { type: 'source-document', sourceId: 'doc_1', mediaType: 'application/pdf', title: 'Climate report.pdf', filename: 'climate.pdf' },
  { type: 'file', url: 'https://weather.example.com/map.png', mediaType: 'image/png' },
  ...text('txt_1', 'San Francisco is 17°C and foggy [1]; ', 'Tokyo is 24°C and clear. ', 'I sent the summary to Ana.'),
  thinking('thinking-1', 'Checked the weather', 'completed', ['San Francisco', 'Tokyo']),
  { type: 'data-terminal-info', data: { text: 'E-mail sent', type: 'success' } },
  { type: 'data-further-questions', data: { questions: ['What about tomorrow?', 'Compare with last week'] } },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'stop', messageMetadata: { totalTokens: 321 } },
]

/**
 * The UI message stream scenarios, as plain chunk objects (also used by tests).
 *
 * @example
 * uiMessageChunks.plain[0] // { type: 'start', messageId: 'msg_abc123' }
 */
export const uiMessageChunks = { plain: plainChunks, tools: toolChunks, reasoning: reasoningChunks, full: fullChunks }

/**
 * The UI message stream scenarios the mock server streams (`/mock/stream/ui-message/<name>`).
 *
 * @example
 * uiMessageScenarios.map((s) => s.name) // ['plain', 'tools', 'reasoning', 'full']
 */
export const uiMessageScenarios: Scenario[] = [
  { protocol: 'ui-message', name: 'plain', title: 'Plain answer (the document’s first example)', headers: HEADERS, frames: stream(plainChunks) },
  { protocol: 'ui-message', name: 'tools', title: 'Knowledge base tool call (the document’s second example)', headers: HEADERS, frames: stream(toolChunks) },
  { protocol: 'ui-message', name: 'reasoning', title: 'Reasoning, then the answer (the document’s third example)', headers: HEADERS, frames: stream(reasoningChunks) },
  {
    protocol: 'ui-message', name: 'full',
    title: 'Parallel tools with streamed input, an approval, sources, data parts and <think> tags',
    headers: HEADERS, frames: stream(fullChunks),
  },
]
