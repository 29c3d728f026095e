/**
 * The scenes of the screenshot tests: the conversation of the visual comparison
 * (a streamed answer with markdown and code), tool cards in each state, gates,
 * the trace and sources.
 */
import { useEffect, useState, type ReactNode } from 'react'
import { ThreadList } from '../../../src/components/thread-list'
import { ThreadListLayout } from '../../../src/components/thread-list-layout'
import { createConversations, memoryConversations } from '../../../src/core/conversations/index'
import { ConversationsProvider } from '../../../src/umbrella/providers'
import { Chat } from '../../../src/components/chat'
import { Composer } from '../../../src/components/composer'
import { Trace } from '../../../src/components/trace'
import { Transcript } from '../../../src/components/transcript'
import type { Op } from '../../../src/core/model/ops'

const answer = `## Weather in Paris

It is **18 °C** with light rain this afternoon.

- Wrap \`fetch\` in a retry with backoff
- Cache the forecast for **10 minutes**

| City | Temp (°C) | Rain |
| :--- | ---: | :--- |
| Paris | 18 | light |
| Lyon | 21 | none |

\`\`\`ts
const res = await fetch(\`/api/weather?city=\${city}\`)
const forecast = await res.json()
\`\`\`
`

const user = (id: string, content: string): Op[] => [
  { op: 'turn.open', turnId: id, role: 'user' },
  { op: 'message.put', turnId: id, messageId: `${id}/m`, role: 'user', type: 'text', status: 'done', props: { content } },
  { op: 'turn.finish', turnId: id, status: 'done' },
]

const conversation: Op[] = [
  ...user('u1', 'What is the weather in Paris, and how should I fetch it in my app?'),
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'block.open', turnId: 'a1', blockId: 'a1/s1', kind: 'step', label: 'Step 1' },
  {
    op: 'message.put', turnId: 'a1', messageId: 'a1/tool', blockId: 'a1/s1', type: 'tool', status: 'done',
    props: { toolCallId: 'c1', name: 'get_weather', state: 'output-available', input: { city: 'Paris', units: 'metric' }, output: { tempC: 18, rain: 'light', wind: 'calm' }, durationMs: 412 },
  },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/text', blockId: 'a1/s1', type: 'text', status: 'done', props: { content: answer } },
  { op: 'block.close', blockId: 'a1/s1', status: 'done' },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  ...user('u2', 'Will it rain tomorrow?'),
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'source.add', turnId: 'a2', source: { id: 's1', kind: 'url', url: 'https://meteofrance.com/previsions-meteo-france/paris/75000', title: 'Météo-France — Paris', citationIndex: 1 } },
  { op: 'message.delta', turnId: 'a2', messageId: 'a2/text', type: 'text', action: 'append', path: 'content', value: 'Tomorrow looks drier: Météo-France expects **no rain** until the evening [1], with a high of 20 °C and' },
  { op: 'stream.status', status: 'streaming' },
]

const tools: Op[] = [
  ...user('u1', 'Book the 9:40 train to Lyon and tell the team.'),
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  {
    op: 'message.put', turnId: 't1', messageId: 't1/search', type: 'tool', status: 'done',
    props: { toolCallId: 'c1', name: 'search_trains', state: 'output-available', input: { from: 'Paris', to: 'Lyon', date: '2026-12-02' }, output: { trains: [{ id: 'TGV 6601', departs: '09:40', seats: 12 }] }, durationMs: 830 },
  },
  {
    op: 'message.put', turnId: 't1', messageId: 't1/book', type: 'tool', status: 'streaming',
    props: { toolCallId: 'c2', name: 'book_seat', state: 'input-streaming', inputText: '{"train": "TGV 6601", "class": "sec' },
  },
  {
    op: 'message.put', turnId: 't1', messageId: 't1/notify', type: 'tool', status: 'error',
    props: { toolCallId: 'c3', name: 'post_to_slack', state: 'output-error', input: { channel: '#travel', text: 'Booked TGV 6601' }, errorText: 'The Slack token has expired.' },
  },
  { op: 'message.put', turnId: 't1', messageId: 't1/text', type: 'text', status: 'done', props: { content: 'I found **TGV 6601** at 09:40 and I am booking a second-class seat. Posting to Slack failed: the token has expired.' } },
]

const gates: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'The email to Nadia is ready. Send it?' } },
  {
    op: 'message.put', turnId: 't1', messageId: 'c1', type: 'tool', status: 'streaming',
    props: { toolCallId: 'c1', name: 'send_email', state: 'approval-requested', input: { to: 'nadia@contoso.example', subject: 'Your renewal terms' } },
  },
  { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'tool-approval', toolCallId: 'c1', question: 'Send this email to Nadia Brandt?', payload: { to: 'nadia@contoso.example' } } },
  { op: 'gate.open', gate: { id: 'g2', turnId: 't1', kind: 'hitl', question: 'Also archive the thread?', payload: {} } },
  { op: 'gate.resolve', gateId: 'g2', status: 'approved' },
  // Answered gates: the title is the outcome.
  { op: 'gate.open', gate: { id: 'g3', turnId: 't1', kind: 'question', question: 'Which folder?', payload: {} } },
  { op: 'gate.resolve', gateId: 'g3', status: 'answered', response: { value: 'Renewals 2027' } },
  { op: 'gate.open', gate: { id: 'g4', turnId: 't1', kind: 'approval', question: 'Copy the legal team?', payload: {} } },
  { op: 'gate.resolve', gateId: 'g4', status: 'rejected', response: { approved: false, reason: 'Not yet' } },
]

const lead = { id: 'lead', kind: 'lead', name: 'Revenue Lead' }
const analyst = { id: 'task-7', kind: 'specialist', name: 'Pipeline Analyst' }

const trace: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'trace.node', turnId: 't1', node: { id: 'reason', actor: lead, kind: 'reason', label: 'Thought through it', status: 'done' }, delta: 'Search the CRM and the call notes.' },
  { op: 'trace.node', turnId: 't1', node: { id: 'task-7', actor: lead, kind: 'delegate', label: 'Pipeline Analyst finished', status: 'done', detail: 'Read the renewal history' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'search', parentId: 'task-7', actor: analyst, kind: 'search', tool: 'search_knowledge', label: 'Searched call notes', status: 'done', args: { query: 'Contoso renewal' }, result: '2 sources' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'billing', actor: lead, kind: 'tool', tool: 'lookup_invoice', label: 'Checking billing', status: 'start', args: { invoice: 'INV-2231' } } },
  { op: 'trace.fail', turnId: 't1', nodeId: 'billing', message: 'The tool endpoint could not be reached' },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Contoso renews on **1 March**; billing could not be checked.' } },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

const sources: Op[] = [
  ...user('u1', 'When does Contoso renew, and what did Nadia ask for?'),
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'document', title: 'Contoso — renewal record', url: 'https://crm.example.com/contoso', citationIndex: 1 } },
  { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', title: 'Call with Nadia, 12 Sep', url: 'https://notes.example.com/0912', citationIndex: 2 } },
  { op: 'source.add', turnId: 't1', source: { id: 's3', kind: 'url', title: 'Contoso annual report 2026: revenue, headcount and outlook', url: 'https://www.contoso.example/investors/annual-report-2026' } },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Contoso renews on **1 March** [1]. Nadia asked for a two-year term with a 5 % discount [2].' } },
  { op: 'turn.update', turnId: 't1', suggestions: ['Draft the renewal email', 'Compare with last year'] },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

// A plain answer: one step of text, with its source; its headline counts the source only.
const plain: Op[] = [
  ...user('u1', 'What is the capital of Australia?'),
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'block.open', turnId: 'a1', blockId: 'a1/s1', kind: 'step', label: 'Step 1' },
  { op: 'trace.node', turnId: 'a1', node: { id: 'a1/s1', kind: 'step', label: 'Step 1', status: 'start' } },
  { op: 'source.add', turnId: 'a1', source: { id: 's1', kind: 'url', url: 'https://en.wikipedia.org/wiki/Canberra', title: 'Canberra — Wikipedia', citationIndex: 1 } },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/text', blockId: 'a1/s1', type: 'text', status: 'done', props: { content: 'The capital of Australia is **Canberra** [1].' } },
  { op: 'block.close', blockId: 'a1/s1', status: 'done' },
  { op: 'trace.node', turnId: 'a1', node: { id: 'a1/s1', status: 'done' } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  ...user('u2', 'And of New Zealand?'),
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'block.open', turnId: 'a2', blockId: 'a2/s1', kind: 'step', label: 'Step 1' },
  { op: 'trace.node', turnId: 'a2', node: { id: 'a2/s1', kind: 'step', label: 'Step 1', status: 'start' } },
  { op: 'message.put', turnId: 'a2', messageId: 'a2/text', blockId: 'a2/s1', type: 'text', status: 'done', props: { content: 'Wellington.' } },
  { op: 'block.close', blockId: 'a2/s1', status: 'done' },
  { op: 'trace.node', turnId: 'a2', node: { id: 'a2/s1', status: 'done' } },
  { op: 'turn.finish', turnId: 'a2', status: 'done' },
]

// An agent's three steps of tool calls, then its answer: one folded "Used 3 tools" line above the answer.
const toolRun: Op[] = [
  ...user('u1', 'Find me a train to Lyon tomorrow morning.'),
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  ...([['s1', 'search_trains', { from: 'Paris', to: 'Lyon' }], ['s2', 'check_seats', { train: 'TGV 6601' }], ['s3', 'check_seats', { train: 'TGV 6603' }]] as const).flatMap(([step, name, input]): Op[] => [
    { op: 'block.open', turnId: 't1', blockId: step, kind: 'step', label: step },
    { op: 'message.put', turnId: 't1', messageId: `${step}/call`, blockId: step, type: 'tool', status: 'done', props: { toolCallId: step, name, state: 'output-available', input, output: { ok: true } } },
    { op: 'block.close', blockId: step, status: 'done' },
  ]),
  { op: 'block.open', turnId: 't1', blockId: 's4', kind: 'step', label: 's4' },
  { op: 'message.put', turnId: 't1', messageId: 's4/text', blockId: 's4', type: 'text', status: 'done', props: { content: '**TGV 6601** leaves at 09:40 with 12 seats left.' } },
  { op: 'block.close', blockId: 's4', status: 'done' },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

// Data parts with no renderer of their own: a readable key/value card, the JSON folded.
const dataParts: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'message.put', turnId: 't1', messageId: 'd1', type: 'data-weather', status: 'done', props: { data: { city: 'Paris', tempC: 18, conditions: 'light rain', hourly: [17, 18, 18, 16], wind: { kph: 12, from: 'SW' }, updated: '2026-12-02T09:00:00Z' } } },
  { op: 'message.put', turnId: 't1', messageId: 'd2', type: 'data-status', status: 'done', props: { data: 'Indexed 3 of 3 files' } },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'It is 18 °C in Paris with light rain.' } },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

/** Focuses the first source chip's link, so its card shows as it does on hover. */
function FocusFirstSource() {
  useEffect(() => document.querySelector<HTMLElement>('[data-weft="source"] a')?.focus(), [])
  return null
}

const sourceCard: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', title: 'Météo-France — Paris forecast', url: 'https://meteofrance.com/previsions-meteo-france/paris/75000', snippet: 'Light rain this afternoon, drier tomorrow until the evening; highs of 18 to 20 °C.', citationIndex: 1 } },
  { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', title: 'Travel policy 2026', citationIndex: 2 } },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Expect light rain today [1]; book refundable fares [2].' } },
  { op: 'turn.update', turnId: 't1', suggestions: ['What about Lyon?', 'Set an alert for rain', 'Compare with last week'] },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

/** Three stored conversations, the list beside an empty chat (a drawer, closed or open, at 375 px). */
function Conversations({ open }: { open: boolean }) {
  const [conversations] = useState(() => {
    // A clock of its own: one conversation a minute, so the list's order (newest first) is the same each run.
    let at = Date.UTC(2026, 11, 1, 9)
    const made = createConversations({ storage: memoryConversations(), selection: false, saveOnHide: false, now: () => (at += 60_000) })
    for (const title of ['Budget review', 'Contoso renewal', 'Trip to Lyon']) made.create({ title })
    return made
  })
  return (
    <ConversationsProvider conversations={conversations}>
      <div style={{ height: 360, border: '1px solid var(--weft-border)' }}>
        <ThreadListLayout defaultOpen={open}>
          <ThreadList />
          <Chat footer={<Composer send={() => undefined} />} />
        </ThreadListLayout>
      </div>
    </ConversationsProvider>
  )
}

/** A scene: its ops and what to draw. */
export interface Scene {
  name: string
  ops: Op[]
  view: () => ReactNode
}

export const scenes: Scene[] = [
  // The composer's placeholder is its default label.
  { name: 'answer', ops: conversation, view: () => <Chat footer={<Composer send={() => undefined} stop={() => undefined} />} /> },
  { name: 'tools', ops: tools, view: () => <Transcript.Root /> },
  { name: 'gate', ops: gates, view: () => <Transcript.Root /> },
  { name: 'trace', ops: trace, view: () => <><Trace.Disclosure turnId="t1" open /><Transcript.Root /></> },
  { name: 'sources', ops: sources, view: () => <Transcript.Root /> },
  // An empty composer shows its default placeholder.
  { name: 'tool-group', ops: toolRun, view: () => <Transcript.Root /> },
  // The first chip focused: its hover card over what follows.
  { name: 'source-card', ops: sourceCard, view: () => <div style={{ paddingBlockEnd: 96 }}><Transcript.Root /><FocusFirstSource /></div> },
  { name: 'thread-list', ops: [], view: () => <Conversations open={false} /> },
  { name: 'thread-drawer', ops: [], view: () => <Conversations open /> },
  { name: 'data-part', ops: dataParts, view: () => <Transcript.Root /> },
  { name: 'plain-answer', ops: plain, view: () => <Transcript.Root /> },
  { name: 'composer', ops: [], view: () => <Composer send={() => undefined} stop={() => undefined} /> },
]
