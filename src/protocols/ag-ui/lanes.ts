/**
 * Steps and sub-agent runs: a step is a block and a timeline row in its lane;
 * a sub-agent run is a thread and a `delegate` row, and a lane of its own.
 */
import type { Op } from '../../core/index'
import { isRecord, nonEmpty } from '../../protocol-kit/index'
import type { Chunks } from './chunks'
import type { AgUiEvent, AgUiStream } from './stream-state'

/**
 * The step and sub-agent handlers of one stream.
 *
 * @example
 * const lanes = createLanes(stream, chunks)
 * lanes.stepStarted({ type: 'STEP_STARTED', stepName: 'plan' })
 */
export interface Lanes {
  /** Each handler keeps `extra` (the event's fields weft does not read) on the row: the step's, or the sub-agent's `delegate` row. */
  stepStarted(e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  stepFinished(e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  subagentStarted(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  subagentFinished(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  subagentError(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
}

/** `extra` as the field of a row, or nothing. */
const kept = (extra: Record<string, unknown> | undefined) => (extra ? { extra } : {})

/**
 * Make the step and sub-agent handlers for one stream.
 *
 * @example
 * const lanes = createLanes(stream, createChunks(stream, texts, calls))
 */
export function createLanes(stream: AgUiStream, chunks: Chunks): Lanes {
  const { turnId } = stream

  function stepStarted(e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const lane = stream.laneOf(e)
    const name = nonEmpty(e.stepName)
    const blockId = stream.fresh('step')
    const parentId = stream.traceParent(lane)
    stream.stepsOf(lane).push({ name: name ?? 'step', blockId })
    return [
      ...(name ? [] : [stream.problem('STEP_STARTED without "stepName"', e, 'missing_id')]),
      { op: 'block.open', turnId, blockId, kind: 'step', label: name ?? 'step' },
      { op: 'trace.node', turnId, node: { id: blockId, kind: 'step', label: name ?? 'step', status: 'start', parentId, ...kept(extra) } },
    ]
  }

  function stepFinished(e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const list = stream.stepsOf(stream.laneOf(e))
    const name = nonEmpty(e.stepName) ?? 'step'
    let at = -1
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]?.name === name) {
        at = i
        break
      }
    }
    if (at < 0) return [stream.problem(`STEP_FINISHED for "${name}", which was not started`, e, 'end_without_start')]
    // Steps opened inside it and never finished close with it; the event's own fields go on its step's row.
    const finished = (list[at] as { blockId: string }).blockId
    return list.splice(at).reverse().flatMap(({ blockId }): Op[] => [
      { op: 'block.close', blockId, status: 'done' },
      { op: 'trace.node', turnId, node: { id: blockId, status: 'done', ...(blockId === finished ? kept(extra) : {}) } },
    ])
  }

  function subagentStarted(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const name = nonEmpty(e.name) ?? 'sub-agent'
    const parentLane = nonEmpty(e.parentSubagentRunId) ?? ''
    const parentToolCallId = nonEmpty(e.parentToolCallId)
    const parentId = parentToolCallId && stream.tools.has(parentToolCallId) ? `tool:${parentToolCallId}` : stream.traceParent(parentLane)
    const nodeId = `delegate:${id}`
    const blockId = stream.currentBlock(parentLane)
    stream.subagents.set(id, { nodeId, blockId })
    const detail: Record<string, unknown> = {}
    for (const key of ['description', 'parentToolCallId', 'parentMessageId', 'parentSubagentRunId']) if (e[key] !== undefined) detail[key] = e[key]
    return [
      { op: 'thread.open', turnId, threadId: id, blockId, label: name },
      {
        op: 'trace.node', turnId,
        node: {
          id: nodeId, kind: 'delegate', label: name, status: 'start', parentId, actor: { id, kind: 'subagent', name },
          ...(Object.keys(detail).length ? { detail } : {}), ...kept(extra),
        },
      },
    ]
  }

  function subagentFinished(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const ops: Op[] = [...chunks.close(id)]
    if (!stream.subagents.has(id)) ops.push(stream.problem(`SUBAGENT_FINISHED for "${id}", which was not started`, e, 'end_without_start'))
    const outcome = isRecord(e.outcome) ? e.outcome : undefined
    const suspended = outcome?.type === 'suspended'
    if (!suspended) ops.push({ op: 'thread.close', threadId: id, status: 'done' })
    ops.push({
      op: 'trace.node', turnId,
      node: {
        id: `delegate:${id}`, kind: 'delegate', status: suspended ? 'progress' : 'done',
        ...(e.result !== undefined ? { result: e.result } : {}), ...(outcome ? { resultDetail: outcome } : {}), ...kept(extra),
      },
    })
    closeLane(id)
    return ops
  }

  function subagentError(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const message = nonEmpty(e.message) ?? 'the sub-agent failed'
    const ops: Op[] = [...chunks.close(id)]
    if (!stream.subagents.has(id)) ops.push(stream.problem(`SUBAGENT_ERROR for "${id}", which was not started`, e, 'end_without_start'))
    ops.push(
      { op: 'thread.close', threadId: id, status: 'error' },
      { op: 'trace.node', turnId, node: { id: `delegate:${id}`, kind: 'delegate', ...(nonEmpty(e.code) ? { detail: { code: e.code } } : {}), ...kept(extra) } },
      { op: 'trace.fail', turnId, nodeId: `delegate:${id}`, message },
    )
    closeLane(id)
    return ops
  }

  function closeLane(lane: string): void {
    stream.steps.delete(lane)
    stream.subagents.delete(lane)
  }

  return { stepStarted, stepFinished, subagentStarted, subagentFinished, subagentError }
}
