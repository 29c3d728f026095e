/**
 * No lookup by a server string reads an inherited property: a Yao message type
 * or a Vocion retrieval stage named after an Object.prototype member stays a
 * plain string all the way to the model.
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { selectTraceList } from '../../../src/core/store/selectors'
import { messageIn } from '../../../src/core/model/message-table'

const INHERITED = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']

describe('wire strings never find Object.prototype', () => {
  for (const name of INHERITED) {
    it(`Yao type "${name}" becomes a message of type "${name}", a string`, () => {
      const state = foldStream([{ chunk_id: 'C1', message_id: 'M1', type: name, props: { content: 'x' } }], { protocol: 'yao' })
      const message = messageIn(state.messages, 'turn-1/M1')!
      expect(typeof message.type).toBe('string')
      expect(message.type).toBe(name)
    })

    it(`Vocion retrieval stage "${name}" gets a text label`, () => {
      const state = foldStream([{ type: 'retrieval_progress', stage: name, meta: {} }], { protocol: 'vocion' })
      const [row] = selectTraceList(state, 'turn-1')
      expect(row!.label).toBe(`Searching… (${name})`)
    })
  }

  it('the known names still map', () => {
    const yao = foldStream([{ chunk_id: 'C1', message_id: 'M1', type: 'thinking', props: { content: 'x' } }], { protocol: 'yao' })
    expect(messageIn(yao.messages, 'turn-1/M1')!.type).toBe('reasoning')
    const vocion = foldStream([{ type: 'retrieval_progress', stage: 'complete', meta: { hits: 2 } }], { protocol: 'vocion' })
    expect(selectTraceList(vocion, 'turn-1')[0]!.label).toBe('Searched · 2 hits')
  })
})
