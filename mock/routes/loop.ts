/**
 * A mock agent that answers the request weft builds, for the conversation loop:
 * `POST /mock/loop/:protocol` reads the body (the AI SDK chat request, AG-UI's
 * `RunAgentInput`, Yao's or Vocion's) and replies from the conversation it carries.
 *
 * - "delete ..." asks for approval (an AI SDK `tool-approval-request`, an AG-UI
 *   interrupt, a Vocion `hitl_gate` answered at `POST /mock/loop/vocion/resume`);
 *   the answer decides the rest.
 * - "where ..." calls the client tool `getLocation` when the request declares or can run it.
 * - anything else is echoed with a counter, so a regenerate gives a new answer.
 */
import type { MockFrame } from '../scenario.js'
import type { MockRoute } from '../route.js'
import { parseStreamOptions, readBody, sendJson, streamFrames } from '../sse.js'

type Json = Record<string, unknown>
let counter = 0

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown): string => (typeof value === 'string' ? value : '')

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text]
}

// ------------------------------------------------------------------ UI message stream

function uiText(text: string): Json[] {
  const id = `txt-${++counter}`
  return [{ type: 'text-start', id }, ...words(text).map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }]
}

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
  } else if (last?.role === 'tool') {
    out.push(...agText(`You are in ${str(JSON.parse(str(last.content) || '{}').city) || 'an unknown place'}.`))
  } else {
    const text = typeof last?.content === 'string' ? last.content : Array.isArray(last?.content) ? last.content.filter(isRecord).map((p) => str(p.text)).join(' ') : ''
    if (/delete/i.test(text)) {
      out.push(...agText('I can delete /reports/q3.pdf.'))
      finished = { ...finished, outcome: { type: 'interrupt', interrupts: [{ id: `int-${++counter}`, reason: 'confirmation', message: 'Delete /reports/q3.pdf?' }] } }
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

/** "delete ..." ends in a `hitl_gate` whose answer goes to `POST /mock/loop/vocion/resume` (through the host's continueGate). */
function vocionReply(body: Json): Json[] {
  const question = lastUserText(body)
  if (/delete/i.test(question)) {
    return [
      ...vocionText('I can delete /reports/q3.pdf.'),
      { type: 'hitl_gate', gate: { name: 'delete-file', question: 'Delete /reports/q3.pdf?', payload: { path: '/reports/q3.pdf' }, resumeUrl: '/mock/loop/vocion/resume' } },
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

const builders: Record<string, { reply: (body: Json) => Json[]; headers?: Record<string, string>; done?: boolean }> = {
  'ui-message': { reply: uiReply, headers: { 'x-vercel-ai-ui-message-stream': 'v1' }, done: true },
  'ag-ui': { reply: agReply },
  yao: { reply: yaoReply },
  vocion: { reply: vocionReply },
}

export const loopRoutes: MockRoute[] = [
  {
    method: 'POST',
    path: '/mock/loop/vocion/resume',
    handler: async ({ req, res, query, defaultDelayMs }) => {
      let body: Json
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}')
        body = isRecord(parsed) ? parsed : {}
      } catch {
        sendJson(res, 400, { error: 'bad_request', message: 'the body is not JSON' })
        return
      }
      await streamFrames(res, vocionResume(body).map((data) => ({ data })), parseStreamOptions(query, defaultDelayMs))
    },
  },
  {
    method: 'POST',
    path: '/mock/loop/:protocol',
    handler: async ({ req, res, params, query, defaultDelayMs }) => {
      const builder = builders[params.protocol ?? '']
      if (!builder) {
        sendJson(res, 404, { error: 'not_found', message: `no loop agent for ${params.protocol}` })
        return
      }
      let body: Json
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}')
        body = isRecord(parsed) ? parsed : {}
      } catch {
        sendJson(res, 400, { error: 'bad_request', message: 'the body is not JSON' })
        return
      }
      const frames: MockFrame[] = builder.reply(body).map((data) => ({ data }))
      if (builder.done) frames.push({ data: '[DONE]' })
      await streamFrames(res, frames, parseStreamOptions(query, defaultDelayMs), builder.headers)
    },
  },
]
