/**
 * The LangGraph fixtures `weft/testing` ships, read from the real server's
 * recordings in test/fixtures/langgraph (`scripts/record-langgraph-fixtures.mjs`):
 * each frame is `{ id, event, data }` as the server wrote it, so replaying a
 * fixture writes the same events. LangGraph sends no end event: a run's stream
 * ends when the body closes, so a clean fixture simply has no more frames.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AgentFixture, FixtureFrame } from '../src/testing/frames.js'

/** One recorded response: `<scenario>/<file>`. */
interface Part {
  scenario: string
  file: string
}

/** A fixture made of one response, or of a run's responses in order (a first response and its rejoin). */
interface LangGraphFixtureSpec {
  name: string
  title: string
  parts: readonly Part[]
  end?: 'drop'
}

/** The shipped LangGraph fixtures and the recordings they come from. */
export const LANGGRAPH_FIXTURES: readonly LangGraphFixtureSpec[] = [
  {
    name: 'agent',
    title: 'A tool-calling agent: get_weather is called for Paris, its result comes back, then the answer',
    parts: [{ scenario: 'agent', file: '01-run.sse' }],
  },
  {
    name: 'approval',
    title: 'The run stops at an interrupt() that asks to approve send_email',
    parts: [{ scenario: 'approval', file: '01-interrupt.sse' }],
  },
  {
    name: 'approval-resume',
    title: 'The run that Command({ resume: { approved: true } }) starts: the email is sent, then the answer',
    parts: [{ scenario: 'approval', file: '02-resume.sse' }],
  },
  {
    name: 'research',
    title: 'Two research subgraphs run in parallel (Send), streamed with stream_subgraphs, then a summary',
    parts: [{ scenario: 'research', file: '01-run.sse' }],
  },
  {
    name: 'reasoning',
    title: 'Reasoning content blocks, then the answer',
    parts: [{ scenario: 'reasoning', file: '01-run.sse' }],
  },
  {
    name: 'error',
    title: 'The model fails mid-answer: part of the answer, then an error event',
    parts: [{ scenario: 'error', file: '01-run.sse' }],
  },
  {
    name: 'dropped-connection',
    title: 'The connection drops after the first 12 events of a long run (the rest is in long-run)',
    parts: [{ scenario: 'long-rejoin', file: '01-dropped.sse' }],
    end: 'drop',
  },
  {
    name: 'long-run',
    title: 'The long run whole, as a rejoin from its start (Last-Event-ID: -1) replays it: the first response, then the rejoin',
    parts: [{ scenario: 'long-rejoin', file: '01-dropped.sse' }, { scenario: 'long-rejoin', file: '02-rejoin.sse' }],
  },
]

interface Recording {
  steps: Array<{
    request: { method: string; path: string }
    response: { headers?: Record<string, string>; body: string }
  }>
}

/**
 * The frames of a LangGraph response's bytes. Each block is `event:`, one
 * `data:` line of JSON and `id:`; anything else (a comment, a second data line,
 * JSON that does not write back to the same text) fails, so a fixture never
 * differs from what the server sent.
 *
 * @example
 * parseLangGraphSse('event: metadata\ndata: {"run_id":"r1"}\nid: 0\n\n') // [{ id: '0', event: 'metadata', data: { run_id: 'r1' } }]
 */
export function parseLangGraphSse(text: string): FixtureFrame[] {
  if (text.includes('\r')) throw new Error('LangGraph recordings end lines with \\n')
  return text.split('\n\n').filter((block) => block !== '').map((block) => {
    const fields = new Map<string, string>()
    for (const line of block.split('\n')) {
      const match = /^(event|data|id): (.*)$/.exec(line)
      if (!match || fields.has(match[1]!)) throw new Error(`Unexpected line in a LangGraph recording: ${line.slice(0, 80)}`)
      fields.set(match[1]!, match[2]!)
    }
    const raw = fields.get('data')
    const data: unknown = raw === undefined ? undefined : JSON.parse(raw)
    if (raw !== undefined && JSON.stringify(data) !== raw) throw new Error(`A data line does not write back as sent: ${raw.slice(0, 80)}`)
    const frame: FixtureFrame = {}
    if (fields.has('id')) frame.id = fields.get('id')
    if (fields.has('event')) frame.event = fields.get('event')
    if (raw !== undefined) frame.data = data
    return frame
  })
}

/** Every LangGraph fixture, built from the recordings under `dir` (test/fixtures/langgraph). */
export function buildLangGraphFixtures(dir: string): AgentFixture[] {
  return LANGGRAPH_FIXTURES.map((spec) => {
    const steps = spec.parts.map(({ scenario, file }) => {
      const recording = JSON.parse(readFileSync(join(dir, scenario, 'recording.json'), 'utf8')) as Recording
      const step = recording.steps.find((s) => s.response.body === file)
      if (!step) throw new Error(`No step of ${scenario} recorded ${file}`)
      return { step, frames: parseLangGraphSse(readFileSync(join(dir, scenario, file), 'utf8')) }
    })
    const first = steps[0]!.step
    return {
      protocol: 'langgraph',
      name: spec.name,
      title: spec.title,
      frames: steps.flatMap((s) => s.frames),
      ...(first.response.headers ? { headers: first.response.headers } : {}),
      ...(spec.end ? { end: spec.end } : {}),
      request: { method: first.request.method, url: first.request.path },
    }
  })
}
