/**
 * The run's state machine, one transition at a time: every pair of phases is
 * either in the diagram (and `transition` makes it) or not (and it throws,
 * leaving the phase as it was).
 */
import { describe, expect, it } from 'vitest'
import { canTransition, isSettled, RunStateError, transition, type RunPhase } from '../../../src/core/client/run-state'

const PHASES: RunPhase[] = ['idle', 'connecting', 'streaming', 'reconnecting', 'parked', 'done', 'error', 'aborted']

/** The diagram, written out by hand: idle → connecting → streaming ⇄ reconnecting → done | error | aborted, and parked. */
const LEGAL: Record<RunPhase, RunPhase[]> = {
  idle: ['connecting', 'error', 'aborted', 'parked'],
  connecting: ['streaming', 'reconnecting', 'done', 'error', 'aborted', 'parked'],
  streaming: ['reconnecting', 'done', 'error', 'aborted', 'parked'],
  reconnecting: ['connecting', 'error', 'aborted', 'parked'],
  parked: ['aborted'],
  done: [],
  error: [],
  aborted: [],
}

describe('run state machine', () => {
  for (const from of PHASES) {
    for (const to of PHASES) {
      const legal = LEGAL[from].includes(to)
      it(`${from} → ${to} is ${legal ? 'allowed' : 'refused'}`, () => {
        expect(canTransition(from, to)).toBe(legal)
        const run = { phase: from }
        if (legal) {
          transition(run, to)
          expect(run.phase).toBe(to)
        } else {
          expect(() => transition(run, to)).toThrow(RunStateError)
          expect(run.phase).toBe(from)
        }
      })
    }
  }

  it('nothing leaves done, error or aborted; streaming never goes back to connecting or idle', () => {
    for (const end of ['done', 'error', 'aborted'] as const) for (const to of PHASES) expect(canTransition(end, to)).toBe(false)
    expect(canTransition('streaming', 'connecting')).toBe(false)
    expect(canTransition('streaming', 'idle')).toBe(false)
  })

  it('settled means nothing goes on by itself', () => {
    expect(PHASES.filter(isSettled)).toEqual(['parked', 'done', 'error', 'aborted'])
  })
})
