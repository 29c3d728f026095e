/**
 * UI message stream: weft against the AI SDK's own fold (`readUIMessageStream`)
 * and its partial-JSON parse (`parsePartialJson`), on the same chunks, in one process.
 */
import { parsePartialJson, readUIMessageStream, type UIMessageChunk } from 'ai'
import { foldStream } from '../src/core/fold-stream'
import { IncrementalJsonParser } from '../src/core/util/partial-json'
import { best, n, table } from './harness'

/** A tool input as JSON text, cut into `deltas` pieces of similar size. */
function toolInputPieces(deltas: number): string[] {
  const items = Array.from({ length: Math.ceil(deltas / 4) }, (_, i) => ({ id: i, title: `Item number ${i}`, done: i % 3 === 0 }))
  const text = JSON.stringify({ query: 'plan the week', items })
  const size = Math.max(1, Math.floor(text.length / deltas))
  const pieces: string[] = []
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size))
  return pieces
}

function chunksFor(textDeltas: number, toolDeltas: number): UIMessageChunk[] {
  const chunks: Array<Record<string, unknown>> = [{ type: 'start', messageId: 'm1' }, { type: 'start-step' }]
  chunks.push({ type: 'tool-input-start', toolCallId: 'call-1', toolName: 'plan' })
  for (const piece of toolInputPieces(toolDeltas)) chunks.push({ type: 'tool-input-delta', toolCallId: 'call-1', inputTextDelta: piece })
  chunks.push({ type: 'text-start', id: 't1' })
  for (let i = 0; i < textDeltas; i++) chunks.push({ type: 'text-delta', id: 't1', delta: `token ${i} ` })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return chunks as unknown as UIMessageChunk[]
}

async function sdkFold(chunks: readonly UIMessageChunk[]): Promise<void> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
  for await (const _ of readUIMessageStream({ stream })) {
    // The AI SDK yields a snapshot of the message after each chunk; reading them is its fold.
  }
}

/** Print the UI message figures. */
export async function benchUIMessage(): Promise<void> {
  console.log('UI message stream: tool input parsed while it streams, µs per delta (lower is better)')
  const rows: Array<Record<string, string>> = []
  for (const deltas of [100, 1_000, 10_000]) {
    const pieces = toolInputPieces(deltas)
    const weftMs = await best(5, () => {
      const parser = new IncrementalJsonParser()
      for (const piece of pieces) parser.push(piece)
    })
    // The AI SDK parses the text received so far on every delta.
    const sdkMs = await best(deltas > 1_000 ? 1 : 5, async () => {
      let text = ''
      for (const piece of pieces) {
        text += piece
        await parsePartialJson(text)
      }
    })
    rows.push({
      deltas: n(pieces.length), 'input bytes': n(pieces.join('').length),
      'weft µs/delta': n((weftMs * 1000) / pieces.length, 2), 'ai parsePartialJson µs/delta': n((sdkMs * 1000) / pieces.length, 2),
      'ai / weft': `${n(sdkMs / weftMs, 1)}x`,
    })
  }
  table(rows)

  console.log('UI message stream: a whole answer folded from decoded chunks (events per second, higher is better)')
  const fold: Array<Record<string, string>> = []
  for (const [text, tool] of [[2_000, 200], [10_000, 1_000]] as const) {
    const chunks = chunksFor(text, tool)
    const weftMs = await best(5, () => {
      foldStream(chunks, { protocol: 'ui-message' })
    })
    const sdkMs = await best(text > 2_000 ? 1 : 3, () => sdkFold(chunks))
    fold.push({
      chunks: n(chunks.length), 'weft events/s': n(chunks.length / (weftMs / 1000)), 'ai readUIMessageStream events/s': n(chunks.length / (sdkMs / 1000)),
      'weft ms': n(weftMs, 1), 'ai ms': n(sdkMs, 1),
    })
  }
  table(fold)
}
