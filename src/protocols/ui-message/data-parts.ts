/**
 * `data-<name>` parts, sources, files and `interrupt`. Three data parts of the
 * protocol document have a place of their own in the model: `data-thinking-step`
 * is a timeline row, `data-further-questions` the turn's suggestions and
 * `data-terminal-info` a notice. Any other data part is a `data-<name>` message.
 */
import type { Op, TraceStatus } from '../../core/index'
import { defined, idOf, recordOf, stringOf } from '../../protocol-kit/index'
import { chunkExtras } from './chunk-fields'
import type { StreamContext } from './stream-context'

type Chunk = Record<string, unknown>
type TypedChunk = Chunk & { type: string }

const STEP_STATUS: ReadonlyMap<string, TraceStatus> = new Map([
  ['pending', 'start'], ['in_progress', 'progress'], ['completed', 'done'], ['error', 'error'], ['failed', 'error'],
])

const NOTICE_LEVELS: ReadonlySet<string> = new Set(['info', 'error', 'success', 'warning'])

/**
 * Data parts, sources, files and interrupts of one stream.
 *
 * @example
 * const parts = createDataParts(stream)
 * parts.data('data-weather', { type: 'data-weather', id: 'w1', data: { temp: 21 } })
 */
export interface DataParts {
  data(type: string, chunk: Chunk): Op[]
  sourceUrl(chunk: Chunk): Op[]
  sourceDocument(chunk: Chunk): Op[]
  /** A `file` part, or ai 7's `reasoning-file` (a file the model made while reasoning). */
  file(type: 'file' | 'reasoning-file', chunk: Chunk): Op[]
  /** ai 7's `custom` part: provider-specific content, kept as a `custom` message. */
  custom(chunk: Chunk): Op[]
  interrupt(chunk: Chunk): Op[]
  /** Forget which thinking steps a reset step introduced. */
  forgetStep(blockId: string): void
}

/**
 * Make the data part handling for one stream.
 *
 * @example
 * const parts = createDataParts(createStreamContext({ turnId: 't1', scope: 't1' }))
 */
export function createDataParts(stream: StreamContext): DataParts {
  const { turnId } = stream
  /** Thinking steps seen so far, and the step each first appeared in (its parent row). */
  const thinkingSteps = new Map<string, string | undefined>()

  function data(type: string, chunk: Chunk): Op[] {
    const id = idOf(chunk.id)
    if (chunk.transient === true) return deliver(type, id, chunk)
    switch (type) {
      case 'data-thinking-step':
        return thinkingStep(chunk, id)
      case 'data-further-questions':
        return furtherQuestions(chunk)
      case 'data-terminal-info':
        return terminalInfo(chunk, id)
    }
    return kept(type, id, chunk)
  }

  /**
   * A data part as the AI SDK keeps it: a `data-<name>` message. With an id, a later part
   * of the same type and id replaces this one in place. A part without `data` is valid
   * for the AI SDK (its `data` is `unknown`), so it shows too. The three parts with a
   * place of their own come here when their payload lacks what that place needs: the
   * AI SDK keeps them as parts, so they are kept, after a problem that says what is missing.
   */
  function kept(type: string, id: string | undefined, chunk: Chunk): Op[] {
    const messageId = id ? stream.scoped(type, id) : stream.fresh(type)
    const extra = chunkExtras({ ...chunk, type })
    return [{ op: 'message.put', ...stream.place(messageId, type), props: defined({ data: chunk.data, id, extra }), status: 'done' }]
  }

  function deliver(type: string, id: string | undefined, chunk: Chunk): Op[] {
    try {
      stream.onData?.(defined({ type, id, data: chunk.data }) as { type: string; data: unknown })
      return []
    } catch (thrown) {
      return [stream.problem(`the host's onData failed on ${type}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, undefined, 'invalid')]
    }
  }

  function thinkingStep(chunk: Chunk, chunkId: string | undefined): Op[] {
    const step = recordOf(chunk.data)
    if (!step) return [stream.problem('data-thinking-step whose data is not an object; kept as a data part', chunk, 'invalid'), ...kept('data-thinking-step', chunkId, chunk)]
    const ops: Op[] = []
    // The AI SDK's writer puts a data part's id on the chunk; the protocol document puts it in `data`.
    const wireId = chunkId ?? idOf(step.id)
    if (!wireId) ops.push(stream.problem('data-thinking-step without an id (on the chunk or in data); it cannot be updated later', chunk, 'missing_id'))
    const id = wireId ? stream.scoped('thinking', wireId) : stream.fresh('thinking')
    const rawStatus = stringOf(step.status)
    const status = rawStatus === undefined ? undefined : STEP_STATUS.get(rawStatus)
    if (rawStatus !== undefined && !status) ops.push(stream.problem(`data-thinking-step with an unknown status "${rawStatus}"`, chunk, 'invalid'))
    const seen = thinkingSteps.has(id)
    if (!seen) thinkingSteps.set(id, stream.step?.blockId)
    ops.push({
      op: 'trace.node', turnId,
      node: {
        id,
        ...defined({ label: stringOf(step.title), status, detail: step.items, parentId: seen ? undefined : stream.step?.blockId }),
        ...(seen ? {} : { kind: 'thinking' }),
      },
    })
    return ops
  }

  function furtherQuestions(chunk: Chunk): Op[] {
    const questions = Array.isArray(chunk.data) ? chunk.data : recordOf(chunk.data)?.questions
    if (!Array.isArray(questions)) {
      return [stream.problem('data-further-questions without a questions list; kept as a data part', chunk, 'invalid'), ...kept('data-further-questions', idOf(chunk.id), chunk)]
    }
    return [{ op: 'turn.update', turnId, suggestions: questions.filter((q): q is string => typeof q === 'string') }]
  }

  function terminalInfo(chunk: Chunk, id: string | undefined): Op[] {
    const info = recordOf(chunk.data)
    const text = stringOf(info?.text)
    if (text === undefined) return [stream.problem('data-terminal-info without data.text; kept as a data part', chunk, 'invalid'), ...kept('data-terminal-info', id, chunk)]
    const ops: Op[] = []
    const rawLevel = stringOf(info?.type)
    const level = rawLevel !== undefined && NOTICE_LEVELS.has(rawLevel) ? rawLevel : 'info'
    if (rawLevel !== undefined && level !== rawLevel) ops.push(stream.problem(`data-terminal-info with an unknown type "${rawLevel}"; shown as info`, chunk, 'invalid'))
    const messageId = id ? stream.scoped('data-terminal-info', id) : stream.fresh('notice')
    ops.push({ op: 'message.put', ...stream.place(messageId, 'notice'), props: defined({ text, level, extra: chunkExtras({ ...chunk, type: 'data-terminal-info' }) }), status: 'done' })
    return ops
  }

  function sourceUrl(chunk: Chunk): Op[] {
    const url = stringOf(chunk.url)
    if (!url) return [stream.problem('source-url without a url', chunk, 'invalid')]
    const ops: Op[] = []
    const sourceId = idOf(chunk.sourceId)
    if (!sourceId) ops.push(stream.problem('source-url without a sourceId; its url stands in', chunk, 'missing_id'))
    const kept = defined({ providerMetadata: chunk.providerMetadata ?? undefined, extra: chunkExtras(chunk as TypedChunk) })
    ops.push({ op: 'source.add', turnId, source: { id: sourceId ?? url, kind: 'url', url, ...defined({ title: stringOf(chunk.title) }), ...kept } })
    return ops
  }

  function sourceDocument(chunk: Chunk): Op[] {
    const title = stringOf(chunk.title)
    const filename = stringOf(chunk.filename)
    const ops: Op[] = []
    let sourceId = idOf(chunk.sourceId)
    if (!sourceId) {
      const standIn = filename ?? title
      if (!standIn) return [stream.problem('source-document without a sourceId, title or filename', chunk, 'missing_id')]
      ops.push(stream.problem('source-document without a sourceId; its name stands in', chunk, 'missing_id'))
      sourceId = standIn
    }
    ops.push({
      op: 'source.add', turnId,
      source: {
        id: sourceId, kind: 'document',
        ...defined({
          title, filename, mediaType: stringOf(chunk.mediaType), snippet: stringOf(chunk.description),
          providerMetadata: chunk.providerMetadata ?? undefined, extra: chunkExtras(chunk as TypedChunk),
        }),
      },
    })
    return ops
  }

  function file(type: 'file' | 'reasoning-file', chunk: Chunk): Op[] {
    const url = stringOf(chunk.url)
    if (!url) return [stream.problem(`${type} without a url`, chunk, 'invalid')]
    const ops: Op[] = []
    const mediaType = stringOf(chunk.mediaType)
    if (!mediaType) ops.push(stream.problem(`${type} without a mediaType`, chunk, 'invalid'))
    const props = defined({
      url, mediaType, filename: stringOf(chunk.filename), providerMetadata: chunk.providerMetadata ?? undefined,
      extra: chunkExtras({ ...chunk, type }),
    })
    ops.push({ op: 'message.put', ...stream.place(stream.fresh(type), type), props, status: 'done' })
    return ops
  }

  function custom(chunk: Chunk): Op[] {
    const kind = stringOf(chunk.kind)
    if (!kind) return [stream.problem('custom without a kind', chunk, 'invalid')]
    const props = defined({ kind, providerMetadata: chunk.providerMetadata ?? undefined, extra: chunkExtras({ ...chunk, type: 'custom' }) })
    return [{ op: 'message.put', ...stream.place(stream.fresh('custom'), 'custom'), props, status: 'done' }]
  }

  function interrupt(chunk: Chunk): Op[] {
    const request = recordOf(chunk.interrupt)
    if (!request) return [stream.problem('interrupt without an interrupt object', chunk, 'invalid')]
    return [{
      op: 'gate.open',
      gate: {
        id: stream.fresh('interrupt'), turnId, kind: 'interrupt', question: questionOf(request),
        payload: defined({ interrupt: request, payload: chunk.payload, extra: chunkExtras({ ...chunk, type: 'interrupt' }) }),
      },
    }]
  }

  return {
    data, sourceUrl, sourceDocument, file, custom, interrupt,
    forgetStep(blockId) {
      for (const [id, parent] of thinkingSteps) if (parent === blockId) thinkingSteps.delete(id)
    },
  }
}

/** The question an interrupt asks: its first action request's description, or a plain default. */
function questionOf(request: Record<string, unknown>): string {
  const first = Array.isArray(request.action_requests) ? recordOf(request.action_requests[0]) : undefined
  const description = stringOf(first?.description)
  if (description) return description
  const name = stringOf(first?.name) ?? stringOf(first?.action)
  return name ? `Review ${name}` : 'The agent is waiting for your review'
}
