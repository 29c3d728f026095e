/**
 * Search and skills: `documents` become sources, `retrieval_progress` one
 * timeline row per retrieval, `skill_result` a finished `skill` row.
 */
import type { Op } from '../../core/index'
import { defined, extrasOf, finiteNumber, idOf, isRecord } from '../../protocol-kit/index'
import { SEARCH_DOCUMENT_FIELDS } from './event-fields'
import type { VocionEvent, VocionStream } from './stream-state'

/** How each retrieval stage reads on its timeline row. */
// A Map: a stage named `constructor` or `toString` must not find Object.prototype's.
const RETRIEVAL_LABELS: ReadonlyMap<string, (meta: Record<string, unknown>) => string> = new Map<string, (meta: Record<string, unknown>) => string>([
  ['started', () => 'Searching…'],
  ['candidates', (m) => withCount('Searching…', sum(m.vector, m.keyword), 'candidate')],
  ['fused', (m) => withCount('Searching…', finiteNumber(m.kept), 'result', 'kept')],
  ['reranking', (m) => withCount('Ranking', finiteNumber(m.candidates), 'candidate')],
  ['complete', (m) => withCount('Searched', finiteNumber(m.hits), 'hit')],
])

/**
 * The search and skill handlers of one stream.
 *
 * @example
 * const search = createSearch(stream)
 * search.retrievalProgress({ type: 'retrieval_progress', stage: 'started' })
 */
export interface Search {
  /** Each document is a source; what it carries beyond weft's fields is the source's `extra`. */
  documents(event: VocionEvent): Op[]
  /** These keep `extra` (the event's fields weft does not read) on their row. */
  retrievalProgress(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  skillResult(event: VocionEvent, extra?: Record<string, unknown>): Op[]
}

/**
 * Make the search and skill handlers for one stream.
 *
 * @example
 * const search = createSearch(createVocionStream({ turnId: 't1', scope: 't1' }))
 */
export function createSearch(stream: VocionStream): Search {
  const { turnId } = stream
  let retrievalId: string | undefined

  function documents(event: VocionEvent): Op[] {
    if (!Array.isArray(event.documents)) return [stream.problem('documents without a documents list', event, 'invalid')]
    const ops: Op[] = []
    for (const doc of event.documents) {
      const id = isRecord(doc) ? idOf(doc.document_id) : undefined
      if (!isRecord(doc) || !id) {
        ops.push(stream.problem('a search document has no document_id', doc, 'invalid'))
        continue
      }
      ops.push({
        op: 'source.add', turnId,
        source: {
          id, kind: 'document',
          ...defined({
            url: idOf(doc.link), title: idOf(doc.semantic_identifier), snippet: idOf(doc.blurb),
            citationIndex: typeof doc.citationIndex === 'number' ? doc.citationIndex : undefined,
            // `source_type`, `foundBy` and a server's own fields.
            extra: extrasOf(doc, SEARCH_DOCUMENT_FIELDS),
          }),
        },
      })
    }
    return ops
  }

  function retrievalProgress(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const stage = idOf(event.stage) ?? 'started'
    const meta = isRecord(event.meta) ? event.meta : {}
    // One row per retrieval: `started` (or any stage with none open) opens it, `complete` closes it.
    if (!retrievalId || stage === 'started') retrievalId = stream.fresh('retrieval')
    const id = retrievalId
    const complete = stage === 'complete'
    if (complete) retrievalId = undefined
    const label = (RETRIEVAL_LABELS.get(stage) ?? (() => `Searching… (${stage})`))(meta)
    return [{ op: 'trace.node', turnId, node: { id, kind: 'search', label, status: complete ? 'done' : 'progress', detail: meta, ...(extra ? { extra } : {}) } }]
  }

  function skillResult(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const skill = isRecord(event.skillResult) ? event.skillResult : undefined
    if (!skill) return [stream.problem('skill_result without a skillResult', event, 'invalid')]
    const runId = idOf(skill.runId)
    const id = runId ? stream.scoped(`skill-run-${runId}`) : stream.fresh('skill')
    const name = idOf(skill.skillName) ?? idOf(skill.skillSlug) ?? 'Skill'
    return [{
      op: 'trace.node', turnId,
      node: { id, kind: 'skill', label: name, tool: idOf(skill.skillSlug), status: 'done', result: skill.content, detail: skill, ...(extra ? { extra } : {}) },
    }]
  }

  return { documents, retrievalProgress, skillResult }
}

function sum(...values: unknown[]): number | undefined {
  const numbers = values.map(finiteNumber).filter((n): n is number => n !== undefined)
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) : undefined
}

function withCount(base: string, count: number | undefined, noun: string, verb?: string): string {
  if (count === undefined) return base
  const phrase = `${count} ${noun}${count === 1 ? '' : 's'}`
  return `${base} · ${verb ? `${verb} ${phrase}` : phrase}`
}
