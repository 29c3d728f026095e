/**
 * The Vocion events the decoder knows, and the fields it reads from each.
 * Anything else a known event carries is kept on what the event made, as
 * `extra`, so nothing the wire carries is dropped; the same goes for the objects
 * an event carries that each become one thing (a search document, a gate).
 */

/**
 * The fields read per event type. Its keys, with `VOCION_DROPPED_TYPES`, are every
 * event type the decoder knows: one not listed is an `unknown_event` problem.
 *
 * @example
 * VOCION_EVENT_FIELDS.get('tool_end') // Set { 'type', 'tool', 'input', 'output' }
 */
export const VOCION_EVENT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  stream_meta: ['streamId'],
  thinking: [],
  thinking_delta: ['delta'],
  answering: [],
  response_delta: ['delta'],
  tool_start: ['tool', 'input'],
  tool_end: ['tool', 'input', 'output'],
  tool_error: ['tool', 'message', 'status'],
  subagent_start: ['name'],
  subagent_end: ['name'],
  documents: ['documents'],
  retrieval_progress: ['stage', 'meta'],
  skill_result: ['skillResult'],
  recommended_action: ['recommendation'],
  trace_node: ['id', 'parentId', 'actor', 'kind', 'status', 'label', 'labels', 'citations', 'tool', 'detail', 'args', 'result', 'resultDetail', 'confidence', 'delta'],
  hitl_gate: ['gate'],
  done: ['response', 'traceId'],
  error: ['message'],
  run_meta: ['model', 'provider', 'strength', 'thinking'],
  artifact: ['artifact', 'pending'],
  record_created: ['record', 'pending'],
}).map(([type, fields]) => [type, new Set(['type', ...fields])]))

/**
 * Events the decoder knows and drops whole: `usage` is the runtime's token
 * accounting, which the rail says never reaches a browser; the advisory events of
 * newer servers carry nothing the transcript shows.
 *
 * @example
 * VOCION_DROPPED_TYPES.has('usage') // true
 */
export const VOCION_DROPPED_TYPES: ReadonlySet<string> = new Set(['usage', 'step_progress', 'composing', 'memories_mounted'])

/**
 * Every event type the decoder knows.
 *
 * @example
 * VOCION_EVENT_TYPES.has('trace_node') // true
 */
export const VOCION_EVENT_TYPES: ReadonlySet<string> = new Set([...VOCION_EVENT_FIELDS.keys(), ...VOCION_DROPPED_TYPES])

/**
 * The fields read from a search document of a `documents` event.
 *
 * @example
 * SEARCH_DOCUMENT_FIELDS.has('blurb') // true
 */
export const SEARCH_DOCUMENT_FIELDS: ReadonlySet<string> = new Set(['document_id', 'link', 'semantic_identifier', 'blurb', 'citationIndex'])

/**
 * The fields read from the `gate` of a `hitl_gate` event.
 *
 * @example
 * HITL_GATE_FIELDS.has('resumeUrl') // true
 */
export const HITL_GATE_FIELDS: ReadonlySet<string> = new Set(['name', 'question', 'payload', 'resumeUrl'])
