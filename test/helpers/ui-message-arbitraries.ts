/**
 * fast-check arbitraries for the AI SDK's `UIMessage[]`: every part type its
 * `validateUIMessages` schema lists (text, reasoning, sources, files, steps,
 * data parts, tool parts in each state with approvals), with the optional
 * fields each may carry. Sources and data parts stand anywhere among the parts.
 */
import fc from 'fast-check'
import { isSafeKey } from '../../src/core/util/record'

/** JSON without keys that could reach a prototype (those are dropped by design). */
export const json = fc.jsonValue().filter((v) => !/"(__proto__|constructor|prototype)":/.test(JSON.stringify(v)))
const key = fc.stringMatching(/^[a-z][a-zA-Z]{0,7}$/).filter(isSafeKey)
const jsonObject = fc.dictionary(key, json, { maxKeys: 3 })
export const id = fc.stringMatching(/^[a-z0-9-]{1,12}$/).filter(isSafeKey)
const providerMetadata = fc.dictionary(key, jsonObject, { minKeys: 1, maxKeys: 2 })

/** Optional fields: each present or absent. */
function withOptional<T extends Record<string, unknown>>(base: fc.Arbitrary<T>, optional: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<T> {
  return fc.tuple(base, fc.record(optional, { requiredKeys: [] })).map(([b, o]) => ({ ...b, ...o }))
}

const text = withOptional(fc.record({ type: fc.constant('text'), text: fc.string() }), { state: fc.constantFrom('streaming', 'done'), providerMetadata })
const reasoning = withOptional(fc.record({ type: fc.constant('reasoning'), text: fc.string() }), { id, state: fc.constantFrom('streaming', 'done'), providerMetadata })
const sourceUrl = withOptional(fc.record({ type: fc.constant('source-url'), sourceId: id, url: fc.webUrl() }), { title: fc.string(), providerMetadata })
const sourceDocument = withOptional(
  fc.record({ type: fc.constant('source-document'), sourceId: id, mediaType: fc.constantFrom('text/plain', 'application/pdf'), title: fc.string() }),
  { filename: fc.string({ minLength: 1 }), providerMetadata },
)
const file = withOptional(
  fc.record({ type: fc.constant('file'), mediaType: fc.constantFrom('image/png', 'application/pdf', 'text/plain'), url: fc.oneof(fc.webUrl(), fc.constant('data:text/plain;base64,aGk=')) }),
  { filename: fc.string({ minLength: 1 }), providerMetadata },
)
const step = fc.constant({ type: 'step-start' })
/** Plain data parts and the protocol document's special ones (thinking steps, further questions, terminal info). */
const data = withOptional(fc.oneof(
  fc.record({ type: fc.constantFrom('data-weather', 'data-chart'), data: json }),
  fc.record({ type: fc.constant('data-thinking-step'), data: fc.record({ id, title: fc.string(), status: fc.constantFrom('in_progress', 'completed'), items: fc.array(fc.string(), { maxLength: 2 }) }) }),
  fc.record({ type: fc.constant('data-further-questions'), data: fc.array(fc.string(), { maxLength: 3 }) }),
  fc.record({ type: fc.constant('data-terminal-info'), data: fc.record({ text: fc.string(), type: fc.constantFrom('info', 'error', 'success', 'warning') }) }),
), { id })

const approvalExtras = { descriptor: json, signature: fc.string(), inputSchemaInput: json }
const requested = withOptional(fc.record({ id }), approvalExtras)
const answered = (approved: fc.Arbitrary<boolean>) => withOptional(fc.record({ id, approved }), { ...approvalExtras, reason: fc.string() })
const input = json.filter((v) => v !== null)

/** One tool invocation in each state the SDK lists, with the fields that state allows. */
const invocations = [
  withOptional(fc.record({ state: fc.constant('input-streaming') }), { input, rawInput: fc.string(), inputEncoding: fc.constantFrom('json', 'text'), callProviderMetadata: providerMetadata }),
  withOptional(fc.record({ state: fc.constant('input-available'), input }), { callProviderMetadata: providerMetadata }),
  withOptional(fc.record({ state: fc.constant('approval-requested'), input, approval: requested }), { callProviderMetadata: providerMetadata }),
  withOptional(fc.record({ state: fc.constant('approval-responded'), input, approval: answered(fc.boolean()) }), { callProviderMetadata: providerMetadata }),
  withOptional(fc.record({ state: fc.constant('output-available'), input, output: json }), {
    callProviderMetadata: providerMetadata, resultProviderMetadata: providerMetadata, preliminary: fc.boolean(), approval: answered(fc.constant(true)),
  }),
  withOptional(fc.record({ state: fc.constant('output-error'), errorText: fc.string() }), {
    input, rawInput: json, callProviderMetadata: providerMetadata, resultProviderMetadata: providerMetadata, approval: answered(fc.constant(true)),
  }),
  withOptional(fc.record({ state: fc.constant('output-denied'), input, approval: answered(fc.constant(false)) }), { callProviderMetadata: providerMetadata }),
]
/** Only the states a model can go on from: each call has its result (or was denied). */
const settled = invocations.slice(4)
const toolHead = fc.oneof(
  fc.record({ type: fc.constantFrom('tool-search', 'tool-weather') }),
  withOptional(fc.record({ type: fc.constant('dynamic-tool'), toolName: id }), { dynamic: fc.constant(false) }),
)
const toolOf = (states: ReadonlyArray<fc.Arbitrary<Record<string, unknown>>>) =>
  fc.tuple(toolHead, withOptional(fc.record({ toolCallId: id }), { title: fc.string(), toolMetadata: jsonObject, providerExecuted: fc.boolean() }), fc.oneof(...states))
    .map(([head, common, rest]) => ({ ...head, ...common, ...rest }))

/** Any JSON, an object with fields, or one that uses the names weft keeps its own metadata under. */
const metadata = fc.oneof(jsonObject, json, fc.record({ messageId: json, uiMetadata: json, note: json }, { requiredKeys: [] }))

/** A user message: text, files, data and sources. */
export const userMessage = withOptional(fc.record({
  id, role: fc.constant('user'),
  parts: fc.array(fc.oneof(text, file, data, sourceUrl), { minLength: 1, maxLength: 4 }),
}), { metadata })

/** An answer: any part, in any order, steps among them. */
function assistantMessage(tool: fc.Arbitrary<Record<string, unknown>>) {
  return withOptional(fc.record({
    id, role: fc.constant('assistant'),
    parts: fc.array(fc.oneof(text, reasoning, tool, file, data, sourceUrl, sourceDocument, step), { minLength: 1, maxLength: 8 }),
  }), { metadata })
}

type Plain = Array<{ id: string; role: 'user' | 'assistant'; metadata?: unknown; parts: Array<{ type: string; [key: string]: unknown }> }>

function conversation(tool: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Plain> {
  return fc.uniqueArray(fc.oneof(userMessage, assistantMessage(tool)), { selector: (m) => m.id, minLength: 1, maxLength: 6 })
    .map((messages) => JSON.parse(JSON.stringify(messages)) as Plain)
}

/** A conversation as `UIMessage[]`, as plain JSON (what a store of chats hands back); tool calls in every state. */
export const uiMessages = conversation(toolOf(invocations))

/** A conversation a model can go on from: every tool call has its result, was refused, or failed. */
export const settledUiMessages = conversation(toolOf(settled))
