/**
 * The inspector: a client's `inspector` option that keeps what each turn did on
 * the wire, bounded, for a panel to show and for a recording to save.
 */
import type { ClientInspector, TapFrame, TapRequest, TapRunEnd } from '../core/client/inspector-tap'
import type { Turn } from '../core/model/model'
import type { Op } from '../core/model/ops'
import type { AgentStore } from '../core/store/store'
import { own } from '../core/util/record'
import { scrubUrl } from '../core/util/secret-names'
import type { AgentFixture } from '../testing/frames'
import { describeBody } from './describe-body'
import { toRecording, type RecordingOptions } from './recording'
import type { InspectedEnd, InspectedFrame, InspectedRequest, InspectedTurn, InspectorSnapshot } from './snapshot'

/**
 * Options of `createInspector`.
 *
 * @example
 * const inspector = createInspector({ maxFramesPerTurn: 500, maxTurns: 20 })
 */
export interface InspectorOptions {
  /** Frames kept per turn (default 2000); later ones are counted in `droppedFrames`. */
  maxFramesPerTurn?: number
  /** Turns kept (default 100); the oldest go first, counted in `droppedTurns`. */
  maxTurns?: number
}

/**
 * What `createInspector` returns: pass it as a client's `inspector` option, read
 * it with `useSyncExternalStore` (or `<Inspector>`), save a turn as a fixture.
 *
 * @example
 * const inspector = createInspector()
 * const { send } = useAgentStream({ url: '/api/agent', inspector })
 * const snapshot = useSyncExternalStore(inspector.subscribe, inspector.getSnapshot)
 */
export interface AgentInspector extends Required<ClientInspector> {
  subscribe(listener: () => void): () => void
  getSnapshot(): InspectorSnapshot
  /** The turn's stream as a fixture `weft/testing` replays (`mockFetch`, `renderWithAgent`); undefined for a turn it never saw. */
  recording(turnId: string, options?: RecordingOptions): AgentFixture | undefined
  /** Forget every turn. */
  clear(): void
}

interface TurnRecord {
  turnId: string
  store: AgentStore
  requests: InspectedRequest[]
  frames: InspectedFrame[]
  seen: number
  ends: InspectedEnd[]
  /** The store's turn the last snapshot was read from. */
  turn?: Turn
  snapshot?: InspectedTurn
}

/**
 * Make an inspector: a client option that keeps, per turn, the requests, the
 * frames as they arrived and the ops each became, and how each run ended.
 *
 * @example
 * const inspector = createInspector()
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent', inspector })
 * await client.send('Hello')
 * const fixture = inspector.recording(client.store.getState().turnIds.at(-1)!)
 */
export function createInspector(options: InspectorOptions = {}): AgentInspector {
  const maxFrames = Math.max(1, options.maxFramesPerTurn ?? 2000)
  const maxTurns = Math.max(1, options.maxTurns ?? 100)
  const turns = new Map<string, TurnRecord>()
  const listeners = new Set<() => void>()
  const stores = new Map<AgentStore, () => void>()
  let droppedTurns = 0
  let snapshot: InspectorSnapshot | undefined
  let pending = false

  // Notices are coalesced: every frame of one network read is one notice.
  const changed = () => {
    snapshot = undefined
    if (pending) return
    pending = true
    queueMicrotask(() => {
      pending = false
      for (const listener of [...listeners]) listener()
    })
  }
  const watch = (store: AgentStore) => {
    if (stores.has(store)) return
    stores.set(store, store.subscribe((state) => {
      for (const record of turns.values()) if (record.store === store && own(state.turns, record.turnId) !== record.turn) return changed()
    }))
  }
  const recordOf = (turnId: string, store: AgentStore): TurnRecord => {
    let record = turns.get(turnId)
    if (!record) {
      record = { turnId, store, requests: [], frames: [], seen: 0, ends: [] }
      turns.set(turnId, record)
      while (turns.size > maxTurns) {
        turns.delete(turns.keys().next().value as string)
        droppedTurns++
      }
      watch(store)
    }
    return record
  }
  const touch = (record: TurnRecord) => {
    record.snapshot = undefined
    changed()
  }

  const inspector: AgentInspector = {
    request(request: TapRequest) {
      const record = recordOf(request.turnId, request.store)
      record.requests.push({
        index: record.requests.length, kind: request.kind,
        ...(request.trigger ? { trigger: request.trigger } : {}),
        ...(request.runId ? { runId: request.runId } : {}),
        url: scrubUrl(request.url), method: request.method.toUpperCase(),
        ...(request.body !== null ? { body: describeBody(request.body) } : {}),
        headers: { ...request.headers },
        ...(request.lastEventId !== undefined ? { lastEventId: request.lastEventId } : {}),
        at: request.at,
      })
      touch(record)
    },
    frame({ turnId, frame, ops, at }: TapFrame) {
      const record = turns.get(turnId)
      if (!record) return
      const index = record.seen++
      if (record.frames.length >= maxFrames) return touch(record)
      const start = record.requests[0]?.at ?? at
      record.frames.push({
        index, request: Math.max(0, record.requests.length - 1), at, offsetMs: Math.max(0, at - start),
        ...(frame.id !== undefined ? { id: frame.id } : {}),
        ...(frame.event !== undefined ? { event: frame.event } : {}),
        ...(frame.retry !== undefined ? { retry: frame.retry } : {}),
        data: frame.data, ops, problems: ops.filter(isProblem).length,
      })
      touch(record)
    },
    end({ turnId, outcome, error, at }: TapRunEnd) {
      const record = turns.get(turnId)
      if (!record) return
      record.ends.push({ outcome, ...(error ? { error } : {}), at })
      touch(record)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getSnapshot() {
      if (snapshot) return snapshot
      const list: InspectedTurn[] = []
      for (const record of turns.values()) list.push(turnSnapshot(record, maxFrames))
      snapshot = { turns: list, droppedTurns, maxFramesPerTurn: maxFrames }
      return snapshot
    },
    recording(turnId, recordingOptions) {
      const record = turns.get(turnId)
      return record ? toRecording(turnSnapshot(record, maxFrames), recordingOptions) : undefined
    },
    clear() {
      turns.clear()
      droppedTurns = 0
      for (const unsubscribe of stores.values()) unsubscribe()
      stores.clear()
      changed()
    },
  }
  return inspector
}

/** An op that reports something wrong: a problem, or the turn ending in an error. */
function isProblem(op: Op): boolean {
  return op.op === 'problem' || (op.op === 'turn.finish' && op.status === 'error')
}

/** The record as plain data, with what the store now holds of the turn; the same object while neither changed. */
function turnSnapshot(record: TurnRecord, maxFrames: number): InspectedTurn {
  const turn = own(record.store.getState().turns, record.turnId)
  if (record.snapshot && turn === record.turn) return record.snapshot
  record.turn = turn
  record.snapshot = {
    turnId: record.turnId,
    ...(turn?.protocol ? { protocol: turn.protocol } : {}),
    ...(turn ? { status: turn.status } : {}),
    requests: [...record.requests],
    frames: [...record.frames],
    droppedFrames: Math.max(0, record.seen - Math.min(record.seen, maxFrames)),
    ends: [...record.ends],
    ...(turn?.timing ? { timing: turn.timing } : {}),
    ...(turn?.usage ? { usage: turn.usage } : {}),
    problems: turn ? [...turn.problems] : [],
    ...(turn?.error ? { error: turn.error } : {}),
  }
  return record.snapshot
}
