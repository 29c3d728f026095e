/**
 * The inspector panel: pick a turn (the latest by default), then its request,
 * frames, problems and timings, and save it as a recording `weft/testing` replays.
 */
import { forwardRef, useId, useState, useSyncExternalStore, type HTMLAttributes } from 'react'
import type { AgentFixture } from '../testing/frames'
import type { AgentInspector } from './inspector'
import { runCount, toRecording } from './recording'
import { InspectorFrames, InspectorProblems, InspectorRequest, InspectorTimings } from './sections'
import { EMPTY_SNAPSHOT, type InspectedTurn, type InspectorSnapshot } from './snapshot'

/**
 * The inspector's snapshot, kept current: what a panel of the host's own reads.
 *
 * @example
 * const { turns } = useInspectorSnapshot(inspector)
 */
export function useInspectorSnapshot(inspector: AgentInspector | undefined): InspectorSnapshot {
  return useSyncExternalStore(
    (listener) => (inspector ? inspector.subscribe(listener) : () => undefined),
    () => inspector?.getSnapshot() ?? EMPTY_SNAPSHOT,
    () => inspector?.getSnapshot() ?? EMPTY_SNAPSHOT,
  )
}

/**
 * Props of `Inspector`: a live inspector, or a snapshot of one (what
 * Storybook's panel receives over its channel).
 *
 * @example
 * <Inspector inspector={inspector} onSaveRecording={(fixture) => upload(fixture)} />
 */
export interface InspectorProps extends HTMLAttributes<HTMLElement> {
  inspector?: AgentInspector
  /** Shown instead of a live inspector's. */
  snapshot?: InspectorSnapshot
  /** The turn shown (controlled); default: the latest, following new turns until one is picked. */
  turnId?: string
  onTurnIdChange?: (turnId: string) => void
  /** Called with each saved recording (one per run of the turn), besides (or, with `download={false}`, instead of) the download. */
  onSaveRecording?: (fixture: AgentFixture, turn: InspectedTurn) => void
  /** Save downloads the recording as a JSON file (default true). */
  download?: boolean
}

/**
 * What a developer keeps open beside the chat: for the selected turn, the
 * request that started it, the frames as they arrived and the ops each became,
 * problems, timings and usage; "Save recording" downloads the turn as a fixture
 * `weft/testing` replays.
 *
 * @example
 * const inspector = createInspector()
 * const { send } = useAgentStream({ url: '/api/agent', inspector })
 * <Inspector inspector={inspector} />
 */
export const Inspector = forwardRef<HTMLElement, InspectorProps>(function Inspector(
  { inspector, snapshot: given, turnId: controlled, onTurnIdChange, onSaveRecording, download = true, ...rest },
  ref,
) {
  const live = useInspectorSnapshot(given ? undefined : inspector)
  const snapshot = given ?? live
  const [picked, setPicked] = useState<string | undefined>(undefined)
  const [saved, setSaved] = useState('')
  const pickerId = useId()
  const wanted = controlled ?? picked
  const turn = snapshot.turns.find((t) => t.turnId === wanted) ?? snapshot.turns[snapshot.turns.length - 1]

  const pick = (turnId: string) => {
    setPicked(turnId)
    onTurnIdChange?.(turnId)
  }
  const save = () => {
    if (!turn) return
    // One fixture per run: a continuation is a request and a response of its own.
    const fixtures = Array.from({ length: runCount(turn) }, (_, run) => toRecording(turn, { run }))
    for (const fixture of fixtures) {
      onSaveRecording?.(fixture, turn)
      if (download) downloadJson(`${fixture.name}.json`, fixture)
    }
    setSaved(fixtures.map((fixture) => `Saved ${fixture.name}.json: ${fixture.frames.length} frames.`).join(' '))
  }

  return (
    <section aria-label="Agent inspector" {...rest} ref={ref} data-weft="wire-inspector" data-state={turn ? 'ready' : 'empty'}>
      <div data-weft="wire-bar">
        {snapshot.turns.length > 0 ? (
          <>
            <label htmlFor={pickerId}>Turn</label>
            <select id={pickerId} value={turn?.turnId ?? ''} onChange={(event) => pick(event.target.value)} data-weft="wire-turn-picker">
              {snapshot.turns.map((t, i) => (
                <option key={t.turnId} value={t.turnId}>{turnLabel(t, i)}</option>
              ))}
            </select>
          </>
        ) : null}
        <button type="button" onClick={save} disabled={!turn || turn.frames.length === 0} data-weft="wire-save">Save recording</button>
        <span role="status" data-weft="wire-saved">{saved}</span>
      </div>
      {snapshot.droppedTurns > 0 ? <p role="note" data-weft="wire-dropped">{snapshot.droppedTurns} older {snapshot.droppedTurns === 1 ? 'turn was' : 'turns were'} let go.</p> : null}
      {turn ? (
        <div data-weft="wire-turn" data-turn-id={turn.turnId} data-status={turn.status}>
          <p data-weft="wire-summary">{summary(turn)}</p>
          <InspectorRequest turn={turn} />
          <InspectorFrames turn={turn} />
          <InspectorProblems turn={turn} />
          <InspectorTimings turn={turn} />
        </div>
      ) : (
        <p data-weft="wire-empty">No turn yet: send a message, and its request and frames show here as they arrive.</p>
      )}
    </section>
  )
})

function turnLabel(turn: InspectedTurn, index: number): string {
  return [`${index + 1}`, turn.protocol, turn.status, `${turn.frames.length + turn.droppedFrames} frames`].filter(Boolean).join(' · ')
}

function summary(turn: InspectedTurn): string {
  const problems = turn.problems.length + (turn.error ? 1 : 0)
  return [
    turn.turnId,
    turn.protocol ?? 'protocol not known yet',
    turn.status ?? 'not in the store',
    `${turn.requests.length} ${turn.requests.length === 1 ? 'request' : 'requests'}`,
    `${turn.frames.length + turn.droppedFrames} frames`,
    `${problems} ${problems === 1 ? 'problem' : 'problems'}`,
  ].join(' · ')
}

/** Offer JSON as a file download; the data goes into a Blob, never into markup. */
function downloadJson(fileName: string, value: unknown): void {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  anchor.style.display = 'none'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
