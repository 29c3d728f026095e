/**
 * How each protocol's server answers a reconnect, as functions from a fixture to
 * a `Response`: shared by the MSW handlers and the Storybook decorator, so a
 * stream cut at frame k picks up again wherever it plays.
 */
import { fixtures } from './fixtures'
import type { AgentFixture, BuiltInProtocol, FixtureFrame } from './frames'
import { isBuiltInProtocol, UnsupportedProtocolError } from './protocols'
import { streamResponse, type StreamResponseOptions } from './stream-response'

/**
 * The stream options of a reconnect: the first connection's `cutAt` and `status`
 * do not apply again, so the rest arrives whole.
 *
 * @example
 * const options: ReplyOptions = { pace: 20, chunking: 'random', seed: 3 }
 */
export type ReplyOptions = Omit<StreamResponseOptions, 'cutAt' | 'status' | 'protocol'>

/**
 * Vocion: `GET <resume>?id=<streamId>&after=<count>` replays the events after
 * `after` (the `stream_meta` frame is neither counted nor replayed). Another id
 * is 404, as an expired stream is.
 *
 * @example
 * vocionResumeReply(fixtures.vocion.answer, { id: 'stream-answer-1', after: 7 })
 */
export function vocionResumeReply(fixture: AgentFixture, ask: { id: string | null; after: number }, options: ReplyOptions = {}): Response {
  const meta = fixture.frames.find(isStreamMeta)
  const streamId = meta ? (meta.data as { streamId?: unknown }).streamId : undefined
  if (typeof streamId !== 'string' || ask.id !== streamId) return notFound('Unknown or expired stream')
  const events = fixture.frames.filter((frame) => frame.data !== undefined && !isStreamMeta(frame))
  return streamResponse({ ...fixture, frames: events.slice(Math.max(0, ask.after)) }, options)
}

/**
 * Yao tasks: `GET <resume>?since=<sequence>` replays the messages whose
 * `metadata.sequence` is higher, then `event: read_complete {last_seq, live: false}`.
 *
 * @example
 * yaoResumeReply(fixtures.yao['long-answer'], 12)
 */
export function yaoResumeReply(fixture: AgentFixture, since: number, options: ReplyOptions = {}): Response {
  const newer = fixture.frames.filter((frame) => (sequenceOf(frame) ?? 0) > since)
  const lastSeq = newer.length > 0 ? sequenceOf(newer[newer.length - 1]!) ?? since : Math.max(0, since)
  const readComplete: FixtureFrame = { event: 'read_complete', data: { last_seq: lastSeq, live: false } }
  const frames = fixture.end === 'drop' ? newer : [...newer, readComplete]
  return streamResponse({ ...fixture, frames }, options)
}

/**
 * Standard SSE (AG-UI's events endpoint): a reconnect with `Last-Event-ID`
 * gets the frames after the one with that id, without the keepalives that went
 * between them. An unknown id is 404; nothing left is 204 (do not reconnect).
 *
 * @example
 * lastEventIdReply(fixtures['ag-ui']['long-answer'], 'run_long:0009')
 */
export function lastEventIdReply(fixture: AgentFixture, lastEventId: string, options: ReplyOptions = {}): Response {
  const at = fixture.frames.findIndex((frame) => frame.id === lastEventId)
  if (at < 0) return notFound(`No event with id ${lastEventId}`)
  const rest = fixture.frames.slice(at + 1).filter((frame) => frame.data !== undefined)
  if (rest.length === 0 && fixture.end !== 'drop') return new Response(null, { status: 204, headers: { 'cache-control': 'no-cache' } })
  return streamResponse({ ...fixture, frames: rest }, options)
}

/**
 * LangGraph: `GET /threads/{id}/runs/{run_id}/stream` with `Last-Event-ID`
 * rejoins a run. The server keeps the run's events (a run created with
 * `stream_resumable`) and sends those after that id, `-1` (or no header) from
 * the start, then closes the body: LangGraph has no end event, so nothing left
 * is an empty stream. A fixture that ended in a drop holds only what the
 * client saw; its run is replayed from the shipped recording of the same run
 * (`long-run` for `dropped-connection`), so the rejoin gets the rest. An id the
 * run never sent is 404.
 *
 * @example
 * langGraphResumeReply(fixtures.langgraph['dropped-connection'], '11') // the rest of the long run
 */
export function langGraphResumeReply(fixture: AgentFixture, lastEventId: string | null, options: ReplyOptions = {}): Response {
  const run = wholeRun(fixture)
  const fromStart = lastEventId === null || lastEventId === '' || lastEventId === '-1'
  const at = fromStart ? -1 : run.frames.findIndex((frame) => frame.id === lastEventId)
  if (!fromStart && at < 0) return notFound(`No event with id ${lastEventId}`)
  return streamResponse({ ...run, frames: run.frames.slice(at + 1).filter((frame) => frame.data !== undefined) }, options)
}

/**
 * A reconnect by `Last-Event-ID`, the way the fixture's server answers it:
 * LangGraph's rejoin, or standard SSE's frames after that id.
 *
 * @example
 * replyAfter(fixtures.langgraph['long-run'], '11')
 */
export function replyAfter(fixture: AgentFixture, lastEventId: string, options: ReplyOptions = {}): Response {
  return fixture.protocol === 'langgraph' ? langGraphResumeReply(fixture, lastEventId, options) : lastEventIdReply(fixture, lastEventId, options)
}

/** The run a LangGraph fixture belongs to, as the server keeps it: the fixture, or the shipped one of the same run that did not drop. */
function wholeRun(fixture: AgentFixture): AgentFixture {
  if (fixture.end !== 'drop') return fixture
  const runId = runIdOf(fixture)
  const whole = Object.values(fixtures.langgraph).find((f) => f.end !== 'drop' && runId !== undefined && runIdOf(f) === runId)
  return whole ?? fixture
}

function runIdOf(fixture: AgentFixture): string | undefined {
  const meta = fixture.frames.find((frame) => frame.event === 'metadata')?.data
  const runId = typeof meta === 'object' && meta !== null ? (meta as { run_id?: unknown }).run_id : undefined
  return typeof runId === 'string' ? runId : undefined
}

/**
 * The AI SDK convention: `GET <api>/<chatId>/stream` replays the active stream
 * from its start (the client drops what it already folded).
 *
 * @example
 * aiSdkReplay(fixtures['ui-message'].full)
 */
export function aiSdkReplay(fixture: AgentFixture, options: ReplyOptions = {}): Response {
  return streamResponse(fixture, options)
}

/**
 * The resume strategy whose server each protocol's reply plays: what a client
 * passes as `resume.strategy` to reconnect to these replies.
 *
 * @example
 * new AgentClient(store, { url, resume: { strategy: RESUME_STRATEGY['ag-ui'], conversationKey: 'c1' } })
 */
export const RESUME_STRATEGY: Readonly<Record<BuiltInProtocol, string>> = {
  vocion: 'vocion',
  yao: 'yao',
  'ui-message': 'ai-sdk',
  'ag-ui': 'sse',
  langgraph: 'langgraph',
}

/**
 * The reply to a reconnect, read from the request the way the fixture's
 * protocol asks: a LangGraph rejoin (`Last-Event-ID`, `-1` from the start),
 * `Last-Event-ID` (any other protocol), else Vocion's `id`/`after`, Yao's
 * `since`, or the AI SDK's replay from the start. Without
 * `Last-Event-ID`, a fixture of a host's own protocol throws an
 * `UnsupportedProtocolError` (`feature: 'resume'`): weft cannot know how its server resumes.
 *
 * @example
 * const answer = (request: Request) => resumeReply(fixtures.yao['long-answer'], request)
 */
export function resumeReply(fixture: AgentFixture, request: Request, options: ReplyOptions = {}): Response {
  const lastEventId = request.headers.get('last-event-id')
  if (fixture.protocol === 'langgraph') return langGraphResumeReply(fixture, lastEventId, options)
  if (lastEventId) return lastEventIdReply(fixture, lastEventId, options)
  if (!isBuiltInProtocol(fixture.protocol)) throw new UnsupportedProtocolError(fixture.protocol, 'resume')
  const query = new URL(request.url).searchParams
  if (fixture.protocol === 'vocion') return vocionResumeReply(fixture, { id: query.get('id'), after: count(query.get('after')) }, options)
  if (fixture.protocol === 'yao') return yaoResumeReply(fixture, count(query.get('since')), options)
  return aiSdkReplay(fixture, options)
}

function notFound(message: string): Response {
  return new Response(JSON.stringify({ error: 'not_found', message }), { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' } })
}

function isStreamMeta(frame: FixtureFrame): boolean {
  return typeof frame.data === 'object' && frame.data !== null && (frame.data as { type?: unknown }).type === 'stream_meta'
}

function sequenceOf(frame: FixtureFrame): number | undefined {
  const data = frame.data
  const metadata = typeof data === 'object' && data !== null ? (data as { metadata?: unknown }).metadata : undefined
  const sequence = typeof metadata === 'object' && metadata !== null ? (metadata as { sequence?: unknown }).sequence : undefined
  return typeof sequence === 'number' ? sequence : undefined
}

function count(raw: string | null): number {
  const n = raw === null ? NaN : Number(raw)
  return Number.isInteger(n) && n > 0 ? n : 0
}
