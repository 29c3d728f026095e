/**
 * LangGraph as a plug-in: the run-stream decoder, detection by the first
 * event, run requests from the active path, rejoining a run by `Last-Event-ID`,
 * and thread history as the history reader.
 */
import type { DetectInput, ProtocolDefinition } from '../../core/index'
import { isRecord } from '../../protocol-kit/index'
import { createLangGraphDecoder } from './decoder'
import { readLangGraphHistory } from './history'
import { langGraphRequest } from './request'
import { langGraphResume } from './resume'

const MODES: ReadonlySet<string> = new Set(['values', 'messages', 'updates', 'custom', 'tasks', 'checkpoints', 'debug', 'events', 'messages/partial', 'messages/complete', 'messages/metadata'])

/**
 * How sure the stream is LangGraph's: its first frame is `event: metadata` with
 * a `run_id`, or the response names a run (`Content-Location: /threads/…/runs/…`),
 * or the frame's event is one of its stream modes.
 *
 * @example
 * sniffLangGraph({ first: { run_id: 'r1', attempt: 1 }, meta: { event: 'metadata' } }) // 1
 */
export function sniffLangGraph({ first, meta, headers }: DetectInput): number {
  if (meta?.event === 'metadata' && isRecord(first) && typeof first.run_id === 'string') return 1
  if (/\/threads\/[^/]+\/runs\//.test(headers?.get('content-location') ?? '')) return 0.9
  const mode = meta?.event?.split('|')[0]
  return mode !== undefined && MODES.has(mode) && (Array.isArray(first) || (isRecord(first) && !('type' in first))) ? 0.6 : 0
}

/**
 * The LangGraph Platform API (`langgraph dev`, LangGraph Platform): its run
 * streams, requests, rejoin and thread history.
 *
 * @example
 * const source = langGraphSource({ apiUrl: 'http://localhost:2024', assistantId: 'agent' })
 * const client = new AgentClient(createAgentStore(), { protocol: langGraphProtocol, protocols: [langGraphProtocol], source })
 */
export const langGraphProtocol: ProtocolDefinition = {
  name: 'langgraph',
  create: createLangGraphDecoder,
  sniff: sniffLangGraph,
  request: langGraphRequest,
  resume: langGraphResume,
  history: readLangGraphHistory,
}
