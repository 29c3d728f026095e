/** Reading a LangGraph server's event streams in tests, with plain `fetch`: frames as the server wrote them. */

/** One SSE frame: the server writes `event:`, `data:` (one line of JSON) and `id:`, in that order. */
export interface Frame {
  event: string
  id: string | undefined
  /** The `data:` line, parsed as JSON. */
  data: unknown
}

/** Parse SSE text into frames (the server ends lines with `\n` and frames with a blank line). */
export function parseFrames(text: string): Frame[] {
  const frames: Frame[] = []
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue
    let event = 'message'
    let id: string | undefined
    const data: string[] = []
    for (const line of block.split(/\r?\n/)) {
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'id') id = value
      else if (field === 'data') data.push(value)
    }
    frames.push({ event, id, data: data.length ? JSON.parse(data.join('\n')) : undefined })
  }
  return frames
}

/** Read a whole event-stream response. */
export async function readFrames(response: Response): Promise<Frame[]> {
  return parseFrames(await response.text())
}

/**
 * Read frames until `count` complete ones arrived, then drop the connection (as a closed tab does).
 * Returns the frames read; the response's headers are on `response`.
 */
export async function readThenDrop(url: string, init: RequestInit, count: number): Promise<{ response: Response; frames: Frame[] }> {
  const controller = new AbortController()
  const response = await fetch(url, { ...init, signal: controller.signal })
  if (!response.body) throw new Error(`no body (status ${response.status})`)
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let frames: Frame[] = []
  try {
    while (frames.length < count) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      // Only frames followed by a blank line are complete.
      frames = parseFrames(text.slice(0, text.lastIndexOf('\n\n') + 2))
    }
  } finally {
    controller.abort()
  }
  return { response, frames: frames.slice(0, count) }
}
