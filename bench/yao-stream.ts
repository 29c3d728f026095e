/**
 * A long Yao stream: one block, `threads` concurrent lanes, `deltas` text
 * deltas interleaved round-robin, with the lifecycle a real server sends.
 */
export function longYaoStream(deltas: number, threads: number): string {
  const lines: string[] = []
  let chunk = 0
  const emit = (event: Record<string, unknown>) => {
    chunk += 1
    lines.push(`data: ${JSON.stringify({ chunk_id: `C${chunk}`, ...event, metadata: { sequence: chunk, timestamp: 1_700_000_000_000 + chunk } })}\n\n`)
  }
  emit({ type: 'event', props: { event: 'stream_start', data: { request_id: 'bench' } } })
  emit({ type: 'event', props: { event: 'block_start', data: { block_id: 'B1', type: 'mixed', label: 'Parallel work' } } })
  for (let t = 1; t <= threads; t++) {
    emit({ type: 'event', props: { event: 'message_start', data: { message_id: `M${t}`, type: 'text', thread_id: `T${t}` } } })
  }
  for (let i = 0; i < deltas; i++) {
    const t = (i % threads) + 1
    emit({ message_id: `M${t}`, block_id: 'B1', thread_id: `T${t}`, type: 'text', delta: true, props: { content: `token ${i} ` } })
  }
  for (let t = 1; t <= threads; t++) {
    emit({ type: 'event', props: { event: 'message_end', data: { message_id: `M${t}`, status: 'completed' } } })
  }
  emit({ type: 'event', props: { event: 'block_end', data: { block_id: 'B1' } } })
  emit({ type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } })
  return lines.join('')
}
