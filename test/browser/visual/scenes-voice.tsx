/**
 * Screenshot scenes of voice: the composer's dictation button idle, listening
 * (interim words in the text) and failed (the reason on its own line), and the
 * read-aloud action idle under one answer and speaking under the next. Each
 * state is reached as a person would: a press, then the adapter's reports.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Composer } from '../../../src/components/composer'
import { Transcript } from '../../../src/components/transcript'
import { VoiceSettingsProvider } from '../../../src/components/voice'
import type { Op } from '../../../src/core/model/ops'
import { handDictation, handReadAloud, type HandDictationSession } from '../../helpers/voice'
import type { Scene } from './scenes'

/** A composer with a dictation adapter, pressed and then told what `drive` says. */
function DictationIn({ typed, drive }: { typed?: string; drive?: (session: HandDictationSession) => void }) {
  const [adapter] = useState(() => handDictation())
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!drive) return
    box.current!.querySelector<HTMLButtonElement>('[data-weft="composer-dictate"]')!.click()
    drive(adapter.last())
  }, [])
  return (
    <div ref={box}>
      <VoiceSettingsProvider dictation={adapter}>
        <Composer send={() => undefined} stop={() => undefined} defaultValue={typed} />
      </VoiceSettingsProvider>
    </div>
  )
}

function Stack({ children }: { children: ReactNode }) {
  return <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>{children}</div>
}

const exchange = (n: number, question: string, answer: string): Op[] => [
  { op: 'turn.open', turnId: `u${n}`, role: 'user' },
  { op: 'message.put', turnId: `u${n}`, messageId: `u${n}/m`, role: 'user', type: 'text', status: 'done', props: { content: question } },
  { op: 'turn.finish', turnId: `u${n}`, status: 'done' },
  { op: 'turn.open', turnId: `a${n}`, role: 'assistant' },
  { op: 'message.put', turnId: `a${n}`, messageId: `a${n}/text`, type: 'text', status: 'done', props: { content: answer } },
  { op: 'turn.finish', turnId: `a${n}`, status: 'done' },
]

/** The transcript with read-aloud on, the second answer's action pressed. */
function Reading() {
  const [adapter] = useState(() => handReadAloud())
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    box.current!.querySelectorAll<HTMLButtonElement>('[data-weft="read-aloud"]')[1]!.click()
  }, [])
  return (
    <div ref={box}>
      <VoiceSettingsProvider readAloud={adapter}>
        <Transcript.Root />
      </VoiceSettingsProvider>
    </div>
  )
}

export const scenes: Scene[] = [
  {
    name: 'voice-dictation',
    ops: [],
    view: () => (
      <Stack>
        <DictationIn />
        <DictationIn typed="Book a table" drive={(session) => { session.started(); session.interim('for two at eight') }} />
        <DictationIn drive={(session) => { session.error('not-allowed'); session.end() }} />
      </Stack>
    ),
  },
  {
    name: 'voice-read-aloud',
    ops: [
      ...exchange(1, 'Will it rain in Paris today?', 'Yes: light rain from **3 pm**, about 2 mm.'),
      ...exchange(2, 'And tomorrow?', 'Tomorrow looks dry until the evening, with a high of 20 °C.'),
    ],
    view: () => <Reading />,
  },
]
