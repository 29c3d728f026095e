/**
 * Scenario format for the mock agent server.
 *
 * A scenario is a recorded (or hand-written) SSE stream: an ordered list of
 * frames that the server writes one by one. Each protocol keeps its scenarios
 * in `mock/scenarios/<protocol>.ts` and registers them in `mock/scenarios/index.ts`.
 */

import type { FixtureFrame } from '../src/testing/frames.js'

// The frame format and its SSE encoding are shipped in `weft/testing`; the mock server writes the same bytes.
export { encodeFrame, seededRandom, sliceBytes, type LineEnding } from '../src/testing/frames.js'

/** One SSE event (or comment) as the server writes it. */
export type MockFrame = FixtureFrame

export interface Scenario {
  /** Wire protocol the frames speak, e.g. `yao`. Part of the URL. */
  protocol: string
  /** URL-safe name, unique within the protocol. */
  name: string
  /** Human-readable title for stories and listings. */
  title: string
  frames: MockFrame[]
  /** Extra response headers (e.g. a protocol marker header). */
  headers?: Record<string, string>
}
