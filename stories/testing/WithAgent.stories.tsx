import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { situations } from '../../src/testing/fixtures'
import type { BuiltInProtocol } from '../../src/testing/frames'
import { agentArgTypes, agentTurnEnd, withAgent, type AgentArgs } from '../../src/testing/storybook'
import { SupportChat, type SupportChatProps } from './SupportChat'

/**
 * weft/testing/storybook: a host component under `withAgent`. The decorator
 * streams a shipped fixture through a mock fetch; the controls pick the
 * scenario, protocol, pace, where the connection drops and whether it resumes.
 */
const meta = {
  title: 'Testing/withAgent decorator',
  component: SupportChat,
  args: { initialQuestion: 'Is the release ready?' },
  decorators: [withAgent({ protocol: 'vocion', scenario: 'plain', pace: 20 })],
  argTypes: agentArgTypes,
} satisfies Meta<SupportChatProps & AgentArgs>

export default meta
type Story = StoryObj<SupportChatProps & AgentArgs>

/** The plain answer, streamed at 20 ms a frame. */
export const PlainAnswer: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('done')
    await expect(canvas.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
  },
}

/** The pace control on the token rhythm: a first-token wait, then a rhythm that follows each frame's size. */
export const TokenRhythm: Story = {
  args: { agentPace: 'tokens' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvasElement.querySelector('[data-weft-agent-stage]')?.getAttribute('data-pace')).toBe('tokens')
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('done')
    await expect(canvas.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
  },
}

/** A scenario the chosen protocol lacks (Yao carries no sources): its plain answer plays, and a note says so. */
export const ScenarioTheProtocolLacks: Story = {
  args: { agentProtocol: 'yao', agentScenario: 'sources' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByRole('note').textContent).toMatch(/^yao has no “sources” scenario, so its plain answer \(streaming-text\) plays instead\./)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('done')
    await expect(canvas.getByTestId('turn-assistant').textContent).toBe('Hello World!')
  },
}

/** The scenario control, set to a UI message stream that fails mid-answer. */
export const ErrorMidStream: Story = {
  args: { agentProtocol: 'ui-message', agentScenario: 'error-mid-stream' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('error')
    await expect(canvas.getByRole('alert').textContent).toBe('Something went wrong: The model provider returned 503: overloaded')
  },
}

/** The drop slider at 4 with resume switched off: the long answer stops after four frames and the turn ends in a network error. */
export const DroppedAtFour: Story = {
  args: { agentProtocol: 'ag-ui', agentScenario: 'long-answer', agentDropAt: 4, agentResume: false, agentTheme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('error')
    await expect(canvas.getByRole('alert').textContent).toMatch(/^Something went wrong: Connection lost/)
    await expect(canvas.getByTestId('turn-assistant').querySelector('p')?.textContent).toBe('Paragraph 1: ')
  },
}

/**
 * The drop slider on each protocol's plain answer: the connection drops after
 * the second piece of text (frame 4; 7 in the UI message stream, whose text starts later), the client reconnects the protocol's way, and the
 * answer is whole with nothing twice. (40 ms a frame, so the store has shown the
 * first frames before the drop, as on a real network.)
 */
function dropsAndResumes(protocol: BuiltInProtocol, answer: string, dropAt = 4): Story {
  return {
    args: { agentProtocol: protocol, agentScenario: situations.plain[protocol], agentDropAt: dropAt, agentPace: 40 },
    play: async ({ canvasElement }) => {
      const canvas = within(canvasElement)
      await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
      const end = await agentTurnEnd(canvasElement)
      await expect(canvas.queryByRole('alert')?.textContent ?? end).toBe('done')
      await expect(canvas.getByTestId('turn-assistant').textContent).toBe(answer)
      // The first connection and one reconnect.
      await expect(canvasElement.querySelector('[data-weft-agent-stage]')?.getAttribute('data-requests')).toBe('2')
    },
  }
}

const PLAIN = 'Hello! The build is green and the release is ready.'
/** Vocion: `GET <resume>?id=<streamId>&after=<count>`. */
export const DropAtFourResumesVocion = dropsAndResumes('vocion', PLAIN)
/** Yao tasks: `GET <resume>?since=<sequence>`, then `read_complete`. */
export const DropAtFourResumesYao = dropsAndResumes('yao', 'Hello World!')
/** AI SDK: `GET <resume>/<chatId>/stream` replays from the start; the client drops what it has. */
export const DropAtSevenResumesUiMessage = dropsAndResumes('ui-message', '向量数据库是一种专为存储和检索高维向量而设计的数据库...', 7)
/** AG-UI: the same stream again with `Last-Event-ID`. */
export const DropAtFourResumesAgUi = dropsAndResumes('ag-ui', PLAIN)
/** LangGraph: `GET <resume>` with `Last-Event-ID`, the run's events after it; its long run is a few words per frame. */
export const DropAtFourRejoinsLangGraph = dropsAndResumes('langgraph', Array.from({ length: 40 }, (_, i) => `w${i + 1}`).join(' '))
