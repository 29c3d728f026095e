import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import {
  Attachments, BranchPicker, Composer, Gates, StatusBar, Transcript, TurnError, WeftCallbacksProvider, useAttachments,
  type GateAnswer, type GateAnswerDetail,
} from '../src/components'
import type { Gate, ProtocolName } from '../src/core/model/model'
import { useAgentSelector, useAgentStream, type AgentStreamHandle } from '../src/react'
import { AgentProvider } from '../src/umbrella/providers'
import { STREAM_TIMEOUT } from './support/play'
import { allLoopHandlers, LOOP_URL } from './testing/loop-agent'

/**
 * The conversation loop, live against a scripted agent (`POST /api/loop/<protocol>`)
 * that Mock Service Worker serves with weft/testing/msw's `agentHandlers({ reply })`,
 * so these stories stream in a static `build-storybook` too. It answers the request
 * weft builds for each protocol: approve → continue, a client tool (`getLocation`),
 * regenerate, edit and switching branches. Yao defines no gate and no client tool,
 * and Vocion no client tool (its tools run on the server), so those protocols show
 * what they have.
 */
function LoopChat({ protocol, prompt = 'Hello' }: { protocol: ProtocolName; prompt?: string }) {
  return (
    <AgentProvider>
      <LoopChatInner protocol={protocol} prompt={prompt} />
    </AgentProvider>
  )
}

function LoopChatInner({ protocol, prompt }: { protocol: ProtocolName; prompt: string }) {
  const chat = useAgentStream({
    url: `${LOOP_URL}/${protocol}`, protocol,
    tools: { getLocation: { description: 'The user\'s city', execute: async () => ({ city: 'Lyon' }) } },
    // A Vocion gate names where its answer goes; this host allows only its own agent's paths.
    continueGate: async (gate, response) => {
      if (!gate.url?.startsWith(`${LOOP_URL}/`)) throw new Error(`not sending an answer to ${gate.url ?? 'nowhere'}`)
      return { url: gate.url, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(response) }
    },
  })
  return (
    <WeftCallbacksProvider
      onGateAnswer={(gate: Gate, answer: GateAnswer, detail?: GateAnswerDetail) => void chat.answer(
        gate.id,
        // A gate that asks for words gets them; an approval gets yes or no, with the reason if one was given.
        answer === 'answered' ? { value: detail?.value ?? '' } : { approved: answer === 'approved', ...(detail?.reason ? { reason: detail.reason } : {}) },
      )}
    >
      <Attachments.Root limits={{ maxCount: 3, maxSize: 2_000_000 }}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
          <Transcript.Root>{(id) => <LoopTurn turnId={id} chat={chat} />}</Transcript.Root>
          <Attachments.List />
          <Attachments.Button />
          <SendBox chat={chat} prompt={prompt} />
          <StatusBar />
        </div>
      </Attachments.Root>
    </WeftCallbacksProvider>
  )
}

function SendBox({ chat, prompt }: { chat: AgentStreamHandle; prompt: string }) {
  const { take } = useAttachments()
  return <Composer send={(text) => chat.send({ text, files: take() })} stop={chat.stop} defaultValue={prompt} placeholder="Try: delete the report, where am I?" />
}

function LoopTurn({ turnId, chat }: { turnId: string; chat: AgentStreamHandle }) {
  const role = useAgentSelector((s) => s.turns[turnId]?.role)
  return (
    <Transcript.Turn turnId={turnId}>
      <Transcript.Content />
      <Gates />
      <TurnError />
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <BranchPicker turnId={turnId} />
        {role === 'assistant' && <button type="button" onClick={() => void chat.regenerate(turnId)}>Regenerate</button>}
        {role === 'user' && <EditQuestion turnId={turnId} chat={chat} />}
      </div>
    </Transcript.Turn>
  )
}

function EditQuestion({ turnId, chat }: { turnId: string; chat: AgentStreamHandle }) {
  const [draft, setDraft] = useState<string | undefined>()
  if (draft === undefined) return <button type="button" onClick={() => setDraft('')}>Edit</button>
  return (
    <form onSubmit={(event) => {
      event.preventDefault()
      setDraft(undefined)
      if (draft.trim()) void chat.edit(turnId, draft.trim())
    }}>
      <input aria-label="Edited question" value={draft} onChange={(event) => setDraft(event.target.value)} />
      <button type="submit">Save</button>
    </form>
  )
}

const meta = {
  title: 'Conversation/Loop',
  component: LoopChat,
  args: { protocol: 'ui-message' },
  parameters: { msw: { handlers: { loop: allLoopHandlers } } },
} satisfies Meta<typeof LoopChat>

export default meta
type Story = StoryObj<typeof meta>

async function sendText(canvasElement: HTMLElement, text: string) {
  const canvas = within(canvasElement)
  const box = canvas.getByPlaceholderText('Try: delete the report, where am I?')
  await userEvent.clear(box)
  await userEvent.type(box, text)
  await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
  await settled(canvasElement)
}

async function settled(canvasElement: HTMLElement) {
  await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
}

/** The answer text of each assistant turn (its messages, not its buttons). */
const answers = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll('[data-weft="turn"][data-role="assistant"]')].map((turn) =>
    [...turn.querySelectorAll('[data-type="text"]')].map((m) => m.textContent ?? '').join(' '))

async function approveThenContinue(canvasElement: HTMLElement) {
  await sendText(canvasElement, 'please delete the report')
  const canvas = within(canvasElement)
  await userEvent.click(await canvas.findByRole('button', { name: 'Approve' }, { timeout: STREAM_TIMEOUT }))
  await waitFor(() => expect(answers(canvasElement).at(-1)).toContain('Done: the report is deleted.'), { timeout: STREAM_TIMEOUT })
  await settled(canvasElement)
  await expect(canvasElement.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).toBe('approved')
}

async function clientTool(canvasElement: HTMLElement) {
  await sendText(canvasElement, 'where am I?')
  await waitFor(() => expect(answers(canvasElement).at(-1)).toContain('You are in Lyon.'), { timeout: STREAM_TIMEOUT })
  await settled(canvasElement)
}

async function regenerateAndSwitch(canvasElement: HTMLElement) {
  await sendText(canvasElement, 'hello')
  const canvas = within(canvasElement)
  const first = answers(canvasElement).at(-1)
  await userEvent.click(canvas.getAllByRole('button', { name: 'Regenerate' }).at(-1)!)
  await settled(canvasElement)
  await waitFor(() => expect(canvas.getByRole('group', { name: 'Version 2 of 2' })).toBeTruthy(), { timeout: STREAM_TIMEOUT })
  await expect(answers(canvasElement).at(-1)).not.toBe(first)
  await userEvent.click(canvas.getByRole('button', { name: 'Previous version' }))
  await expect(answers(canvasElement).at(-1)).toBe(first)
  // Edit the question: a new branch with its own answer; the old question stays one click away.
  const edits = canvas.getAllByRole('button', { name: 'Edit' })
  await userEvent.click(edits.at(-1)!)
  await userEvent.type(canvas.getByRole('textbox', { name: 'Edited question' }), 'hi there')
  await userEvent.click(canvas.getByRole('button', { name: 'Save' }))
  await settled(canvasElement)
  await waitFor(() => expect(answers(canvasElement).at(-1)).toContain('to “hi there”'), { timeout: STREAM_TIMEOUT })
}

/** AI SDK chat requests: approve, and the answer goes on in the same turn. */
export const UiMessageApproval: Story = {
  args: { protocol: 'ui-message' },
  play: async ({ canvasElement }) => approveThenContinue(canvasElement),
}

/** AI SDK chat requests: the client tool `getLocation` runs in the browser, and the answer goes on. */
export const UiMessageClientTool: Story = {
  args: { protocol: 'ui-message' },
  play: async ({ canvasElement }) => clientTool(canvasElement),
}

/** An AG-UI interrupt asks for words: the answer resumes the run. */
async function answerInterrupt(canvasElement: HTMLElement) {
  await sendText(canvasElement, 'please delete the report')
  const canvas = within(canvasElement)
  const box = await canvas.findByRole('textbox', { name: 'Your answer' }, { timeout: STREAM_TIMEOUT })
  await userEvent.type(box, 'yes, delete it')
  await userEvent.click(canvas.getByRole('button', { name: 'Submit' }))
  await waitFor(() => expect(answers(canvasElement).at(-1)).toContain('Done: the report is deleted.'), { timeout: STREAM_TIMEOUT })
  await settled(canvasElement)
  await expect(canvasElement.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).toBe('answered')
}

/** AI SDK chat requests: regenerate, switch back, edit. */
export const UiMessageBranches: Story = {
  args: { protocol: 'ui-message' },
  play: async ({ canvasElement }) => regenerateAndSwitch(canvasElement),
}

/** AG-UI runs: an interrupt answered in words, resumed with `resume`. */
export const AgUiInterrupt: Story = {
  args: { protocol: 'ag-ui' },
  play: async ({ canvasElement }) => answerInterrupt(canvasElement),
}

/** AG-UI runs: a frontend tool declared in `RunAgentInput.tools`, its result sent as a `tool` message. */
export const AgUiFrontendTool: Story = {
  args: { protocol: 'ag-ui' },
  play: async ({ canvasElement }) => clientTool(canvasElement),
}

/** AG-UI runs: regenerate, switch back, edit. */
export const AgUiBranches: Story = {
  args: { protocol: 'ag-ui' },
  play: async ({ canvasElement }) => regenerateAndSwitch(canvasElement),
}

/** Yao chat requests: regenerate, switch back, edit. */
export const Yao: Story = {
  args: { protocol: 'yao' },
  play: async ({ canvasElement }) => regenerateAndSwitch(canvasElement),
}

/** Vocion: a `hitl_gate` approved; the host's continueGate posts the answer to the gate's resumeUrl and the turn goes on. */
export const VocionApproval: Story = {
  args: { protocol: 'vocion' },
  play: async ({ canvasElement }) => approveThenContinue(canvasElement),
}

/** Vocion requests: regenerate, switch back, edit. */
export const Vocion: Story = {
  args: { protocol: 'vocion' },
  play: async ({ canvasElement }) => regenerateAndSwitch(canvasElement),
}
