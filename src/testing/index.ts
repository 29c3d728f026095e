/**
 * weft/testing: test and browse a host's agent UI without a server. Streams as
 * the protocols' SSE, an injectable `fetch`, a Testing Library render helper,
 * recorded fixtures for every protocol, and a recorder that turns a live stream
 * into one. A separate entry: nothing here is in weft's main bundles.
 */
// The fixtures speak the four built-in protocols: a test that uses them with
// `weft/core` alone detects and names them without importing `weft/protocols`.
import '../protocols/index'
export { streamResponse, toFixture, type Pace, type Chunking, type StreamResponseOptions, type StreamSource } from './stream-response'
export { mockFetch, type MockFetch, type MockRoute, type RecordedRequest, type RouteAnswer, type RouteContext } from './mock-fetch'
export { renderWithAgent, type RenderWithAgentOptions, type AgentRenderResult } from './render-with-agent'
export { waitForTurnEnd, markTurnEndsSeen, type TurnEndOptions } from './turn-end'
export { fixtures, situations, allFixtures, type Situation } from './fixtures'
export { getFixture } from './get-fixture'
export { resumeReply, vocionResumeReply, yaoResumeReply, lastEventIdReply, aiSdkReplay, RESUME_STRATEGY, type ReplyOptions } from './resume-replies'
export { recordStream, type RecordStreamOptions, type StreamRecorder } from './recorder'
export { encodeFrame, sliceBytes, seededRandom, type AgentFixture, type BuiltInProtocol, type FixtureFrame, type FixtureProtocol, type LineEnding } from './frames'
export { BUILT_IN_PROTOCOLS, isBuiltInProtocol, UnsupportedProtocolError, type BuiltInOnlyFeature } from './protocols'
