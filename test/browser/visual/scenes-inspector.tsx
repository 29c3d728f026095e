/**
 * Screenshot scenes of the inspector panel (weft/inspector): a turn's request
 * (headers with a redacted value, the body), its frames with one that became a
 * problem, problems, timings and usage; then the same with the first frame
 * opened to its raw data and ops, and the panel before any turn.
 */
import { useEffect, useRef } from 'react'
import { Inspector } from '../../../src/inspector/panel'
import type { InspectedFrame, InspectorSnapshot } from '../../../src/inspector/snapshot'
import type { Op } from '../../../src/core/model/ops'
import type { Scene } from './scenes'

const T0 = 1_700_000_000_000
const turnId = 'turn-a1'

const frame = (index: number, offsetMs: number, data: unknown, ops: Op[], extra: Partial<InspectedFrame> = {}): InspectedFrame => ({
  index, request: 0, at: T0 + offsetMs, offsetMs, data: typeof data === 'string' ? data : JSON.stringify(data), ops,
  problems: ops.filter((op) => op.op === 'problem').length, ...extra,
})

/** A fixed snapshot: what an inspector holds after one ui-message turn with a malformed frame. */
export const inspectedSnapshot: InspectorSnapshot = {
  droppedTurns: 0,
  maxFramesPerTurn: 2000,
  turns: [{
    turnId,
    protocol: 'ui-message',
    status: 'done',
    requests: [{
      index: 0, kind: 'request', trigger: 'submit', url: '/api/chat', method: 'POST', at: T0,
      headers: { authorization: '[redacted]', 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-1', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Weather in Lyon?' }] }], trigger: 'submit-message' }),
    }],
    frames: [
      frame(0, 412, { type: 'start', messageId: 'msg-1' }, [{ op: 'turn.update', turnId, metadata: { messageId: 'msg-1' } }]),
      frame(1, 430, { type: 'text-start', id: 't1' }, [{ op: 'message.put', turnId, messageId: 'm-t1', type: 'text', role: 'assistant', status: 'streaming', props: { content: '' } }]),
      frame(2, 655, { type: 'text-delta', id: 't1', delta: 'Lyon is sunny, ' }, [{ op: 'message.delta', turnId, messageId: 'm-t1', type: 'text', role: 'assistant', action: 'append', path: 'content', value: 'Lyon is sunny, ' }]),
      frame(3, 702, '{"type":"text-delta","id":', [{ op: 'problem', turnId, error: { type: 'protocol', message: 'frame is not JSON', retryable: false, detail: '{"type":"text-delta","id":' } }]),
      frame(4, 760, { type: 'text-delta', id: 't1', delta: '24 °C.' }, [{ op: 'message.delta', turnId, messageId: 'm-t1', type: 'text', role: 'assistant', action: 'append', path: 'content', value: '24 °C.' }]),
      frame(5, 810, { type: 'finish' }, [{ op: 'turn.finish', turnId, status: 'done' }]),
      frame(6, 812, '[DONE]', []),
    ],
    droppedFrames: 0,
    ends: [{ outcome: 'done', at: T0 + 820 }],
    timing: { runs: [{ startedAt: T0, firstTokenAt: T0 + 655, endedAt: T0 + 810 }] },
    usage: { inputTokens: 812, outputTokens: 19, totalTokens: 831, model: 'gpt-4o' },
    problems: [{ type: 'protocol', message: 'frame is not JSON', retryable: false, detail: '{"type":"text-delta","id":' }],
  }],
}

/** The panel with its first frame opened, as a developer reading it would. */
function OpenedFirstFrame() {
  const root = useRef<HTMLElement>(null)
  useEffect(() => {
    const details = root.current?.querySelector<HTMLDetailsElement>('[data-weft="wire-frame"] details')
    if (details) details.open = true
  }, [])
  return <Inspector ref={root} snapshot={inspectedSnapshot} download={false} />
}

export const scenes: Scene[] = [
  { name: 'inspector', ops: [], view: () => <Inspector snapshot={inspectedSnapshot} download={false} /> },
  { name: 'inspector-frame-open', ops: [], view: () => <OpenedFirstFrame /> },
  { name: 'inspector-empty', ops: [], view: () => <Inspector snapshot={{ turns: [], droppedTurns: 0, maxFramesPerTurn: 2000 }} /> },
]
