/**
 * Records a live agent stream into a fixture, with its timing, so a stream seen
 * against a real server becomes a test in one step.
 */
import { AgentClient, type AgentClientOptions } from '../core/client'
import { foldStream } from '../umbrella/defaults'
import type { ProtocolName } from '../core/model/model'
import { protocolName } from '../core/protocol/resolve'
import type { ProtocolDefinition } from '../core/protocol/types'
import { createFrameParser } from '../core/transport/frames'
import { isSecretName, scrubUrl } from '../core/util/secret-names'
import { encodeFrame, fixtureFrameOf, type AgentFixture, type FixtureFrame } from './frames'

/**
 * Options of `recordStream`.
 *
 * @example
 * const options: RecordStreamOptions = { url: '/api/agent', protocol: 'vocion', name: 'renewal-bug' }
 */
export interface RecordStreamOptions extends AgentClientOptions {
  /** The fixture's name (default `recording`, then `recording-2`, …). */
  name?: string
  /** The fixture's title (default: the request's method and path). */
  title?: string
  /**
   * Response headers to keep besides the protocol markers weft reads. Request
   * headers are never kept, and neither is any header whose name looks secret.
   */
  keepHeaders?: readonly string[]
  /** Called with each finished recording. */
  onRecording?: (fixture: AgentFixture) => void
}

/**
 * A recorder: hand `options` (or `fetch`) to the client, then read the fixtures.
 *
 * @example
 * const recorder = recordStream({ url: '/api/agent', protocol: 'vocion' })
 * const client = new AgentClient(createAgentStore(), recorder.options)
 * await client.send('Where is the renewal?')
 * writeFileSync('renewal.json', JSON.stringify(recorder.last(), null, 2))
 */
export interface StreamRecorder {
  /** The client options with the recording `fetch` in place. */
  readonly options: AgentClientOptions
  /** A `fetch` that records every event stream it reads. */
  readonly fetch: typeof fetch
  /** Every recording so far, oldest first (one per streamed response). */
  readonly recordings: readonly AgentFixture[]
  /** The latest recording, complete once its stream ended. */
  last(): AgentFixture | undefined
  /** Given a client: put its own `fetch` back. */
  stop(): void
}

/** Headers weft reads to recognise a protocol; kept so a replay detects the same one. */
const PROTOCOL_HEADERS = ['content-type', 'x-vercel-ai-ui-message-stream']

/**
 * Wraps a client's `fetch` (given the client, or the options it is made with) so
 * every event stream it reads is recorded as a fixture:
 * the frames as they arrived (ids, event names, comments, retry), each with the
 * wait before it, and whether the connection dropped. Request headers, cookies
 * and secret-looking query parameters are never recorded. The fixture names the
 * client's protocol, a host's own included; a client that detects gets the name
 * detection finds among its `protocols` (the built-ins when it has none) once the
 * stream ended, and `unknown` when none recognised it.
 *
 * @example
 * const recorder = recordStream({ url: 'https://agent.example.com/chat', headers: { authorization: `Bearer ${token}` } })
 * const { send } = useAgentStream(recorder.options)
 *
 * const fromClient = recordStream(client, { name: 'renewal-bug' })
 * await client.send('Where is the renewal?')
 * fromClient.stop()
 */
export function recordStream(target: AgentClient | RecordStreamOptions = {}, settings: Omit<RecordStreamOptions, keyof AgentClientOptions> = {}): StreamRecorder {
  if (target instanceof AgentClient) {
    // The client keeps its options; only its fetch is wrapped, until stop().
    const client = target
    const original = client.currentOptions
    const recorder = recordStream({ ...original, ...settings })
    client.setOptions({ ...original, fetch: recorder.fetch })
    return { ...recorder, get recordings() { return recorder.recordings }, stop: () => client.setOptions(original) }
  }
  const { name, title, keepHeaders = [], onRecording, ...clientOptions } = { ...target, ...settings }
  const recordings: AgentFixture[] = []
  const inner = clientOptions.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  const keep = new Set([...PROTOCOL_HEADERS, ...keepHeaders.map((h) => h.toLowerCase())].filter((h) => !isSecretName(h)))
  const named = protocolName(clientOptions.protocol)

  const recordingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const started = now()
    const response = await inner(input, init)
    const type = response.headers.get('content-type') ?? ''
    if (!response.ok || !response.body || !type.includes('text/event-stream')) return response

    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
    const url = scrubUrl(input instanceof Request ? input.url : String(input))
    const headers: Record<string, string> = {}
    response.headers.forEach((value, key) => {
      if (keep.has(key.toLowerCase()) && key.toLowerCase() !== 'content-type') headers[key.toLowerCase()] = value
    })
    const count = recordings.length + 1
    const fixture: AgentFixture = {
      // The client's protocol, a host's own included; without one, what detection finds once the stream has ended.
      protocol: named ?? UNDETECTED,
      name: name ? (count > 1 ? `${name}-${count}` : name) : count > 1 ? `recording-${count}` : 'recording',
      title: title ?? `${method} ${pathOf(url)}`,
      frames: [],
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      request: { method, url },
    }
    recordings.push(fixture)

    let last = started
    const push = (frame: FixtureFrame) => {
      const at = now()
      const delayMs = Math.max(0, Math.round(at - last))
      last = at
      fixture.frames.push(delayMs > 0 ? { ...frame, delayMs } : frame)
    }
    const parser = createFrameParser({
      onFrame: (frame) => push(fixtureFrameOf(frame)),
      onComment: (text) => push({ comment: text.startsWith(' ') ? text.slice(1) : text }),
    })
    const finish = (end: 'clean' | 'drop') => {
      if (end === 'drop') fixture.end = 'drop'
      if (named === undefined) fixture.protocol = detected(fixture, clientOptions.protocols) ?? UNDETECTED
      onRecording?.(fixture)
    }

    const decoder = new TextDecoder()
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>
        try {
          result = await reader.read()
        } catch (error) {
          parser.push(decoder.decode())
          finish('drop')
          controller.error(error)
          return
        }
        if (result.done) {
          parser.push(decoder.decode())
          finish('clean')
          controller.close()
          return
        }
        parser.push(decoder.decode(result.value, { stream: true }))
        controller.enqueue(result.value)
      },
      cancel(reason) {
        return reader.cancel(reason)
      },
    })
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  return {
    options: { ...clientOptions, fetch: recordingFetch as typeof fetch },
    fetch: recordingFetch as typeof fetch,
    get recordings() {
      return recordings
    },
    last: () => recordings[recordings.length - 1],
    stop: () => {},
  }
}

/** The protocol of a recording no protocol recognised (none was named, and detection found none). */
const UNDETECTED = 'unknown'

/** The protocol detection picks for the recorded stream, among the client's candidates (default: the built-ins). */
function detected(fixture: AgentFixture, protocols: readonly ProtocolDefinition[] | undefined): ProtocolName | undefined {
  const text = fixture.frames.map((frame) => encodeFrame(frame)).join('')
  const state = foldStream(text, protocols ? { protocols } : {})
  return state.turns['turn-1']?.protocol
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://relative.invalid/').pathname
  } catch {
    return url
  }
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now()
}
