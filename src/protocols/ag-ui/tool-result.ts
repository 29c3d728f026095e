/**
 * A tool result as AG-UI back ends send it (the `TOOL_CALL_RESULT` event, or a
 * `role: "tool"` message in a snapshot or in history), read into the props of
 * weft's tool message. The document's back end adds `ui_schema` (compiled UI
 * hints, with `actions`), `tool_call_args` and `result` next to `content`.
 */
import { checkNavigationAction, isNavigationAction } from './navigation'
import { isRecord } from '../../protocol-kit/index'

/**
 * What a tool result contributes to its tool message, and the actions refused on the way.
 *
 * @example
 * const { props, refused }: ToolResultReading = readToolResult(event)
 */
export interface ToolResultReading {
  props: Record<string, unknown>
  /** One line per refused navigation action. */
  refused: string[]
}

/**
 * Read a tool result.
 *
 * - `props.output`: `result` when sent, else `content` (JSON text that holds an
 *   object or array is parsed; text parts are joined).
 * - `props.resultContent`: `content` exactly as sent.
 * - `props.uiSchema`: `ui_schema` (also `uiSchema`, `metadata.ui_schema`, or inside
 *   JSON `content`), with `actions` checked: navigations that fail the check are
 *   dropped and listed in `refused`; `props.actions` holds the actions kept.
 * - `props.state`: `output-error` (with `errorText`) when the result has an `error`, else `output-available`.
 *
 * @example
 * readToolResult({ content: '{"id":1}', ui_schema: { actions: [{ type: 'navigation', path: '/todo/1' }] } }).props
 * // { output: { id: 1 }, resultContent: '{"id":1}', uiSchema: {...}, actions: [{ type: 'navigation', path: '/todo/1', params: {} }], state: 'output-available' }
 */
export function readToolResult(raw: Record<string, unknown>): ToolResultReading {
  const props: Record<string, unknown> = {}
  const refused: string[] = []
  const content = raw.content
  const parsedContent = typeof content === 'string' ? parseStructured(content) : undefined
  if (content !== undefined) props.resultContent = content
  if (raw.result !== undefined) props.output = raw.result
  else if (content !== undefined) props.output = parsedContent ?? contentValue(content)

  const metadata = isRecord(raw.metadata) ? raw.metadata : undefined
  if (metadata) props.metadata = metadata
  const schema = firstRecord(raw.ui_schema, raw.uiSchema, metadata?.ui_schema, isRecord(parsedContent) ? parsedContent.ui_schema : undefined)
  if (schema) {
    if (Array.isArray(schema.actions)) {
      const actions = keptActions(schema.actions, refused)
      props.uiSchema = { ...schema, actions }
      props.actions = actions
    } else {
      props.uiSchema = schema
    }
  }

  const args = raw.tool_call_args ?? raw.toolCallArgs
  if (isRecord(args) || Array.isArray(args)) {
    props.input = args
    props.inputText = JSON.stringify(args)
  } else if (typeof args === 'string') {
    props.inputText = args
    const parsed = parseJson(args)
    if (parsed.ok) props.input = parsed.value
  }

  const error = typeof raw.error === 'string' && raw.error !== '' ? raw.error : undefined
  props.state = error ? 'output-error' : 'output-available'
  if (error) props.errorText = error
  return { props, refused }
}

/** The actions to keep: every non-navigation action as sent, every navigation that passes the check. */
function keptActions(actions: unknown[], refused: string[]): unknown[] {
  const kept: unknown[] = []
  for (const action of actions) {
    if (!isNavigationAction(action)) {
      kept.push(action)
      continue
    }
    const checked = checkNavigationAction(action)
    if (checked.ok) kept.push({ ...(action as Record<string, unknown>), type: 'navigation', ...checked.target })
    else refused.push(checked.reason)
  }
  return kept
}

function contentValue(content: unknown): unknown {
  if (!Array.isArray(content)) return content
  const texts = content.filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
  return texts.length === content.length ? texts.map((part) => (part as { text: string }).text).join('') : content
}

/** JSON text holding an object or an array, parsed; anything else stays text. */
function parseStructured(text: string): unknown {
  const start = text.trimStart()[0]
  if (start !== '{' && start !== '[') return undefined
  const parsed = parseJson(text)
  return parsed.ok ? parsed.value : undefined
}

function firstRecord(...candidates: unknown[]): Record<string, unknown> | undefined {
  for (const candidate of candidates) if (isRecord(candidate)) return candidate
  return undefined
}

/**
 * `JSON.parse` that reports instead of throwing.
 *
 * @example
 * parseJson('{"a":1}') // { ok: true, value: { a: 1 } }
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}
