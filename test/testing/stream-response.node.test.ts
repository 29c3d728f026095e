/**
 * `streamResponse` through a real client: whatever the chunking, every fixture
 * folds to exactly what `foldStream` makes of its whole text.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allFixtures, fixtures, streamResponse, type AgentFixture } from 'weft/testing'
import { STREAM_TRUNCATED } from '../../src/core/model/errors'
import { content, referenceFold, runClient } from './support'

const clean = allFixtures().filter((f) => f.end !== 'drop')

async function viaClient(fixture: AgentFixture, options: Parameters<typeof streamResponse>[1]) {
  return runClient({ url: 'http://agent.test/run', protocol: fixture.protocol, fetch: async (_input, init) => streamResponse(fixture, { ...options, signal: init?.signal }) })
}

describe('streamResponse', () => {
  it('has fixtures in every protocol', () => {
    expect(Object.keys(fixtures).sort()).toEqual(['ag-ui', 'langgraph', 'ui-message', 'vocion', 'yao'])
    expect(clean.length).toBeGreaterThanOrEqual(20)
  })

  it.each(clean.map((f) => [`${f.protocol}/${f.name}`, f] as const))('%s folds like foldStream under random splits', async (_name, fixture) => {
    const expected = content(referenceFold(fixture), 'turn-1')
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom('random' as const, 'frame' as const, 'whole' as const), fc.boolean(), async (seed, chunking, crlf) => {
        const state = await viaClient(fixture, { chunking, seed, eol: crlf ? '\r\n' : '\n' })
        expect(content(state)).toEqual(expected)
      }),
      { numRuns: 8 },
    )
  })

  it('random chunking cuts inside multibyte characters and CRLF pairs', async () => {
    const fixture = fixtures.yao['long-answer']!
    const response = streamResponse(fixture, { chunking: 'random', seed: 11, eol: '\r\n' })
    const chunks: Uint8Array[] = []
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
    const splitsUtf8 = chunks.some((c, i) => i > 0 && (c[0]! & 0xc0) === 0x80)
    const splitsCrlf = chunks.some((c, i) => i > 0 && c[0] === 0x0a && chunks[i - 1]![chunks[i - 1]!.length - 1] === 0x0d)
    expect(splitsUtf8).toBe(true)
    expect(splitsCrlf).toBe(true)
    expect(chunks.length).toBeGreaterThan(fixture.frames.length)
  })

  it('whole chunking sends an instant stream as one chunk, frame chunking one per frame', async () => {
    const fixture = fixtures.vocion.plain!
    const count = async (chunking: 'whole' | 'frame') => {
      let n = 0
      for await (const _ of streamResponse(fixture, { chunking }).body as unknown as AsyncIterable<Uint8Array>) n++
      return n
    }
    expect(await count('whole')).toBe(1)
    expect(await count('frame')).toBe(fixture.frames.length)
  })

  it('cut at k: the client gets a network error and exactly the first k frames', async () => {
    const fixture = fixtures.vocion.answer!
    for (const k of [3, 9, 15]) {
      const state = await viaClient(fixture, { cutAt: k, chunking: 'random', seed: k })
      const turn = state.turns[state.turnIds[state.turnIds.length - 1]!]!
      expect(turn.status).toBe('error')
      expect(turn.error?.type).toBe('network')
      const partial = referenceFold({ ...fixture, frames: fixture.frames.slice(0, k) })
      const { turn: _a, ...got } = content(state) as Record<string, unknown>
      const { turn: _b, ...want } = content(partial, 'turn-1') as Record<string, unknown>
      // Rows still open when the connection dropped are closed as failed by the client; the content itself is the same.
      const props = (messages: unknown) => Object.entries(messages as Record<string, { props: unknown }>).map(([id, m]) => [id, m.props])
      expect(props(got.messages)).toEqual(props(want.messages))
      if (k === 15) expect(props(got.messages).length).toBeGreaterThan(0)
    }
  })

  it('a fixture that ends in a drop errors as a lost connection', async () => {
    const state = await viaClient(fixtures['ui-message']['dropped-connection']!, {})
    expect(state.status).toBe('error')
    expect(state.error?.type).toBe('network')
  })

  /** What the client reports when the body fails the way a closed socket does. */
  const NETWORK = { type: 'network', message: 'Connection lost while streaming: terminated (other side closed)', retryable: true, code: 'UND_ERR_SOCKET' }
  const dropped = allFixtures().filter((f) => f.end === 'drop')

  it('has a dropped-connection fixture in every protocol', () => {
    expect(dropped.map((f) => `${f.protocol}/${f.name}`).sort()).toEqual(['ag-ui', 'langgraph', 'ui-message', 'vocion', 'yao'].map((p) => `${p}/dropped-connection`))
  })

  it.each(dropped.map((f) => [`${f.protocol}/${f.name}`, f] as const))('%s folds like foldStream up to the drop, then ends in the network error, under random splits', async (_name, fixture) => {
    type Content = { turn: Record<string, unknown>; messages: Record<string, { props: { content?: unknown } }> }
    const reference = content(referenceFold(fixture), 'turn-1') as Content
    // The recording stops where the connection dropped, short of the protocol's end: cut off.
    // LangGraph has no end event, so the end of its text reads as the end of the run.
    expect(reference.turn.status).toBe(fixture.protocol === 'langgraph' ? 'done' : 'aborted')
    const problems = (reference.turn.problems as Array<{ code?: string }>).filter((p) => p.code !== STREAM_TRUNCATED)
    // The client saw the drop itself: its turn ends in that error, not as a recording cut short.
    const expected: Content = { ...reference, turn: { ...reference.turn, status: 'error', error: NETWORK, problems } }
    if (fixture.protocol === 'ui-message') {
      // The UI message decoder holds trailing whitespace back until it knows no `<think>` tag
      // follows; a lost connection releases it, as foldStream's end of input does.
      const text = Object.values(expected.messages).find((m) => typeof m.props.content === 'string')!
      expect(String(text.props.content).endsWith(' ')).toBe(true)
    }
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom('random' as const, 'frame' as const, 'whole' as const), fc.boolean(), async (seed, chunking, crlf) => {
        const state = await viaClient(fixture, { chunking, seed, eol: crlf ? '\r\n' : '\n' })
        expect(state.status).toBe('error')
        expect(state.error).toEqual(NETWORK)
        expect(content(state)).toEqual(expected)
      }),
      { numRuns: 8 },
    )
  })

  it('bare events are framed for their protocol', async () => {
    const response = streamResponse([{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hi' }, { type: 'text-end', id: 't' }, { type: 'finish' }], { protocol: 'ui-message' })
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    const text = await response.text()
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
  })

  it('a non-2xx status answers JSON, which the client reports as an HTTP error', async () => {
    const state = await viaClient(fixtures.vocion.plain!, { status: 503 })
    expect(state.status).toBe('error')
    expect(state.error?.status).toBe(503)
  })

  it('recorded pace keeps each frame’s own wait; a fixed pace waits the same before every frame', async () => {
    const { planChunks } = await import('../../src/testing/stream-response')
    const fixture: AgentFixture = { ...fixtures.vocion.plain!, frames: fixtures.vocion.plain!.frames.map((f, i) => ({ ...f, delayMs: i * 3 })) }
    expect(planChunks(fixture, { pace: 'recorded' }).map((c) => c.delayMs)).toEqual(fixture.frames.map((_, i) => i * 3))
    expect(planChunks(fixture, { pace: 7 }).map((c) => c.delayMs)).toEqual(fixture.frames.map(() => 7))
    const tokens = planChunks(fixture, { pace: 'tokens', seed: 3 }).map((c) => c.delayMs)
    expect(tokens).toEqual(planChunks(fixture, { pace: 'tokens', seed: 3 }).map((c) => c.delayMs))
    expect(tokens.slice(1).every((d) => d > 0)).toBe(true)
  })

  it('an aborted request stops the body', async () => {
    const controller = new AbortController()
    const response = streamResponse(fixtures.yao['long-answer']!, { pace: 1000, signal: controller.signal })
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    controller.abort()
    await expect(reader.read()).rejects.toBeDefined()
  })
})
