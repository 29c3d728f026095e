/**
 * weft's protocol kit: the helpers the built-in protocols are built from, for a
 * host's own protocol. A protocol is a `ProtocolDefinition` (types in `weft/core`)
 * whose decoder turns wire events into ops; these read untrusted wire values
 * safely, hold streamed text and tool input, keep ids apart per stream, report
 * what cannot be read as `problem` ops, and page and replay history. Like
 * `weft/core`, nothing here imports React.
 *
 * @example
 * import type { Decoder, DecodeContext, ProtocolDefinition } from 'weft/core'
 * import { createIdScope, idOf, protocolProblem, recordOf, stringOf } from 'weft/protocol-kit'
 *
 * function createLinesDecoder({ turnId, scope }: DecodeContext): Decoder {
 *   const ids = createIdScope(scope)
 *   return {
 *     protocol: 'lines', ended: false,
 *     decode(event) {
 *       const record = recordOf(event)
 *       const text = stringOf(record?.text)
 *       if (!record || text === undefined) return [protocolProblem(turnId, 'a line without text', event)]
 *       return [{ op: 'message.delta', turnId, messageId: ids.id(idOf(record.id) ?? 'm'), type: 'text', action: 'append', path: 'content', value: text }]
 *     },
 *     end: () => [{ op: 'turn.finish', turnId, status: 'done' }],
 *   }
 * }
 */

// The core's types the helpers' signatures reach, so a protocol can name them from here as well as from `weft/core`.
export type * from '../core/protocol/entry-types'
export type { AgentStore, AgentStoreState, FoldStreamOptions, HttpRequest, OpName, OpOf, ProtocolInput } from '../core/index'

// Reading untrusted wire values: records, keys, scalars.
export { isRecord, recordOf, own, isSafeKey, extrasOf } from '../core/util/record'
export { stringOf, nonEmpty, idOf, finiteNumber, booleanOf, safeJson, defined, type Defined } from '../core/util/values'

// Paths into JSON values and patches of them.
export { parsePath, getAt, PathError, MAX_PATH_SEGMENTS } from '../core/util/paths'
export { patchJsonData, isJsonData, JsonPatchRefused } from '../core/util/json-data'

// Tool input that streams in pieces: partial JSON.
export { StreamedInput, type EndedInput } from '../core/util/streamed-input'
export {
  IncrementalJsonParser,
  type IncrementalJsonParserOptions, type JsonEdit, type JsonParseFailure, type JsonPathSegment, type JsonSnapshotOptions,
} from '../core/util/partial-json'

// Writing ops: ids per stream, held text appends, problems.
export { createIdScope, type IdScope } from '../core/protocol/scoped-ids'
export { newId } from '../core/model/ids'
export { createHeldAppends, type HeldAppends } from '../core/protocol/held-appends'
export { protocolProblem } from '../core/protocol/problem'
export { readUsage, sumUsage, type UsageFields, type ReadUsage, type UsageCountName } from '../core/protocol/usage'
export { toWeftError, toErrorType, quote } from '../core/model/errors'

// Reading the state a request or a history page is built from.
export { memoByTurn } from '../core/protocol/turn-memo'
export { plainMessages, type PlainMessage } from '../core/protocol/plain-messages'
export { messageIn } from '../core/model/message-table'

// Requests, history and resume.
export { textOf } from '../core/client/request-plan'
export { joinPath, withQuery } from '../core/resume/url'
export { fetchJSON, type JSONResponse } from '../core/transport/fetch-json'
export { replayOps, historyError, HistoryPager, type HistorySource, type HistoryStatus, type HistoryPageResult } from '../core/history/index'
export { streamToOps } from '../core/protocol/fold-stream'
