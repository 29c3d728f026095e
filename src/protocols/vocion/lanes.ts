/**
 * Sub-agent lanes (`subagent_start`, `subagent_end`): a thread and a
 * `delegate` row each, matched by name, latest first.
 */
import type { Op } from '../../core/index'
import { idOf } from '../../protocol-kit/index'
import { stackFor, type VocionEvent, type VocionStream } from './stream-state'

/**
 * The sub-agent handlers of one stream.
 *
 * @example
 * const lanes = createLanes(stream)
 * lanes.start({ type: 'subagent_start', name: 'researcher' })
 */
export interface Lanes {
  /** Each keeps `extra` (the event's fields weft does not read) on the lane's `delegate` row. */
  start(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  end(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  /** Lanes still open when the turn ends close with it (they sit in no block the fold would close). */
  closeAll(): Op[]
}

/**
 * Make the sub-agent handlers for one stream.
 *
 * @example
 * const lanes = createLanes(createVocionStream({ turnId: 't1', scope: 't1' }))
 */
export function createLanes(stream: VocionStream): Lanes {
  const { turnId } = stream
  const open = new Map<string, Array<{ threadId: string; nodeId: string }>>()

  function start(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const name = idOf(event.name)
    if (!name) return [stream.problem('subagent_start without a name', event, 'invalid')]
    const id = stream.fresh('subagent')
    stackFor(open, name).push({ threadId: id, nodeId: id })
    return [
      { op: 'thread.open', turnId, threadId: id, label: name },
      {
        op: 'trace.node', turnId,
        node: { id, kind: 'delegate', label: `Delegating to ${name}`, status: 'start', actor: { id, kind: 'specialist', name }, ...(extra ? { extra } : {}) },
      },
    ]
  }

  function end(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const name = idOf(event.name)
    if (!name) return [stream.problem('subagent_end without a name', event, 'invalid')]
    const lane = stackFor(open, name).pop()
    if (!lane) return [stream.problem(`subagent_end for "${name}", which never started`, event, 'end_before_start')]
    return [
      { op: 'thread.close', threadId: lane.threadId, status: 'done' },
      { op: 'trace.node', turnId, node: { id: lane.nodeId, label: `${name} finished`, status: 'done', ...(extra ? { extra } : {}) } },
    ]
  }

  function closeAll(): Op[] {
    const ops: Op[] = []
    for (const stack of open.values()) {
      for (const lane of stack) ops.push({ op: 'thread.close', threadId: lane.threadId, status: 'done' })
    }
    open.clear()
    return ops
  }

  return { start, end, closeAll }
}
