/**
 * The fields weft reads from each chunk type of the UI message stream (the AI SDK's
 * `uiMessageChunkSchema` of ai 6 and 7, plus the protocol document's additions).
 * Anything else a known chunk carries is kept on what the chunk made, as `extra`,
 * so nothing the wire carries is dropped.
 */
import { extrasOf } from '../../protocol-kit/index'

const TEXT = ['type', 'id', 'delta', 'providerMetadata']
const TOOL_CALL = ['type', 'toolCallId', 'toolName', 'input', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic', 'title']
const TOOL_RESULT = ['type', 'toolCallId', 'providerExecuted', 'providerMetadata', 'toolMetadata', 'dynamic']

const READ: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  'text-start': TEXT,
  'text-delta': TEXT,
  'text-end': [...TEXT, 'citations'],
  'reasoning-start': TEXT,
  'reasoning-delta': TEXT,
  'reasoning-end': TEXT,
  'tool-input-start': [...TOOL_CALL, 'inputEncoding'],
  'tool-input-delta': ['type', 'toolCallId', 'inputTextDelta'],
  'tool-input-available': TOOL_CALL,
  'tool-input-error': [...TOOL_CALL, 'errorText'],
  'tool-output-available': [...TOOL_RESULT, 'output', 'preliminary'],
  'tool-output-error': [...TOOL_RESULT, 'errorText'],
  'tool-output-denied': ['type', 'toolCallId'],
  'tool-approval-request': ['type', 'approvalId', 'toolCallId', 'reason', 'approvalDescriptor', 'inputSchemaInput', 'isAutomatic', 'signature'],
  'tool-approval-response': ['type', 'approvalId', 'approved', 'reason'],
  'source-url': ['type', 'sourceId', 'url', 'title', 'providerMetadata'],
  'source-document': ['type', 'sourceId', 'mediaType', 'title', 'filename', 'description', 'providerMetadata'],
  file: ['type', 'url', 'mediaType', 'filename', 'providerMetadata'],
  'reasoning-file': ['type', 'url', 'mediaType', 'providerMetadata'],
  custom: ['type', 'kind', 'providerMetadata'],
  interrupt: ['type', 'messageId', 'interrupt', 'payload'],
}).map(([type, fields]) => [type, new Set(fields)]))

const DATA: ReadonlySet<string> = new Set(['type', 'id', 'data', 'transient'])

/**
 * What a chunk carries beyond the fields weft reads for its type, or `undefined`.
 *
 * @example
 * chunkExtras({ type: 'text-end', id: 'a', confidence: 0.9 }) // { confidence: 0.9 }
 */
export function chunkExtras(chunk: Record<string, unknown> & { type: string }): Record<string, unknown> | undefined {
  const read = READ.get(chunk.type) ?? (chunk.type.startsWith('data-') ? DATA : undefined)
  return read ? extrasOf(chunk, read) : undefined
}
