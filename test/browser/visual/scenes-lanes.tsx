/**
 * Screenshot scenes of sub-agent lanes: AG-UI's two sub-agents (one finished,
 * one failed) in the transcript and on the open timeline, as they land (the
 * finished lane collapsed, the failed one open), with one lane focused, and with
 * one hidden and the other opened.
 */
import { useEffect } from 'react'
import { Trace } from '../../../src/components/trace'
import { Transcript } from '../../../src/components/transcript'
import { useLaneView, type LaneView } from '../../../src/components/lane-view'
import type { Op } from '../../../src/core/model/ops'
import { agUiProtocol } from '../../../src/protocols/ag-ui/index'
import { getFixture } from '../../../src/testing/get-fixture'
import type { Scene } from './scenes'

function subagents(): Op[] {
  const decoder = agUiProtocol.create({ turnId: 'turn-1', scope: 'turn-1' })
  const ops: Op[] = [
    { op: 'turn.open', turnId: 'user-1', role: 'user' },
    { op: 'message.put', turnId: 'user-1', messageId: 'user-1/m', role: 'user', type: 'text', status: 'done', props: { content: 'Is weft 1.0 out?' } },
    { op: 'turn.finish', turnId: 'user-1', status: 'done' },
    { op: 'turn.open', turnId: 'turn-1', role: 'assistant' },
  ]
  for (const frame of getFixture('ag-ui', 'subagents').frames) {
    if (frame.data !== undefined) ops.push(...decoder.decode(frame.data, { event: frame.event, id: frame.id }))
  }
  return [...ops, ...decoder.end('eof')]
}

/** Makes a person's choice once, as a click would. */
function Choose({ threadId, choice }: { threadId: string; choice: (view: LaneView) => void }) {
  const view = useLaneView(threadId)
  useEffect(() => choice(view), [])
  return null
}

const Both = () => (
  <>
    <Transcript.Root />
    <Trace.Disclosure turnId="turn-1" open />
  </>
)

export const scenes: Scene[] = [
  { name: 'lanes', ops: subagents(), view: () => <Both /> },
  { name: 'lanes-focused', ops: subagents(), view: () => <><Choose threadId="sub_web" choice={(v) => v.focus()} /><Both /></> },
  {
    name: 'lanes-hidden',
    ops: subagents(),
    view: () => <><Choose threadId="sub_docs" choice={(v) => v.hide()} /><Choose threadId="sub_web" choice={(v) => v.open()} /><Both /></>,
  },
]
