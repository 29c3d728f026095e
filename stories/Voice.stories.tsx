import type { Meta, StoryObj } from '@storybook/react-vite'
import { useMemo } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import { Chat, Composer, Transcript, VoiceSettingsProvider, type VoiceSettings } from '../src/components'
import type { Op } from '../src/core'
import { createAgentStore } from '../src/core/store/store'
import { AgentProvider } from '../src/umbrella/providers'
import { webSpeechDictation, webSpeechReadAloud } from '../src/voice'
import { scriptedDictation, scriptedReadAloud } from './support/voice'

/**
 * Voice, off until the host gives adapters (`VoiceSettingsProvider`): a
 * microphone in the composer that writes what it hears at the caret, words not
 * yet settled shown live, and "Read aloud" under each answer. These stories use
 * scripted adapters that work in any browser; "Web Speech" uses the browser's own.
 */
const answered: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', status: 'done', props: { content: 'How do I check the weather from a terminal?' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  {
    op: 'message.put', turnId: 'a1', messageId: 'a1/text', type: 'text', status: 'done',
    props: { content: 'Use **wttr.in** with curl [1]:\n\n```sh\ncurl wttr.in/Paris\n```\n\nAdd `?format=3` for a one-line forecast.' },
  },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  { op: 'turn.open', turnId: 'u2', role: 'user' },
  { op: 'message.put', turnId: 'u2', messageId: 'u2/m', role: 'user', type: 'text', status: 'done', props: { content: 'And will it rain tomorrow?' } },
  { op: 'turn.finish', turnId: 'u2', status: 'done' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'message.put', turnId: 'a2', messageId: 'a2/text', type: 'text', status: 'done', props: { content: 'Tomorrow looks dry until the evening, with a high of 20 °C.' } },
  { op: 'turn.finish', turnId: 'a2', status: 'done' },
]

function VoiceChat({ settings, text }: { settings: () => VoiceSettings; text?: string }) {
  const store = useMemo(() => {
    const s = createAgentStore()
    s.getState().dispatch(answered)
    return s
  }, [])
  const voice = useMemo(settings, [])
  return (
    <AgentProvider store={store}>
      <VoiceSettingsProvider {...voice}>
        <div style={{ height: 560, display: 'flex', flexDirection: 'column' }}>
          <Chat footer={<Composer send={() => undefined} defaultValue={text} />}>
            <Transcript.Root />
          </Chat>
        </div>
      </VoiceSettingsProvider>
    </AgentProvider>
  )
}

const meta = {
  title: 'Conversation/Voice',
  component: VoiceChat,
  args: {
    settings: (): VoiceSettings => ({
      dictation: scriptedDictation(['book a table for two', 'at eight tonight']),
      readAloud: scriptedReadAloud(),
      lang: 'en-US',
    }),
  },
} satisfies Meta<typeof VoiceChat>

export default meta
type Story = StoryObj<typeof meta>

const textbox = (canvasElement: HTMLElement) => within(canvasElement).getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' })

/** Dictation: press the microphone; the words come in live and settle; a second press stops and keeps them. */
export const Dictation: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Dictate' }))
    expect(canvas.getByRole('button', { name: 'Stop dictation' }).getAttribute('data-state')).toBe('listening')
    await waitFor(() => expect(textbox(canvasElement).value).toBe('book a table for two'), { timeout: 5000 })
    await waitFor(() => expect(textbox(canvasElement).value).toMatch(/^book a table for two at/), { timeout: 5000 })
    await userEvent.click(canvas.getByRole('button', { name: 'Stop dictation' }))
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Dictate' }).getAttribute('data-state')).toBe('idle'))
    expect(textbox(canvasElement).value).toMatch(/^book a table for two at/)
  },
}

/** The person typed first: the dictated words go in after their text, spaced, and Escape drops the words not yet settled. */
export const AroundTypedText: Story = {
  args: { text: 'Reservation:' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Dictate' }))
    await waitFor(() => expect(textbox(canvasElement).value).toBe('Reservation: book a table for two'), { timeout: 5000 })
    await waitFor(() => expect(textbox(canvasElement).value).not.toBe('Reservation: book a table for two'), { timeout: 5000 })
    textbox(canvasElement).focus()
    await userEvent.keyboard('{Escape}')
    expect(textbox(canvasElement).value).toBe('Reservation: book a table for two')
    expect(canvas.getByRole('button', { name: 'Dictate' })).toBeTruthy()
  },
}

/** The microphone refused: the button turns to its error state and the reason is shown and announced. */
export const PermissionDenied: Story = {
  args: { settings: () => ({ dictation: scriptedDictation([], { fail: 'not-allowed' }) }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Dictate' }))
    await waitFor(() => expect(canvas.getByRole('status').textContent).toBe('Microphone access was denied'))
    expect(canvas.getByRole('button', { name: 'Dictate' }).getAttribute('data-state')).toBe('error')
  },
}

/** Read aloud: one answer at a time, its action Stop while it speaks (code blocks and citation markers are not read). */
export const ReadAloud: Story = {
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const [first, second] = canvas.getAllByRole('button', { name: 'Read aloud' })
    await userEvent.click(first!)
    expect(first!.getAttribute('data-state')).toBe('speaking')
    await userEvent.click(second!)
    expect(first!.getAttribute('data-state')).toBe('idle')
    expect(second!.getAttribute('data-state')).toBe('speaking')
    await userEvent.click(canvas.getByRole('button', { name: 'Stop reading' }))
    expect(canvasElement.querySelectorAll('[data-weft="read-aloud"][data-state="speaking"]')).toHaveLength(0)
  },
}

/** Without adapters (the default) there is no microphone and no read-aloud action. */
export const Off: Story = {
  args: { settings: () => ({}) },
  play: async ({ canvasElement }) => {
    expect(canvasElement.querySelector('[data-weft="composer-dictate"]')).toBeNull()
    expect(canvasElement.querySelector('[data-weft="read-aloud"]')).toBeNull()
  },
}

/**
 * The browser's own Web Speech: `webSpeechDictation()` and `webSpeechReadAloud()`.
 * Where the browser has no recognition (Firefox) the microphone is not drawn. In
 * Chrome and Edge the recognition runs on the vendor's servers: the audio leaves the device.
 */
export const WebSpeech: Story = {
  args: { settings: () => ({ dictation: webSpeechDictation(), readAloud: webSpeechReadAloud() }) },
  play: async ({ canvasElement }) => {
    const hasRecognition = 'SpeechRecognition' in window || 'webkitSpeechRecognition' in window
    expect(canvasElement.querySelector('[data-weft="composer-dictate"]') !== null).toBe(hasRecognition)
    expect(canvasElement.querySelector('[data-weft="read-aloud"]') !== null).toBe('speechSynthesis' in window)
  },
}
