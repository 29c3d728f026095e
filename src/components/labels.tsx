/**
 * Every string the components show or announce, in one object. English by
 * default; a host passes its own (whole or in part) to `LabelsProvider`.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react'
import type { WeftError } from '../core/model/errors'
import type { VoiceError } from '../voice/types'
import { formatCost } from './format'

/**
 * The visible and announced strings of the components.
 *
 * @example
 * const labels: Partial<WeftLabels> = { send: 'Ask', stop: 'Cancel' }
 */
export interface WeftLabels {
  conversation: string
  lane: string
  /** A lane's status on its summary line: `open` (running), `done` or `error`. */
  laneStatus: (status: string) => string
  /** What a lane's summary counts in the transcript: "2 messages". */
  laneMessages: (count: number) => string
  /** The focus button's text, and its name with the lane's: "Focus", "Focus web-researcher". */
  laneFocusShort: string
  laneFocus: (name: string) => string
  /** The hide button's text, and its name with the lane's. */
  laneHideShort: string
  laneHide: (name: string) => string
  /** While one lane is focused: what the bar says, and the way back. */
  laneFocused: (name: string) => string
  laneShowAll: string
  /** The button that shows a turn's hidden lanes again. */
  laneRestore: (count: number) => string
  workTimeline: string
  traceDetails: string
  working: string
  steps: (count: number) => string
  sources: string
  sourceCount: (count: number) => string
  suggestions: string
  message: string
  /** The composer's placeholder when the host gives none. */
  composerPlaceholder: string
  /** The list of messages sent while the agent ran, waiting to go. */
  queuedMessages: string
  /** Under a queued message while the agent runs. */
  queueWaiting: string
  /** Under a queued message a stop or a failure held back. */
  queueHeld: string
  /** The files a queued message carries: "1 file". */
  queuedFiles: (count: number) => string
  sendNow: string
  removeQueued: string
  save: string
  cancelEdit: string
  send: string
  stop: string
  copy: string
  copied: string
  copyCode: string
  copyMarkdown: string
  goodAnswer: string
  badAnswer: string
  regenerate: string
  edit: string
  messageActions: string
  jumpToLatest: string
  thinking: string
  reasoning: string
  tool: string
  /** A group of consecutive tool calls: "Used 3 tools", "Using 3 tools…" while one runs. */
  toolGroup: (count: number, running: boolean) => string
  toolInput: string
  toolOutput: string
  showMore: string
  showLess: string
  /** The disclosure over a data part's whole value, as JSON. */
  rawJson: string
  toolStates: Readonly<Record<'input-streaming' | 'input-available' | 'approval-requested' | 'approval-responded' | 'output-available' | 'output-error' | 'output-denied' | 'called', string>>
  preliminary: string
  approvalNeeded: string
  /**
   * No longer shown: an answered gate's title is its outcome, from `gateStates`.
   * @deprecated Kept so that a host's labels still type-check.
   */
  approvalAnswered: string
  approvalQuestion: string
  approve: string
  reject: string
  reason: string
  submit: string
  answer: string
  gateDetails: string
  gateStates: Readonly<Record<'approved' | 'rejected' | 'answered' | 'expired' | 'cancelled', string>>
  statuses: Readonly<Record<'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'done' | 'error' | 'aborted', string>>
  retry: string
  /** Under an answer whose stream ended before the answer did (a reload with nothing to resume). */
  interrupted: string
  somethingWentWrong: string
  cannotShow: string
  image: string
  file: string
  linkNotShown: string
  /** A recommended action's button when the agent gave it no label. */
  recommendedAction: string
  /** How sure the agent is of a recommendation, 0 to 100: "80% confident". */
  confidence: (percent: number) => string
  stateInspector: string
  /** How long a tool call ran: "850 ms", "2.4 s". */
  duration: (ms: number) => string
  /** The names of a turn's usage figures (`TurnUsage`), each read before its value. */
  usageFigures: Readonly<Record<'input' | 'output' | 'tokens' | 'reasoning' | 'cached' | 'firstToken' | 'total' | 'speed' | 'cost', string>>
  /** A number of tokens: "1,234". */
  tokenCount: (count: number) => string
  /** Output tokens per second: "42 tokens/s". */
  tokensPerSecond: (rate: number) => string
  /** A cost in a currency (ISO 4217, from the host's price table): "$0.012". */
  cost: (amount: number, currency: string) => string
  /** Why nothing can be sent now (a conversation still loading or unreadable), in the composer; default: the refusal's message. */
  sendRefused: (refusal: WeftError) => string
  /** The attach button's name and text. */
  attachFiles: string
  /** The name of an attached file's remove button. */
  removeFile: (name: string) => string
  /** An attached file's size: "1.2 KB". */
  fileSize: (bytes: number) => string
  /** Why a file was not attached (`error.code`: `attachment_count`, `attachment_size`, `attachment_type`); default: the refusal's message. */
  fileRefused: (error: WeftError) => string
  previousVersion: string
  nextVersion: string
  /** The branch picker's name: "Version 2 of 3". */
  versionOf: (position: number, count: number) => string
  /** The thread list's name. */
  conversations: string
  newChat: string
  /** The title of a conversation nothing has been said in yet (stored as the core's `UNTITLED`). */
  untitled: string
  /** The dot on a conversation still answering. */
  answering: string
  /** A stored conversation that failed to load. */
  cannotBeRead: string
  changedInAnotherTab: string
  loadTheirs: string
  keepMine: string
  rename: string
  renameConversation: (title: string) => string
  delete: string
  deleteConversation: (title: string) => string
  /** The undo offer after a delete: "Deleted “Trip plans”." */
  deletedConversation: (title: string) => string
  undo: string
  conversationTitle: string
  /** A conversation whose last save failed (`error.code` `conversation_quota_exceeded` when the browser's storage is full). */
  notSaved: (error: WeftError) => string
  /** Drop this tab's unsaved changes and show the stored conversation. */
  reloadSaved: string
  /** The button that saves a quarantined (unreadable) conversation's record as a JSON file, and its name. */
  export: string
  exportConversation: (title: string) => string
  /** In place of a conversation whose drawing failed (`ConversationBoundary`, and its row in `ThreadList`). */
  conversationNotShown: (idOrTitle: string) => string
  /** The dictation button's name while idle, and while listening. */
  dictate: string
  stopDictation: string
  /** Announced when dictation starts listening. */
  listening: string
  /** Why dictation failed (`error.code`: `not-allowed`, `no-speech`, `audio-capture`, `network`, `unsupported`, `language`, `aborted`, `service`). */
  dictationError: (error: VoiceError) => string
  /** The read-aloud action's name while idle, and while it speaks. */
  readAloud: string
  stopReading: string
  /** Why reading aloud failed (`error.code`, as for dictation). */
  readAloudError: (error: VoiceError) => string
}

const DICTATION_ERRORS: Partial<Record<VoiceError['code'], string>> = {
  'not-allowed': 'Microphone access was denied',
  'no-speech': 'No speech was heard',
  'audio-capture': 'No microphone was found',
  network: 'The speech service could not be reached',
  unsupported: 'Dictation is not available in this browser',
  language: 'Dictation does not support this language',
}

const READ_ALOUD_ERRORS: Partial<Record<VoiceError['code'], string>> = {
  'not-allowed': 'The browser did not allow speech',
  network: 'The speech service could not be reached',
  unsupported: 'Reading aloud is not available in this browser',
  language: 'No voice for this language',
}

/**
 * The English strings the components use unless a host gives others.
 *
 * @example
 * <LabelsProvider labels={{ ...englishLabels, send: 'Ask' }} />
 */
export const englishLabels: WeftLabels = Object.freeze({
  conversation: 'Conversation',
  lane: 'Lane',
  laneStatus: (status: string) => (status === 'open' ? 'running' : status === 'error' ? 'failed' : status === 'done' ? 'done' : ''),
  laneMessages: (count: number) => `${count} ${count === 1 ? 'message' : 'messages'}`,
  laneFocusShort: 'Focus',
  laneFocus: (name: string) => `Focus ${name}`,
  laneHideShort: 'Hide',
  laneHide: (name: string) => `Hide ${name}`,
  laneFocused: (name: string) => `Showing only ${name}`,
  laneShowAll: 'Show all',
  laneRestore: (count: number) => `Show ${count} hidden ${count === 1 ? 'lane' : 'lanes'}`,
  workTimeline: 'Work timeline',
  traceDetails: 'Details',
  working: 'Working…',
  steps: (count: number) => `${count} ${count === 1 ? 'step' : 'steps'}`,
  sources: 'Sources',
  sourceCount: (count: number) => `${count} ${count === 1 ? 'source' : 'sources'}`,
  suggestions: 'Suggested follow-ups',
  message: 'Message',
  composerPlaceholder: 'Send a message…',
  queuedMessages: 'Queued messages',
  queueWaiting: 'Sends when the answer ends',
  queueHeld: 'Not sent yet',
  queuedFiles: (count: number) => `+ ${count} ${count === 1 ? 'file' : 'files'}`,
  sendNow: 'Send now',
  removeQueued: 'Remove',
  save: 'Save',
  cancelEdit: 'Cancel',
  send: 'Send',
  stop: 'Stop',
  copy: 'Copy',
  copied: 'Copied',
  copyCode: 'Copy code',
  copyMarkdown: 'Copy as Markdown',
  goodAnswer: 'Good answer',
  badAnswer: 'Bad answer',
  regenerate: 'Regenerate',
  edit: 'Edit',
  messageActions: 'Message actions',
  jumpToLatest: 'Jump to latest',
  thinking: 'Thinking…',
  reasoning: 'Reasoning',
  tool: 'Tool',
  toolGroup: (count: number, running: boolean) => `${running ? 'Using' : 'Used'} ${count} tools${running ? '…' : ''}`,
  toolInput: 'Input',
  toolOutput: 'Output',
  showMore: 'Show more',
  showLess: 'Show less',
  rawJson: 'JSON',
  toolStates: Object.freeze({
    'input-streaming': 'Preparing',
    'input-available': 'Running',
    'approval-requested': 'Awaiting approval',
    'approval-responded': 'Answered',
    'output-available': 'Done',
    'output-error': 'Failed',
    'output-denied': 'Denied',
    called: 'Called',
  }),
  preliminary: 'preliminary',
  approvalNeeded: 'Approval needed',
  approvalAnswered: 'Approval',
  approvalQuestion: 'The agent is waiting for your approval.',
  approve: 'Approve',
  reject: 'Reject',
  reason: 'Reason (optional)',
  submit: 'Submit',
  answer: 'Your answer',
  gateDetails: 'Details',
  gateStates: Object.freeze({ approved: 'Approved', rejected: 'Rejected', answered: 'Answered', expired: 'Expired', cancelled: 'Cancelled' }),
  statuses: Object.freeze({
    idle: 'Ready',
    connecting: 'Connecting…',
    streaming: 'Answering…',
    reconnecting: 'Reconnecting…',
    done: 'Done',
    error: 'Something went wrong',
    aborted: 'Stopped',
  }),
  retry: 'Retry',
  interrupted: 'Interrupted',
  somethingWentWrong: 'Something went wrong.',
  cannotShow: 'This part could not be shown.',
  image: 'Image',
  file: 'File',
  linkNotShown: '(link not shown)',
  recommendedAction: 'Recommended action',
  confidence: (percent: number) => `${percent}% confident`,
  stateInspector: 'State inspector',
  duration: (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`),
  usageFigures: Object.freeze({ input: 'Input', output: 'Output', tokens: 'Tokens', reasoning: 'Reasoning', cached: 'Cached', firstToken: 'First token', total: 'Time', speed: 'Speed', cost: 'Cost' }),
  tokenCount: (count: number) => new Intl.NumberFormat('en-US').format(count),
  tokensPerSecond: (rate: number) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: rate < 10 ? 1 : 0 }).format(rate)} tokens/s`,
  cost: formatCost,
  sendRefused: (refusal: WeftError) => refusal.message,
  attachFiles: 'Attach files',
  removeFile: (name: string) => `Remove ${name}`,
  fileSize: (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1048576 ? `${Math.round(bytes / 102.4) / 10} KB` : `${Math.round(bytes / 104857.6) / 10} MB`),
  fileRefused: (error: WeftError) => error.message,
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionOf: (position: number, count: number) => `Version ${position} of ${count}`,
  conversations: 'Conversations',
  newChat: 'New chat',
  untitled: 'New chat',
  answering: 'Answering',
  cannotBeRead: 'Cannot be read',
  changedInAnotherTab: 'Changed in another tab',
  loadTheirs: 'Load theirs',
  keepMine: 'Keep mine',
  rename: 'Rename',
  renameConversation: (title: string) => `Rename ${title}`,
  delete: 'Delete',
  deleteConversation: (title: string) => `Delete ${title}`,
  deletedConversation: (title: string) => `Deleted “${title}”.`,
  undo: 'Undo',
  conversationTitle: 'Conversation title',
  notSaved: (error: WeftError) => (error.code === 'conversation_quota_exceeded' ? 'Not saved: storage is full' : 'Not saved'),
  reloadSaved: 'Reload saved',
  export: 'Export',
  exportConversation: (title: string) => `Export ${title} as JSON`,
  conversationNotShown: (idOrTitle: string) => `Conversation “${idOrTitle}” could not be shown.`,
  dictate: 'Dictate',
  stopDictation: 'Stop dictation',
  listening: 'Listening…',
  dictationError: (error: VoiceError) => DICTATION_ERRORS[error.code] ?? 'Dictation failed',
  readAloud: 'Read aloud',
  stopReading: 'Stop reading',
  readAloudError: (error: VoiceError) => READ_ALOUD_ERRORS[error.code] ?? 'Could not read aloud',
})

/**
 * The labels in force, for a class component (`static contextType`); anything
 * else reads them through `useLabels`.
 *
 * @example
 * class LegacyStatus extends Component {
 *   static contextType = LabelsContext
 * }
 */
export const LabelsContext = createContext<WeftLabels>(englishLabels)

/**
 * Props of `LabelsProvider`.
 *
 * @example
 * const props: LabelsProviderProps = { labels: { send: 'Ask' } }
 */
export interface LabelsProviderProps {
  /** Merged over the labels above (English at the top). */
  labels: Partial<WeftLabels>
  children?: ReactNode
}

/**
 * Gives the components below it their strings, merged over the enclosing ones.
 *
 * @example
 * <LabelsProvider labels={{ send: '发送', stop: '停止' }}>
 *   <Composer send={send} />
 * </LabelsProvider>
 */
export function LabelsProvider({ labels, children }: LabelsProviderProps) {
  const outer = useContext(LabelsContext)
  const value = useMemo<WeftLabels>(() => ({ ...outer, ...labels }), [outer, labels])
  return <LabelsContext.Provider value={value}>{children}</LabelsContext.Provider>
}

/**
 * The labels in force.
 *
 * @example
 * const { send } = useLabels()
 */
export function useLabels(): WeftLabels {
  return useContext(LabelsContext)
}
