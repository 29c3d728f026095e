/**
 * AG-UI runs / events: streams as the document's back end sends them on
 * `GET /runs/{threadId}/events`, every frame with an `id:` line (the stream
 * position) and an `event:` line naming the event type.
 *
 * - `run`: steps, two tool calls open at once with interleaved arguments, tool
 *   results carrying `ui_schema` with navigation actions (one of them refused by
 *   the kit), a state snapshot and a JSON Patch delta, and text that arrives
 *   whole in `TEXT_MESSAGE_END` (this back end sends no `TEXT_MESSAGE_CONTENT`).
 * - `interrupt`: a tool call that waits for the user's approval.
 * - `subagents`: two sub-agents in parallel (one fails), chunked events, reasoning.
 */
import type { MockFrame, Scenario } from '../scenario.js'

type Data = Record<string, unknown>

const THREAD = 'thread_demo'

/** Numbers the events (`id:`) and names them (`event:`), as the back end does. */
function frames(stream: string, events: Data[]): MockFrame[] {
  return events.map((data, index) => ({
    id: `${stream}:${String(index + 1).padStart(4, '0')}`,
    event: String(data.type),
    data,
  }))
}

const runStarted = (runId: string): Data => ({ type: 'RUN_STARTED', threadId: THREAD, runId })
const runFinished = (runId: string, outcome: Data = { type: 'success' }): Data => ({ type: 'RUN_FINISHED', threadId: THREAD, runId, outcome })
const step = (type: 'STEP_STARTED' | 'STEP_FINISHED', stepName: string): Data => ({ type, stepName })
/** The document's text strategy: a start, then the whole text in the end event. */
const wholeText = (messageId: string, content: string): Data[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  { type: 'TEXT_MESSAGE_END', messageId, content },
]
const args = (toolCallId: string, delta: string): Data => ({ type: 'TOOL_CALL_ARGS', toolCallId, delta })

const run: Scenario = {
  protocol: 'ag-ui',
  name: 'run',
  title: 'AG-UI: a run with steps, parallel tool calls, ui_schema actions and shared state',
  frames: frames('run_1', [
    runStarted('run_1'),
    step('STEP_STARTED', 'plan'),
    ...wholeText('msg_plan', 'I will look at your calendar and add the todo.'),
    step('STEP_FINISHED', 'plan'),
    step('STEP_STARTED', 'act'),
    { type: 'TOOL_CALL_START', toolCallId: 'call_calendar', toolCallName: 'calendar.search', parentMessageId: 'msg_plan' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_todo', toolCallName: 'todo.create', parentMessageId: 'msg_plan' },
    args('call_calendar', '{"day":"2026-'),
    args('call_todo', '{"title":"Buy'),
    args('call_calendar', '03-16"}'),
    args('call_todo', ' milk","due":"2026-03-17"}'),
    { type: 'TOOL_CALL_END', toolCallId: 'call_todo' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_calendar' },
    {
      type: 'TOOL_CALL_RESULT', messageId: 'msg_result_todo', toolCallId: 'call_todo', role: 'tool',
      content: 'Created todo 123', result: 'Created todo 123',
      tool_call_args: { title: 'Buy milk', due: '2026-03-17' },
      ui_schema: {
        type: 'card', title: 'Buy milk', subtitle: 'Due 2026-03-17',
        actions: [
          { type: 'navigation', label: 'Edit', path: '/todo/123/edit', params: { from: 'chat' } },
          { type: 'navigation', label: 'Share', path: '/todo/{id}/share' },
        ],
      },
    },
    {
      type: 'TOOL_CALL_RESULT', messageId: 'msg_result_calendar', toolCallId: 'call_calendar', role: 'tool',
      content: '{"events":[{"id":"e1","title":"Standup"},{"id":"e2","title":"Dentist"}]}',
      ui_schema: {
        type: 'list', title: 'March 16',
        actions: [{ type: 'navigation', label: 'Open calendar', path: '/calendar', params: { day: '2026-03-16', week: false } }],
      },
    },
    { type: 'STATE_SNAPSHOT', snapshot: { todos: [], calendar: { day: '2026-03-16', events: 2 } } },
    { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/todos/-', value: { id: 123, title: 'Buy milk' } }] },
    step('STEP_FINISHED', 'act'),
    ...wholeText('msg_answer', 'You have 2 events on March 16 (Standup, Dentist), and "Buy milk" is on your todo list for tomorrow.'),
    runFinished('run_1'),
  ]),
}

const interrupt: Scenario = {
  protocol: 'ag-ui',
  name: 'interrupt',
  title: 'AG-UI: a run that stops for the user to approve a tool call',
  frames: frames('run_2', [
    runStarted('run_2'),
    ...wholeText('msg_confirm', 'Deleting a todo needs your approval.'),
    { type: 'TOOL_CALL_START', toolCallId: 'call_delete', toolCallName: 'todo.delete', parentMessageId: 'msg_confirm' },
    args('call_delete', '{"id":123}'),
    { type: 'TOOL_CALL_END', toolCallId: 'call_delete' },
    runFinished('run_2', {
      type: 'interrupt',
      interrupts: [{ id: 'int_delete', reason: 'tool_approval', message: 'Delete "Buy milk"?', toolCallId: 'call_delete' }],
    }),
  ]),
}

const subagents: Scenario = {
  protocol: 'ag-ui',
  name: 'subagents',
  title: 'AG-UI: two sub-agents in parallel, chunked events and reasoning',
  frames: frames('run_3', [
    runStarted('run_3'),
    { type: 'REASONING_START', messageId: 'rs_1' },
    { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm_1', delta: 'Two sources: the web and the team docs. ' },
    { type: 'REASONING_MESSAGE_CHUNK', delta: 'Ask both at once.' },
    { type: 'REASONING_END', messageId: 'rs_1' },
    step('STEP_STARTED', 'research'),
    { type: 'SUBAGENT_STARTED', subagentRunId: 'sub_web', name: 'web-researcher', description: 'Searches the web' },
    { type: 'SUBAGENT_STARTED', subagentRunId: 'sub_docs', name: 'docs-reader', description: 'Reads the team docs' },
    { type: 'TEXT_MESSAGE_CHUNK', subagentRunId: 'sub_web', messageId: 'msg_web', delta: 'Searching for ' },
    { type: 'TEXT_MESSAGE_CHUNK', subagentRunId: 'sub_docs', messageId: 'msg_docs', delta: 'Opening the ' },
    { type: 'TEXT_MESSAGE_CHUNK', subagentRunId: 'sub_web', delta: 'release notes.' },
    { type: 'TEXT_MESSAGE_CHUNK', subagentRunId: 'sub_docs', delta: 'handbook.' },
    { type: 'TOOL_CALL_CHUNK', subagentRunId: 'sub_web', toolCallId: 'call_web', toolCallName: 'web.search', delta: '{"q":"weft 1.0' },
    { type: 'TOOL_CALL_CHUNK', subagentRunId: 'sub_web', delta: ' release"}' },
    { type: 'TOOL_CALL_RESULT', subagentRunId: 'sub_web', messageId: 'msg_web_result', toolCallId: 'call_web', content: '[{"title":"weft 1.0 is out"}]' },
    { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub_web', result: { found: 1 } },
    { type: 'SUBAGENT_ERROR', subagentRunId: 'sub_docs', message: 'The handbook is not reachable', code: 'upstream_unavailable' },
    step('STEP_FINISHED', 'research'),
    { type: 'TEXT_MESSAGE_START', messageId: 'msg_summary', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_summary', delta: 'weft 1.0 is out; ' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_summary', delta: 'the handbook could not be read.' },
    { type: 'TEXT_MESSAGE_END', messageId: 'msg_summary' },
    { type: 'CUSTOM', name: 'suggestions', value: { items: ['Open the release notes', 'Retry the handbook'] } },
    runFinished('run_3'),
  ]),
}

export const agUiScenarios: Scenario[] = [run, interrupt, subagents]
