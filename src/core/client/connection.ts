/**
 * One connection of a run: open the request, decode its frames into ops, align
 * a reconnect's replay with what the store holds, and say how the connection
 * ended. It never ends the run itself: the driver decides what an outcome means.
 */
import { toWeftError, weftError } from '../model/errors'
import { FrameDecoder } from '../protocol/frame-decoder'
import type { ReplayItem } from '../resume/types'
import type { Op } from '../model/ops'
import type { DataPart } from '../protocol/types'
import { isDoneFrame, type SSEFrame } from '../transport/frames'
import type { StreamEndReason } from '../transport/open-stream'
import { httpSseTransport, type TransportStream } from '../transport/transport'
import { replayFilter } from './resume-persister'
import type { RequestPlan } from './request-plan'
import type { ActiveRun, Outcome } from './run'
import { isSettled, transition } from './run-state'
import { toolMessage } from './tool-calls'
import { stampDecoded } from './timing'
import { tapFrame, tapRequest } from './inspector-tap'

/** How long the client waits for more bytes after the protocol's own end before it closes the connection. */
const DEFAULT_END_GRACE_MS = 300

const COUNT_EVERYTHING = { counted: true } as const

/**
 * One connection: open it, fold what is new, and say how it ended. A run that
 * settled meanwhile (a stop, a detach: only those abort its signal) is the
 * driver's to see; what this connection touches stops there.
 */
export async function connect(run: ActiveRun, request: RequestPlan, resuming: boolean): Promise<Outcome> {
  const { options, controller } = run
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
  const transport = options.transport ?? httpSseTransport
  let stream: TransportStream
  if (options.inspector) tapRequest(options.inspector, run, request, resuming)
  try {
    stream = await transport.open(
      { ...request, signal: controller.signal, fetch: fetchImpl, idleTimeoutMs: options.idleTimeoutMs, readPastDone: true },
      { onRetry: (ms) => (run.retryMs = ms) },
    )
  } catch (thrown) {
    const error = toWeftError(thrown, 'network')
    if (!resuming) return { kind: 'failed', error }
    // 404 and 410: the stream is gone; 405: the route has no resume endpoint (a stock AI SDK route answers only POST).
    if (error.status === 404 || error.status === 405 || error.status === 410) return { kind: 'expired', error }
    return error.retryable ? { kind: 'lost', error, progressed: false } : { kind: 'failed', error }
  }
  if (isSettled(run.phase) || stream.endReason === 'aborted') return { kind: 'aborted' }
  if (resuming && stream.status === 204) return { kind: 'nothing' }
  if (!resuming) run.streamUrl = request.url
  if (request.runId !== undefined) run.requestRunId = request.runId

  const reader = (run.memory.reader ??= new FrameDecoder({
    turnId: run.turnId, scope: run.scope, protocol: options.protocol ?? run.handle?.protocol, protocols: options.protocols,
    headers: stream.headers, onData: options.onData && quietWhilePriming(run, options.onData),
    priorToolCall: (toolCallId) => {
      const message = toolMessage(run.store.getState(), run.turnId, toolCallId)
      return message ? { messageId: message.id, name: typeof message.props.name === 'string' ? message.props.name : 'tool' } : undefined
    },
    runId: request.runId,
    agentState: () => run.store.getState().agentState,
  }))
  transition(run, 'streaming')
  run.batcher.push([{ op: 'stream.status', status: 'streaming' }])
  const filter = resuming ? replayFilter(run) : undefined
  let progressed = false
  const take = (items: readonly ReplayItem[]) => {
    if (items.length === 0) return
    for (const item of items) {
      if (run.resume?.prime(run.memory, reader, item)) {
        // The store already shows it: only the cursor moves on.
        noteFrame(run, item, [])
        if (item.counted) progressed = true
      } else if (fold(run, reader, item)) {
        progressed = true
      }
    }
    run.batcher.push(reader.flush())
    const eventCount = Math.max(run.memory.ledger.count, run.memory.primeUntil ?? 0)
    run.batcher.push([{ op: 'cursor', cursor: { ...reader.cursor(), eventCount, lastEventId: run.lastEventId } }])
  }
  const grace = Math.max(1, options.endGraceMs ?? DEFAULT_END_GRACE_MS)
  /** Set at `[DONE]`: the replay filter is over, and what follows is only reported. */
  let replay = filter
  try {
    // One await per arrival of bytes, not per frame: a frame's work stays synchronous.
    for await (const batch of stream.batches) {
      if (isSettled(run.phase)) break
      const ready: ReplayItem[] = []
      for (const frame of batch) {
        if (isDoneFrame(frame)) {
          // The frames before it go first, so whatever follows lands after the end.
          if (replay) for (const out of replay.end(true)) ready.push(out)
          replay = undefined
          take(ready.splice(0))
          if (options.inspector) tapFrame(options.inspector, run, frame, [])
          reader.done()
          continue
        }
        const item = identify(run, frame)
        if (replay) for (const out of replay.push(item)) ready.push(out)
        else ready.push(item)
      }
      take(ready)
      // One rule for both paths: read on to the end of the body, as foldStream
      // does, but once the protocol has ended only while bytes keep coming, so a
      // server that holds the connection open does not hold the turn.
      stream.settle(reader.ended ? grace : undefined)
    }
  } catch (thrown) {
    if (isSettled(run.phase)) return { kind: 'aborted' }
    if (reader.ended) {
      if (replay) take(replay.end(true))
      return { kind: 'finished', reason: 'eof' }
    }
    replay?.end(false)
    return { kind: 'lost', error: toWeftError(thrown, 'network'), progressed }
  }
  // Read again: the loop above moved it on.
  const endReason = endReasonOf(stream)
  if (endReason === 'aborted' || isSettled(run.phase)) return { kind: 'aborted' }
  const final = endReason === 'done'
  if (replay) take(replay.end(final || reader.ended))
  // A server that said nothing more will come (Yao's `read_complete`, not live) ended the stream itself.
  if (final || reader.ended || reader.endsAtClose || filter?.settled) return { kind: 'finished', reason: final || filter?.settled ? 'done' : 'eof' }
  // Without a strategy the end of the body is the end of the turn.
  if (!run.resume) return { kind: 'finished', reason: 'eof' }
  // A resumed connection that closes cleanly with nothing new: the server has no more.
  if (resuming && !progressed) return { kind: 'nothing' }
  return { kind: 'lost', error: weftError('network', 'the stream ended before the agent finished'), progressed }
}

function identify(run: ActiveRun, frame: SSEFrame): ReplayItem {
  let event: unknown
  let json = true
  try {
    event = JSON.parse(frame.data)
  } catch {
    json = false
  }
  return run.resume ? run.resume.identify(frame, event, json) : { frame, event, json, fingerprint: '', ...COUNT_EVERYTHING }
}

/** What every event read moves on, folded or not: the last SSE id, and the inspector's record. */
function noteFrame(run: ActiveRun, item: ReplayItem, ops: readonly Op[]): void {
  if (item.frame.id !== undefined) run.lastEventId = item.frame.id === '' ? undefined : item.frame.id
  if (run.options.inspector) tapFrame(run.options.inspector, run, item.frame, ops)
}

/** Fold one event; true when it counted. */
function fold(run: ActiveRun, reader: FrameDecoder, item: ReplayItem): boolean {
  if (!run.opened) {
    run.opened = true
    run.batcher.push([{ op: 'turn.open', turnId: run.turnId, role: 'assistant', protocol: reader.protocol ?? run.handle?.protocol }])
  }
  const ops = item.json ? reader.parsed(item.event, item.frame) : reader.frame(item.frame)
  run.memory.ledger.record(item)
  noteFrame(run, item, ops)
  run.batcher.push(ops)
  const stamp = run.stamps ? stampDecoded(run, ops) : undefined
  if (stamp) run.batcher.push([stamp])
  if (!run.announced && reader.protocol) {
    run.announced = true
    run.batcher.push([{ op: 'turn.update', turnId: run.turnId, protocol: reader.protocol }, { op: 'cursor', cursor: { protocol: reader.protocol } }])
  }
  return item.counted
}

/** The host hears of data parts once: not again while a decoder relearns a stream shown before a reload. */
function quietWhilePriming(run: ActiveRun, onData: (part: DataPart) => void): (part: DataPart) => void {
  return (part) => {
    if (!run.memory.priming) onData(part)
  }
}

function endReasonOf(stream: TransportStream): StreamEndReason | undefined {
  return stream.endReason
}
