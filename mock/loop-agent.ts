/**
 * A scripted agent for the conversation loop: it answers the request weft builds
 * for each protocol (the AI SDK chat request, AG-UI's `RunAgentInput`, Yao's and
 * Vocion's bodies) from the conversation the request carries. Pure: the dev
 * server's route (`routes/loop.ts`) and the stories' Mock Service Worker handlers
 * (`stories/testing/loop-agent.ts`) both serve it.
 *
 * - "delete ..." asks for approval (an AI SDK `tool-approval-request`, an AG-UI
 *   interrupt, a Vocion `hitl_gate` answered at the gate's URL); the answer decides
 *   the rest.
 * - "where ..." calls the client tool `getLocation` when the request declares or can run it.
 * - "pick ..." calls `pickColor`, a tool the UI answers (the person picks a colour
 *   from its options); the agent goes on with the colour it is given.
 * - anything else is echoed with a counter, so a regenerate gives a new answer.
 */

export type Json = Record<string, unknown>
let counter = 0

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown): string => (typeof value === 'string' ? value : '')

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text]
}

/** The colours `pickColor` offers. */
const PALETTE = ['teal', 'amber', 'violet']

/** The agent's answer once the person picked (`{ color }`). */
function pickedText(output: unknown): string {
  const color = isRecord(output) ? str(output.color) : ''
  return color ? `${color[0]!.toUpperCase()}${color.slice(1)} it is: the theme now uses ${color}.` : 'No colour was picked.'
}

// ------------------------------------------------------------------ UI message stream

function uiText(text: string): Json[] {
  const id = `txt-${++counter}`
  return [{ type: 'text-start', id }, ...words(text).map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }]
}

/** The answer to an AI SDK chat request: a first question, or the continuation after an approval or a tool result. */
function uiReply(body: Json): Json[] {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : []
  const last = messages.at(-1)
  const parts = Array.isArray(last?.parts) ? last.parts.filter(isRecord) : []
  const out: Json[] = [{ type: 'start', messageId: last?.role === 'assistant' ? str(last.id) : `msg-${++counter}` }, { type: 'start-step' }]
  if (last?.role === 'assistant') {
    for (const part of parts) {
      if (part.type === 'tool-deleteFile' && part.state === 'approval-responded' && isRecord(part.approval)) {
        if (part.approval.approved === true) {
          out.push({ type: 'tool-output-available', toolCallId: part.toolCallId, output: { deleted: '/reports/q3.pdf' } }, ...uiText('Done: the report is deleted.'))
        } else {
          out.push({ type: 'tool-output-denied', toolCallId: part.toolCallId }, ...uiText(`Kept the report${part.approval.reason ? ` (${str(part.approval.reason)})` : ''}.`))
        }
      }
      if (part.type === 'tool-pickColor' && part.state === 'output-available') out.push(...uiText(pickedText(part.output)))
      if (part.type === 'tool-getLocation' && part.state === 'output-available') {
        out.push(...uiText(`You are in ${str(isRecord(part.output) ? part.output.city : '') || 'an unknown place'}.`))
      }
    }
  } else {
    const text = parts.filter((p) => p.type === 'text').map((p) => str(p.text)).join(' ')
    const files = parts.filter((p) => p.type === 'file').length
    const toolCallId = `call-${++counter}`
    if (/delete/i.test(text)) {
      out.push(
        { type: 'tool-input-available', toolCallId, toolName: 'deleteFile', input: { path: '/reports/q3.pdf' } },
        { type: 'tool-approval-request', toolCallId, approvalId: `approval-${counter}` },
      )
    } else if (/where/i.test(text)) {
      out.push({ type: 'tool-input-available', toolCallId, toolName: 'getLocation', input: {} })
    } else if (/pick/i.test(text)) {
      out.push(...uiText('Which colour should the theme use?'), { type: 'tool-input-available', toolCallId, toolName: 'pickColor', input: { options: PALETTE } })
    } else {
      out.push(...uiText(`Answer #${++counter} to “${text}”${files ? ` with ${files} file(s)` : ''}.`))
    }
  }
  out.push({ type: 'finish-step' }, { type: 'finish' })
  return out
}

// ------------------------------------------------------------------ AG-UI

function agText(text: string): Json[] {
  const messageId = `msg-${++counter}`
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    ...words(text).map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
    { type: 'TEXT_MESSAGE_END', messageId },
  ]
}

/** The run an AG-UI `RunAgentInput` asks for: a first question, an interrupt's `resume`, or a frontend tool's result. */
function agReply(input: Json): Json[] {
  const threadId = str(input.threadId) || 'thread-mock'
  const runId = str(input.runId) || `run-${++counter}`
  const messages = Array.isArray(input.messages) ? input.messages.filter(isRecord) : []
  const tools = Array.isArray(input.tools) ? input.tools.filter(isRecord).map((t) => str(t.name)) : []
  const last = messages.at(-1)
  const out: Json[] = [{ type: 'RUN_STARTED', threadId, runId }]
  let finished: Json = { type: 'RUN_FINISHED', threadId, runId }
  const resume = Array.isArray(input.resume) ? input.resume.filter(isRecord) : []
  if (resume.length > 0) {
    // Anything but an explicit no lets the deletion go on.
    const approved = !(isRecord(resume[0]!.payload) && resume[0]!.payload.approved === false)
    out.push(...agText(approved ? 'Done: the report is deleted.' : 'Kept the report.'))
  } else if (last?.role === 'tool' && str(last.content).includes('"color"')) {
    let output: unknown
    try {
      output = JSON.parse(str(last.content))
    } catch {
      // Not JSON: no colour.
    }
    out.push(...agText(pickedText(output)))
  } else if (last?.role === 'tool') {
    let city = ''
    try {
      city = str((JSON.parse(str(last.content) || '{}') as Json).city)
    } catch {
      // Not JSON: an unknown place.
    }
    out.push(...agText(`You are in ${city || 'an unknown place'}.`))
  } else {
    const text = typeof last?.content === 'string' ? last.content : Array.isArray(last?.content) ? last.content.filter(isRecord).map((p) => str(p.text)).join(' ') : ''
    if (/delete/i.test(text)) {
      out.push(...agText('I can delete /reports/q3.pdf.'))
      finished = { ...finished, outcome: { type: 'interrupt', interrupts: [{ id: `int-${++counter}`, reason: 'confirmation', message: 'Delete /reports/q3.pdf?' }] } }
    } else if (/pick/i.test(text) && tools.includes('pickColor')) {
      const toolCallId = `call-${++counter}`
      out.push(
        ...agText('Which colour should the theme use?'),
        { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'pickColor' },
        { type: 'TOOL_CALL_ARGS', toolCallId, delta: JSON.stringify({ options: PALETTE }) },
        { type: 'TOOL_CALL_END', toolCallId },
      )
    } else if (/where/i.test(text) && tools.includes('getLocation')) {
      const toolCallId = `call-${++counter}`
      out.push(
        { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'getLocation' },
        { type: 'TOOL_CALL_ARGS', toolCallId, delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId },
      )
    } else {
      out.push(...agText(`Answer #${++counter} to “${text}”.`))
    }
  }
  out.push(finished)
  return out
}

// ------------------------------------------------------------------ Yao (text only) and Vocion (text and a gate)

function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : []
  return str([...messages].reverse().find((m) => m.role === 'user')?.content)
}

function yaoReply(body: Json): Json[] {
  const text = `Answer #${++counter} to “${lastUserText(body)}”.`
  const pieces = words(text)
  return [
    { chunk_id: 'C1', type: 'event', props: { event: 'stream_start', data: { request_id: `req-${counter}`, chat_id: str(body.chat_id) } } },
    ...pieces.map((content, i) => ({ chunk_id: `C${i + 2}`, message_id: 'M1', type: 'text', delta: i > 0, props: { content } })),
    { chunk_id: `C${pieces.length + 2}`, type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } },
  ]
}

function vocionText(text: string): Json[] {
  return [
    { type: 'stream_meta', streamId: `loop-${++counter}` },
    { type: 'answering' },
    ...words(text).map((delta) => ({ type: 'response_delta', delta })),
  ]
}

/** "delete ..." ends in a `hitl_gate` whose answer goes to `gateUrl` (through the host's continueGate). */
function vocionReply(body: Json, gateUrl: string): Json[] {
  const question = lastUserText(body)
  if (/delete/i.test(question)) {
    return [
      ...vocionText('I can delete /reports/q3.pdf.'),
      { type: 'hitl_gate', gate: { name: 'delete-file', question: 'Delete /reports/q3.pdf?', payload: { path: '/reports/q3.pdf' }, resumeUrl: gateUrl } },
      { type: 'done' },
    ]
  }
  return [...vocionText(`Answer #${counter + 1} to “${question}”.`), { type: 'done' }]
}

/** The gate's answer, `{ approved, reason? }`: the rest of the turn. */
function vocionResume(body: Json): Json[] {
  const text = body.approved === true ? 'Done: the report is deleted.' : `Kept the report${typeof body.reason === 'string' && body.reason ? ` (${body.reason})` : ''}.`
  return [...vocionText(text), { type: 'done' }]
}

/** The protocols the loop agent speaks. */
export type LoopProtocol = 'ui-message' | 'ag-ui' | 'yao' | 'vocion'

/** The loop agent's answers: one per protocol, and Vocion's gate answer. */
export interface LoopAgent {
  reply: Record<LoopProtocol, (body: Json) => Json[]>
  /** The rest of a Vocion turn after its gate was answered with `{ approved, reason? }`. */
  vocionResume: (body: Json) => Json[]
}

/**
 * The loop agent, with Vocion's gates answered at `vocionGateUrl`.
 *
 * @example
 * const agent = loopAgent('/mock/loop/vocion/resume')
 * agent.reply['ui-message']({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] })
 */
export function loopAgent(vocionGateUrl: string): LoopAgent {
  return {
    reply: { 'ui-message': uiReply, 'ag-ui': agReply, yao: yaoReply, vocion: (body) => vocionReply(body, vocionGateUrl) },
    vocionResume,
  }
}

/**
 * A request body as the agent reads it: the parsed JSON object, else nothing.
 *
 * @example
 * bodyOf('not an object') // {}
 */
export function bodyOf(value: unknown): Json {
  return isRecord(value) ? value : {}
}
