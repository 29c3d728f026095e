/**
 * Tool approval gates: a call that waits for a person's yes or no, the answer,
 * and a gate the call's own outcome settles (it ran, or it was denied).
 */
import type { Op } from '../../core/index'
import { booleanOf, defined, idOf, stringOf } from '../../protocol-kit/index'
import type { StreamContext } from './stream-context'
import type { Chunk, ToolTrack, ToolTracks } from './tool-tracks'

/**
 * The approval gates of one stream's tool calls, keyed by `approvalId`.
 *
 * @example
 * const approvals = createToolApprovals(stream, createToolTracks(stream))
 * approvals.approvalResponse({ type: 'tool-approval-response', approvalId: 'a1', approved: true })
 */
export interface ToolApprovals {
  approvalRequest(chunk: Chunk): Op[]
  approvalResponse(chunk: Chunk): Op[]
  /** Settle the call's gate; it is no longer pending. */
  resolveGate(track: ToolTrack, status: 'approved' | 'rejected', response?: unknown): Op
  /** Forget the approvals of a reset step's calls. */
  forgetStep(blockId: string): void
}

/**
 * Make the approval handling of one stream's tool calls.
 *
 * @example
 * const approvals = createToolApprovals(stream, createToolTracks(stream))
 */
export function createToolApprovals(stream: StreamContext, calls: ToolTracks): ToolApprovals {
  const { turnId } = stream
  const { delta, props, kept, row, known } = calls
  const approvals = new Map<string, ToolTrack>()

  function resolveGate(track: ToolTrack, status: 'approved' | 'rejected', response?: unknown): Op {
    track.gatePending = false
    return { op: 'gate.resolve', gateId: track.gateId as string, status, response }
  }

  function approvalRequest(chunk: Chunk): Op[] {
    const approvalId = idOf(chunk.approvalId)
    if (!approvalId) return [stream.problem('tool-approval-request without an approvalId', chunk, 'missing_id')]
    const found = known(chunk, 'tool-approval-request')
    if (!('track' in found)) return found.ops
    const { track, ops } = found
    const reason = stringOf(chunk.reason)
    track.gateId = stream.scoped('approval', approvalId)
    track.gatePending = true
    approvals.set(approvalId, track)
    ops.push(
      {
        op: 'gate.open',
        gate: {
          id: track.gateId, turnId, kind: 'tool-approval', question: reason ?? `Allow ${track.title ?? track.name}?`,
          payload: defined({ approvalId, toolCallId: track.toolCallId, toolName: track.name, reason }), toolCallId: track.toolCallId,
        },
      },
      props(track, {
        state: 'approval-requested',
        // What the AI SDK keeps on the approval, so it goes back to the server as it came.
        approval: defined({
          id: approvalId, reason, descriptor: chunk.approvalDescriptor ?? undefined, signature: stringOf(chunk.signature),
          inputSchemaInput: chunk.inputSchemaInput, isAutomatic: booleanOf(chunk.isAutomatic),
        }),
      }),
      row(track, { status: 'progress' }),
    )
    kept(track, chunk, undefined, ops)
    return ops
  }

  function approvalResponse(chunk: Chunk): Op[] {
    const approvalId = idOf(chunk.approvalId)
    if (!approvalId) return [stream.problem('tool-approval-response without an approvalId', chunk, 'missing_id')]
    if (typeof chunk.approved !== 'boolean') return [stream.problem('tool-approval-response without a boolean "approved"', chunk, 'invalid')]
    const track = approvals.get(approvalId)
    if (!track) return [stream.problem(`tool-approval-response for "${approvalId}", which was never requested`, chunk, 'invalid')]
    const reason = stringOf(chunk.reason)
    const approval = defined({ id: approvalId, approved: chunk.approved, reason })
    const ops: Op[] = [
      resolveGate(track, chunk.approved ? 'approved' : 'rejected', defined({ approved: chunk.approved, reason })),
      props(track, { state: 'approval-responded' }),
      // Merged, so what the request carried (descriptor, signature) stays on the approval.
      delta(track, 'merge', 'approval', approval),
    ]
    kept(track, chunk, undefined, ops)
    return ops
  }

  return {
    approvalRequest, approvalResponse, resolveGate,
    forgetStep(blockId) {
      for (const [id, track] of approvals) if (track.blockId === blockId) approvals.delete(id)
    },
  }
}
