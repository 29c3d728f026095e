/**
 * What the page gives the agent beside the conversation: the shared agent state,
 * set from the page (applied to the store at once and sent with the next request
 * where the protocol carries state, AG-UI's `RunAgentInput.state`), and context
 * entries sent with every request. Only plain JSON data goes in, as everywhere in the store.
 */
import { weftError, type WeftError } from '../model/errors'
import type { Op } from '../model/ops'
import type { AgentStore } from '../store/store'
import { isJsonData } from '../util/is-json-data'
import { isRecord, isSafeKey } from '../util/record'
import type { ActionResult } from './gates'
import type { ContextEntry } from '../protocol/request'

/**
 * A new agent state, or a function of the current one that returns it.
 *
 * @example
 * const update: AgentStateUpdate = (current) => ({ ...current, theme: 'teal' })
 */
export type AgentStateUpdate = Record<string, unknown> | ((current: Readonly<Record<string, unknown>>) => Record<string, unknown>)

/**
 * Replace the store's `agentState` with `update` (or what it returns for the
 * current state). Refused, with nothing changed, unless the result is a plain
 * object of JSON data: no functions, class instances, cycles or prototype keys.
 *
 * @example
 * setAgentState(store, (current) => ({ ...current, theme: 'teal' })) // { ok: true }
 */
export function setAgentState(store: AgentStore, update: AgentStateUpdate): ActionResult {
  const state = store.getState()
  let next: unknown
  try {
    next = typeof update === 'function' ? update(state.agentState) : update
  } catch (thrown) {
    return { ok: false, error: weftError('validation', `the state update threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { code: 'not_json', retryable: false }) }
  }
  if (!isRecord(next) || !isJsonData(next) || !safeKeys(next)) {
    return { ok: false, error: weftError('validation', 'the agent state must be a plain object of JSON data (no functions, class instances, cycles or prototype keys)', { code: 'not_json', retryable: false }) }
  }
  const ops: Op[] = [{ op: 'agentState.set', value: next }]
  state.dispatch(ops)
  return { ok: true }
}

/** True when no key anywhere in the (JSON) value could reach a prototype (`__proto__`, `constructor`, `prototype`). */
function safeKeys(value: unknown): boolean {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (Array.isArray(item)) stack.push(...item)
    else if (isRecord(item)) {
      for (const key of Object.keys(item)) {
        if (!isSafeKey(key)) return false
        stack.push(item[key])
      }
    }
  }
  return true
}

/**
 * What `addContext` reports: the entry is sent from the next request on, until
 * `remove()`; or it was refused and nothing was added.
 *
 * @example
 * const added: AddContextResult = client.addContext({ description: 'Theme', value: 'dark' })
 */
export type AddContextResult = { ok: true; remove: () => void } | { ok: false; error: WeftError }

/**
 * Add a context entry to `entries` (a copy, so a later change of the host's object
 * is not sent), or refuse one whose description is not text or whose value is not JSON data.
 *
 * @example
 * const added = addContext(entries, { description: 'Theme', value: 'dark' })
 */
export function addContext(entries: Set<ContextEntry>, entry: ContextEntry): AddContextResult {
  if (!isRecord(entry) || typeof entry.description !== 'string' || !isJsonData(entry.value) || !safeKeys(entry.value)) {
    return { ok: false, error: weftError('validation', 'a context entry is { description: string, value: JSON data }', { code: 'not_json', retryable: false }) }
  }
  const copy: ContextEntry = { description: entry.description, value: structuredClone(entry.value) }
  entries.add(copy)
  return { ok: true, remove: () => void entries.delete(copy) }
}
