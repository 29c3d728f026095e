/**
 * Vocion AgentEvent rail: a grounded answer with its work timeline, a tool
 * that fails, and a turn that stops at a human-in-the-loop gate.
 *
 * Every stream opens with the `stream_meta` frame a real route writes first
 * (the resume handle) and keeps a keepalive comment mid-stream.
 */
import type { MockFrame, Scenario } from '../scenario.js'

type VocionEvent = Record<string, unknown> & { type: string }

const lead = { id: 'lead', kind: 'lead', name: 'Revenue Lead' }
const analyst = { id: 'task-7', kind: 'specialist', name: 'Pipeline Analyst' }

function stream(streamId: string, events: VocionEvent[]): MockFrame[] {
  return [{ data: { type: 'stream_meta', streamId } }, ...events.map((data) => ({ data }))]
}

const answerText = [
  'Contoso renews on 30 September [1]. ',
  'The champion asked for a two-year term at the current price [2], ',
  'so a draft note to Nadia is ready below.',
]

const answerEvents: VocionEvent[] = [
  { type: 'thinking' },
  { type: 'thinking_delta', delta: 'The user wants the renewal status. ' },
  { type: 'thinking_delta', delta: 'Search the CRM and the call notes.' },
  {
    type: 'trace_node', id: 'reason-1', actor: lead, kind: 'reason', status: 'start', label: 'Thinking',
    delta: 'Search the CRM and the call notes.',
  },
  { type: 'trace_node', id: 'reason-1', status: 'done', label: 'Thought through it' },
  // The specialist's row arrives before the delegation that owns it; it nests once its parent comes.
  {
    type: 'trace_node', id: 'search-2', parentId: 'task-7', actor: analyst, kind: 'search', status: 'start',
    label: 'Searching call notes', detail: '"Contoso renewal"', tool: 'search_knowledge',
  },
  {
    type: 'trace_node', id: 'task-7', actor: lead, kind: 'delegate', status: 'start',
    label: 'Delegating to Pipeline Analyst', detail: 'Read the Contoso renewal history',
  },
  { type: 'retrieval_progress', stage: 'started', meta: { mode: 'hybrid' } },
  { type: 'retrieval_progress', stage: 'candidates', meta: { vector: 14, keyword: 8 } },
  { type: 'retrieval_progress', stage: 'complete', meta: { hits: 2 } },
  {
    type: 'documents',
    documents: [
      {
        document_id: 'doc-crm-contoso', semantic_identifier: 'Contoso — renewal record', link: 'https://crm.example.com/deals/contoso',
        source_type: 'hubspot', blurb: 'Renewal date 30 September; ARR 120k.', citationIndex: 1,
      },
      {
        document_id: 'doc-call-0912', semantic_identifier: 'Call with Nadia Brandt, 12 Sep', link: 'https://notes.example.com/calls/0912',
        source_type: 'granola', blurb: 'Asked for a two-year term at the current price.', citationIndex: 2, foundBy: 'Pipeline Analyst',
      },
    ],
  },
  {
    type: 'trace_node', id: 'search-2', status: 'done', label: 'Searched call notes', result: '2 sources',
    citations: [{ sourceType: 'granola', title: 'Call with Nadia Brandt, 12 Sep', actorId: 'task-7' }],
  },
  { type: 'trace_node', id: 'task-7', status: 'done', label: 'Pipeline Analyst finished' },
  { type: 'tool_start', tool: 'lookup_objects', input: { type_slug: 'deal', query: 'Contoso' } },
  { type: 'tool_end', tool: 'lookup_objects', input: { type_slug: 'deal', query: 'Contoso' }, output: '1 record: Contoso renewal' },
  { type: 'answering' },
  ...answerText.map((delta) => ({ type: 'response_delta', delta })),
  {
    type: 'recommended_action',
    recommendation: {
      actionId: 'gmail.send', label: 'Draft the note to Nadia Brandt', rationale: 'She asked for terms in writing.',
      confidence: 0.82, agentSlug: 'revenue-lead',
      input: { to: 'nadia@contoso.example', subject: 'Your renewal terms', body: 'Hi Nadia, …' },
    },
  },
  { type: 'done', response: answerText.join(''), traceId: 'trace-answer-1' },
]

const answerFrames = stream('stream-answer-1', answerEvents)
answerFrames.splice(9, 0, { comment: 'keepalive' })

const answer: Scenario = {
  protocol: 'vocion',
  name: 'answer',
  title: 'A grounded answer: reasoning, a nested timeline, tools, cited documents and a recommended action',
  frames: answerFrames,
}

const toolErrorEvents: VocionEvent[] = [
  { type: 'thinking_delta', delta: 'Check the billing system for the invoice.' },
  {
    type: 'trace_node', id: 'billing-1', actor: lead, kind: 'tool', status: 'start', label: 'Checking billing',
    detail: 'invoice INV-2231', tool: 'lookup_invoice',
  },
  { type: 'tool_start', tool: 'lookup_invoice', input: { invoice: 'INV-2231' } },
  { type: 'tool_error', tool: 'lookup_invoice', message: 'The tool endpoint could not be reached', status: 502 },
  { type: 'answering' },
  { type: 'response_delta', delta: 'I could not reach the billing system, so I cannot confirm the invoice.' },
  { type: 'done', response: 'I could not reach the billing system, so I cannot confirm the invoice.' },
]

const toolError: Scenario = {
  protocol: 'vocion',
  name: 'tool-error',
  title: 'A tool fails: its step and its call end as errors, visible in the answer',
  frames: stream('stream-tool-error-1', toolErrorEvents),
}

const hitlEvents: VocionEvent[] = [
  {
    type: 'trace_node', id: 'draft-1', actor: lead, kind: 'draft', status: 'start', label: 'Preparing the email',
    labels: { running: 'Preparing the email', done: 'Prepared the email' },
  },
  { type: 'response_delta', delta: 'The email to Nadia is ready. Send it?' },
  {
    type: 'hitl_gate',
    gate: {
      name: 'send-email',
      question: 'Send this email to Nadia Brandt?',
      payload: { to: 'nadia@contoso.example', subject: 'Your renewal terms', body: 'Hi Nadia, …' },
      resumeUrl: 'https://app.example.com/runs/42',
    },
  },
  { type: 'trace_node', id: 'draft-1', status: 'done' },
  { type: 'done', response: 'The email to Nadia is ready. Send it?' },
]

const hitl: Scenario = {
  protocol: 'vocion',
  name: 'hitl',
  title: 'The turn waits on a person: a human-in-the-loop gate',
  frames: stream('stream-hitl-1', hitlEvents),
}

export const vocionScenarios: Scenario[] = [answer, toolError, hitl]
