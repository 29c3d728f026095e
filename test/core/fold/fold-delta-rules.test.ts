/**
 * Exact expectations for how a delta's value combines with what is there: which
 * appends are refused and with what message (naming the refused value's type and,
 * inside an object, its key), what a merge of an object or a scalar leaves, that a
 * delta at the root takes only an object, and the problem the fold records for each
 * refusal while it keeps what was there.
 */
import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import { applyDelta, DeltaError } from '../../../src/core/fold/deltas'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { DeltaAction, Op } from '../../../src/core/model/ops'
import { PathError } from '../../../src/core/util/paths'
import { messageIn } from '../../../src/core/model/message-table'

const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
const put = (props: Record<string, unknown>): Op => ({ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props })
const delta = (action: DeltaAction, path: string, value: unknown): Op =>
  ({ op: 'message.delta', turnId: 't1', messageId: 'm1', action, path, value })
const after = (props: Record<string, unknown>, ...ops: Op[]): AgentState => fold(emptyState(), [open, put(props), ...ops])
const problem = (message: string) => weftError('protocol', message, { code: 'message.delta' })

/** What `run` throws; fails when it returns. */
function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (thrown) {
    return thrown
  }
  throw new Error('expected a throw')
}

describe('DeltaError', () => {
  it('is an Error named DeltaError', () => {
    const error = new DeltaError('no')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('DeltaError')
    expect(String(error)).toBe('DeltaError: no')
  })

  it('is what a refused append throws, under its own name', () => {
    const thrown = thrownBy(() => applyDelta({ content: 'Hi' }, 'append', 'content', null))
    expect(thrown).toBeInstanceOf(DeltaError)
    expect(String(thrown)).toBe('DeltaError: cannot append null to text; the text was kept')
  })
})

describe('an append the value there refuses names the type it was given', () => {
  const refusedOnText = (value: unknown): string => (thrownBy(() => applyDelta({ content: 'Hi' }, 'append', 'content', value)) as Error).message
  const refusedOnObject = (value: unknown): string => (thrownBy(() => applyDelta({ input: { a: 1 } }, 'append', 'input', value)) as Error).message

  it('onto text: null, an array, a number, an object, a boolean', () => {
    expect(refusedOnText(null)).toBe('cannot append null to text; the text was kept')
    expect(refusedOnText([1])).toBe('cannot append array to text; the text was kept')
    expect(refusedOnText(5)).toBe('cannot append number to text; the text was kept')
    expect(refusedOnText({ a: 1 })).toBe('cannot append object to text; the text was kept')
    expect(refusedOnText(true)).toBe('cannot append boolean to text; the text was kept')
  })

  it('onto an object: null, an array, a string', () => {
    expect(refusedOnObject(null)).toBe('cannot append null to an object; the object was kept')
    expect(refusedOnObject([1])).toBe('cannot append array to an object; the object was kept')
    expect(refusedOnObject('x')).toBe('cannot append string to an object; the object was kept')
  })

  it('the fold records each refusal as a message.delta problem and keeps the text', () => {
    const state = after({ content: 'Hi' }, delta('append', 'content', null), delta('append', 'content', [1]), delta('append', 'content', '!'))
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ content: 'Hi!' })
    expect(state.turns.t1!.problems).toStrictEqual([
      problem('cannot append null to text; the text was kept'),
      problem('cannot append array to text; the text was kept'),
    ])
  })
})

describe('an object appended key by key', () => {
  it('a key that cannot combine keeps its value, the others append, and the refusal names the key', () => {
    const props: Record<string, unknown> = { content: 'a', title: 'x', list: [1] }
    const thrown = thrownBy(() => applyDelta(props, 'append', '', { content: 5, title: 'b', list: 2 }))
    expect(thrown).toBeInstanceOf(DeltaError)
    expect((thrown as DeltaError).message).toBe('"content": cannot append number to text; the text was kept')
    expect(props).toStrictEqual({ content: 'a', title: 'xb', list: [1, 2] })
  })

  it('a refusal inside a nested object names each key on the way', () => {
    const props: Record<string, unknown> = { input: { a: { b: 's' } } }
    const thrown = thrownBy(() => applyDelta(props, 'append', 'input', { a: { b: null } }))
    expect(thrown).toBeInstanceOf(DeltaError)
    expect((thrown as DeltaError).message).toBe('"a": "b": cannot append null to text; the text was kept')
    expect(props).toStrictEqual({ input: { a: { b: 's' } } })
  })

  it('the fold records the keyed refusal and keeps the appends that could apply', () => {
    const state = after({ content: 'a', title: 'x' }, delta('append', '', { content: [1], title: 'y' }))
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ content: 'a', title: 'xy' })
    expect(state.turns.t1!.problems).toStrictEqual([problem('"content": cannot append array to text; the text was kept')])
  })

  it('an error that is not a refusal is thrown as it is, not turned into one', () => {
    const boom = new Error('boom')
    const value = {
      get content(): string {
        throw boom
      },
    }
    const thrown = thrownBy(() => applyDelta({ content: 'a' }, 'append', '', value))
    expect(thrown).toBe(boom)
    expect(thrown).not.toBeInstanceOf(DeltaError)
  })

  it('a write into a frozen props object throws its TypeError unchanged', () => {
    const props = Object.freeze({ content: 'a' }) as Record<string, unknown>
    const thrown = thrownBy(() => applyDelta(props, 'append', '', { content: 'b' }))
    expect(thrown).toBeInstanceOf(TypeError)
    expect(thrown).not.toBeInstanceOf(DeltaError)
    expect(props).toStrictEqual({ content: 'a' })
  })
})

describe('a merge at a path', () => {
  it('an object into an object merges deeply, keeping what it does not name', () => {
    const props: Record<string, unknown> = { input: { a: 1, deep: { x: 1 } } }
    applyDelta(props, 'merge', 'input', { b: 2, deep: { y: 2 } })
    expect(props).toStrictEqual({ input: { a: 1, b: 2, deep: { x: 1, y: 2 } } })
  })

  it('a scalar where nothing is sets it', () => {
    const props: Record<string, unknown> = {}
    applyDelta(props, 'merge', 'title', 'x')
    applyDelta(props, 'merge', 'count', 3)
    expect(props).toStrictEqual({ title: 'x', count: 3 })
  })

  it('a scalar, null or an array over an object replaces the object', () => {
    const props: Record<string, unknown> = { a: { x: 1 }, b: { x: 1 }, c: { x: 1 } }
    applyDelta(props, 'merge', 'a', 5)
    applyDelta(props, 'merge', 'b', null)
    applyDelta(props, 'merge', 'c', [1, 2])
    expect(props).toStrictEqual({ a: 5, b: null, c: [1, 2] })
  })

  it('an object over a scalar or an array replaces it', () => {
    const props: Record<string, unknown> = { title: 'abc', list: [1], none: null }
    applyDelta(props, 'merge', 'title', { x: 1 })
    applyDelta(props, 'merge', 'list', { y: 2 })
    applyDelta(props, 'merge', 'none', { z: 3 })
    expect(props).toStrictEqual({ title: { x: 1 }, list: { y: 2 }, none: { z: 3 } })
  })

  it('in the fold: an object merges, a scalar replaces, and nothing is a problem', () => {
    const state = after(
      { input: { a: 1 }, title: 'old' },
      delta('merge', 'input', { b: 2 }),
      delta('merge', 'title', { text: 'new' }),
      delta('merge', 'input', 'flat'),
    )
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ input: 'flat', title: { text: 'new' } })
    expect(state.turns.t1!.problems).toStrictEqual([])
  })
})

describe('a delta at the root takes only an object', () => {
  const actions: DeltaAction[] = ['append', 'merge', 'replace', 'set']

  it('each action refuses a value that is not an object, naming the action and the type', () => {
    const cases: [unknown, string][] = [['x', 'string'], [5, 'number'], [null, 'null'], [[1], 'array'], [true, 'boolean']]
    for (const action of actions) {
      for (const [value, type] of cases) {
        const props: Record<string, unknown> = { content: 'kept' }
        const thrown = thrownBy(() => applyDelta(props, action, '', value))
        expect(thrown, `${action} ${type}`).toBeInstanceOf(PathError)
        expect((thrown as PathError).message).toBe(`a ${action} at the root needs an object, got ${type}`)
        expect(props).toStrictEqual({ content: 'kept' })
      }
    }
  })

  it('the fold records the refusal as a message.delta problem and keeps the props', () => {
    const state = after({ content: 'kept' }, delta('set', '', 'text'), delta('replace', '', [1]), delta('merge', '', null))
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ content: 'kept' })
    expect(state.turns.t1!.problems).toStrictEqual([
      problem('a set at the root needs an object, got string'),
      problem('a replace at the root needs an object, got array'),
      problem('a merge at the root needs an object, got null'),
    ])
  })

  it('with an object: set assigns, replace drops the rest, merge merges deeply, append appends', () => {
    const base = () => ({ content: 'a', input: { x: 1 } }) as Record<string, unknown>
    const set = base()
    applyDelta(set, 'set', '', { input: { y: 2 } })
    expect(set).toStrictEqual({ content: 'a', input: { y: 2 } })
    const replaced = base()
    applyDelta(replaced, 'replace', '', { input: { y: 2 } })
    expect(replaced).toStrictEqual({ input: { y: 2 } })
    const merged = base()
    applyDelta(merged, 'merge', '', { input: { y: 2 } })
    expect(merged).toStrictEqual({ content: 'a', input: { x: 1, y: 2 } })
    const appended = base()
    applyDelta(appended, 'append', '', { content: 'b', input: { y: 2 } })
    expect(appended).toStrictEqual({ content: 'ab', input: { x: 1, y: 2 } })
  })
})
