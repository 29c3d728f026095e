/**
 * Whole values the stream sends: state snapshots and patches' targets,
 * message snapshots merged by id, activity messages, `RAW` and `CUSTOM` events.
 */
import type { MessagePlace, Op } from '../../core/index'
import { isRecord, nonEmpty, patchJsonData } from '../../protocol-kit/index'
import { readAgUiMessage, type MessagePart } from './messages'
import { agUiInputMessageId, type AgUiEvent, type AgUiStream } from './stream-state'
import { newToolTrack, resetArguments } from './tool-calls'

/** How many `RAW` events the turn keeps (the host gets every one through `onData`). */
const RAW_KEPT = 20

/**
 * The snapshot, activity, raw and custom handlers of one stream.
 *
 * @example
 * const snapshots = createSnapshots(stream)
 * snapshots.stateSnapshot({ type: 'STATE_SNAPSHOT', snapshot: { step: 1 } })
 */
export interface Snapshots {
  stateSnapshot(e: AgUiEvent): Op[]
  /**
   * Merge AG-UI messages by id: known ids update in place, new ones join this turn. A snapshot never removes.
   * Each message's own fields weft does not read come with it, in `props.extra`.
   */
  mergeMessages(list: unknown[]): Op[]
  /** These keep `extra` (the event's fields weft does not read) on what they make: the activity message, the raw entry, the data part. */
  activitySnapshot(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  activityDelta(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  rawEvent(e: AgUiEvent, extra?: Record<string, unknown>): Op[]
  customEvent(e: AgUiEvent, extra?: Record<string, unknown>): Op[]
}

/**
 * Make the snapshot handlers for one stream.
 *
 * @example
 * const snapshots = createSnapshots(createAgUiStream({ turnId: 't1', scope: 't1' }))
 */
export function createSnapshots(stream: AgUiStream): Snapshots {
  const { turnId, scope, tools } = stream
  const inputId = agUiInputMessageId(turnId)
  const activities = new Map<string, unknown>()
  const rawEvents: unknown[] = []

  function stateSnapshot(e: AgUiEvent): Op[] {
    if (!('snapshot' in e)) return [stream.problem('STATE_SNAPSHOT without "snapshot"', e, 'state_snapshot')]
    const snapshot = e.snapshot
    // The store keeps an object; any other JSON value is wrapped so that nothing is lost.
    return [{ op: 'agentState.set', value: isRecord(snapshot) ? snapshot : { value: snapshot } }]
  }

  function mergeMessages(list: unknown[]): Op[] {
    const ops: Op[] = []
    for (const raw of list) {
      if (isRecord(raw) && raw.id === inputId) continue
      const { parts, problems } = readAgUiMessage(raw)
      for (const reason of problems) ops.push(stream.problem(reason, raw, 'message'))
      for (const part of parts) ops.push(...snapshotPart(part))
    }
    return ops
  }

  function snapshotPart(part: MessagePart): Op[] {
    const props = { ...part.props }
    const lane = part.threadId ?? ''
    if (part.type === 'text' || part.type === 'reasoning') stream.texts.add(part.id)
    if (part.type === 'activity') activities.set(part.id, props.content)
    if (part.type === 'tool') {
      let track = tools.get(part.id)
      if (!track) {
        track = newToolTrack(part.id, typeof props.name === 'string' ? props.name : 'tool', lane)
        track.open = false
        tools.set(part.id, track)
      }
      if (part.isResult) {
        track.resulted = true
      } else {
        if (typeof props.name === 'string') track.name = props.name
        if (typeof props.inputText === 'string') resetArguments(track, props.inputText)
        if (track.resulted || track.open) delete props.state
      }
    }
    const ops: Op[] = [{
      op: 'message.delta', turnId, messageId: part.id, type: part.type, role: part.role, threadId: part.threadId,
      action: 'set', path: '', value: props, retype: true,
    }]
    const streaming = stream.openMessages.has(part.id) || (part.type === 'tool' && tools.get(part.id)?.open)
    if (!streaming) ops.push({ op: 'message.finish', messageId: part.id, status: part.props.state === 'output-error' ? 'error' : 'done' })
    return ops
  }

  function activitySnapshot(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const at = stream.place(id, 'activity', 'assistant', stream.laneOf(e))
    const metadata = isRecord(e.metadata) ? e.metadata : undefined
    // A snapshot that does not replace leaves the content; its metadata and fields still reach the message, as in @ag-ui/client.
    if (e.replace === false && activities.has(id)) return kept(at, metadata, extra)
    const content = isRecord(e.content) ? e.content : {}
    activities.set(id, content)
    return [{
      op: 'message.put', ...at, type: 'activity',
      props: { activityType: nonEmpty(e.activityType) ?? 'activity', content, ...(metadata ? { metadata } : {}), ...(extra ? { extra } : {}) }, status: 'done',
    }]
  }

  /** Event metadata and unread fields merged into an existing message. */
  function kept(at: MessagePlace, metadata: Record<string, unknown> | undefined, extra: Record<string, unknown> | undefined): Op[] {
    const ops: Op[] = []
    if (metadata) ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'metadata', value: metadata })
    if (extra) ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'extra', value: extra })
    return ops
  }

  function activityDelta(id: string, e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const current = activities.get(id)
    if (current === undefined) return [stream.problem(`ACTIVITY_DELTA for "${id}", which has no snapshot`, e, 'activity_delta')]
    if (!Array.isArray(e.patch)) return [stream.problem('ACTIVITY_DELTA needs a JSON Patch array in "patch"', e, 'activity_delta')]
    let next: unknown
    try {
      // All or nothing, and only the content's own JSON data may be named (never `/constructor`).
      next = patchJsonData(current, e.patch)
    } catch (thrown) {
      return [stream.problem(`ACTIVITY_DELTA could not be applied: ${thrown instanceof Error ? thrown.message : String(thrown)}`, e, 'activity_delta')]
    }
    activities.set(id, next)
    const at = stream.place(id, 'activity', 'assistant', stream.laneOf(e))
    return [
      { op: 'message.delta', ...at, action: 'set', path: 'content', value: next },
      ...(nonEmpty(e.activityType) ? [{ op: 'message.delta', ...at, action: 'set', path: 'activityType', value: e.activityType } as Op] : []),
      ...kept(at, isRecord(e.metadata) ? e.metadata : undefined, extra),
      { op: 'message.finish', messageId: id, status: 'done' },
    ]
  }

  function rawEvent(e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const data = { event: e.event, ...(e.source !== undefined ? { source: e.source } : {}), ...(extra ? { extra } : {}) }
    stream.onData?.({ type: 'raw', data })
    rawEvents.push(data)
    if (rawEvents.length > RAW_KEPT) rawEvents.shift()
    return [{ op: 'turn.update', turnId, metadata: { rawEvents: rawEvents.slice() } }]
  }

  function customEvent(e: AgUiEvent, extra?: Record<string, unknown>): Op[] {
    const name = nonEmpty(e.name)
    if (!name) return [stream.problem('CUSTOM without "name"', e, 'missing_name')]
    const value = e.value
    const ownId = isRecord(value) ? nonEmpty(value.id) : undefined
    const messageId = ownId ? `${scope}/custom/${name}/${ownId}` : stream.fresh('custom')
    return [{
      op: 'message.put', ...stream.place(messageId, `data-${name}`, 'assistant', stream.laneOf(e)), type: `data-${name}`,
      props: { data: value, ...(extra ? { extra } : {}) }, status: 'done',
    }]
  }

  return { stateSnapshot, mergeMessages, activitySnapshot, activityDelta, rawEvent, customEvent }
}
