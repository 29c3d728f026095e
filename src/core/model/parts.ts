/**
 * The message types the kit draws, with the props each carries, and the one
 * reader that checks a message's props against its shape. The types say what
 * the built-in decoders write; what a server sends is still untrusted, so a
 * view reads through `partProps`, which never throws and never returns a value
 * of the wrong type.
 */
import type { Message, ToolState } from './model'
import { recordOf } from '../util/record'

/**
 * What any part may carry beyond its own fields: `extra`, `providerMetadata`, a protocol's own, kept as they came.
 *
 * @example
 * const extra: OpenProps = { providerMetadata: { openai: { id: 'x' } } }
 */
export interface OpenProps {
  [key: string]: unknown
}

/** Props of `text`: the answer, or a person's words. */
export interface TextProps extends OpenProps {
  /** The text so far; it grows while the message streams. */
  content: string
}

/** Props of `reasoning`: the model's thinking, shown apart from the answer. */
export interface ReasoningProps extends OpenProps {
  content: string
}

/** Props of `tool`: one tool call, from its streamed input to its result. */
export interface ToolProps extends OpenProps {
  toolCallId: string
  /** The tool's name (`''` when the server named none). */
  name: string
  state?: ToolState
  /** The parsed input, partial while it streams. */
  input?: unknown
  /** The input as the server sent it, as text. */
  inputText?: string
  output?: unknown
  errorText?: string
  /** A title for the call, when the server gave one. */
  title?: string
  /** The output is a preliminary one; a final one follows. */
  preliminary?: boolean
  /** How long the call ran, as the server measured it. */
  durationMs?: number
}

/** Props of `file`, `image` and `reasoning-file`. */
export interface FileProps extends OpenProps {
  url?: string
  mediaType?: string
  filename?: string
  /** An image's text alternative. */
  alt?: string
}

/** Props of `notice`: a line from the agent, with a level (`info`, `warning`, `error`, `success`, …). */
export interface NoticeProps extends OpenProps {
  text: string
  level?: string
}

/** Props of `error`: an error the agent reported inside its answer. */
export interface ErrorProps extends OpenProps {
  message?: string
  /** What kind of error it is, as the server named it. */
  code?: string
}

/** Props of `loading`: a progress line while the agent works. */
export interface LoadingProps extends OpenProps {
  message?: string
}

/** Props of `recommended-action`: an action the agent suggests; nothing runs until a person activates it. */
export interface RecommendedActionProps extends OpenProps {
  actionId?: string
  label?: string
  rationale?: string
  /** From 0 to 1. */
  confidence?: number
  /** What the action would be given. */
  input?: unknown
}

/** Props of a `data-<name>` part. */
export interface DataProps extends OpenProps {
  data?: unknown
  id?: string
}

/**
 * The props of each message type the kit draws, by type; `data-*` stands for
 * every `data-<name>` type. A host's own types are not listed here: it types
 * them with `Message<'my-type', MyProps>`.
 *
 * @example
 * function label(props: PartProps['tool']) { return props.title ?? props.name }
 */
export interface PartProps {
  text: TextProps
  reasoning: ReasoningProps
  tool: ToolProps
  file: FileProps
  image: FileProps
  /** A file the model made while reasoning. */
  'reasoning-file': FileProps
  notice: NoticeProps
  error: ErrorProps
  loading: LoadingProps
  'recommended-action': RecommendedActionProps
  'data-*': DataProps
}

/**
 * The message type a `PartProps` key stands for.
 *
 * @example
 * type Drawn = TypeOfKey<'data-*'> // `data-${string}`
 */
export type TypeOfKey<Key extends keyof PartProps> = Key extends 'data-*' ? `data-${string}` : Key

/**
 * The messages the kit draws, as one union on `type`: checking the type
 * narrows the props. A store's messages are plain `Message`s; this is the shape
 * the built-in decoders give them, and `partProps` reads one safely.
 *
 * @example
 * function describe(m: MessagePart): string {
 *   if (m.type === 'tool') return `${m.props.name}: ${m.props.state ?? 'called'}`
 *   if (m.type === 'text') return m.props.content
 *   return m.type
 * }
 */
export type MessagePart = { [Key in keyof PartProps]: Message<TypeOfKey<Key>, PartProps[Key]> }[keyof PartProps]

const TOOL_STATES: ReadonlySet<unknown> = new Set<ToolState>([
  'input-streaming', 'input-available', 'approval-requested', 'approval-responded', 'output-available', 'output-error', 'output-denied',
])

/** A value as display text: strings as they are, numbers and booleans spelled out. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

/** The first of several fields that holds non-empty text. */
function firstText(...values: unknown[]): string | undefined {
  for (const value of values) {
    const text = textOf(value)
    if (text) return text
  }
  return undefined
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

type Raw = Record<string, unknown>

const content = (raw: Raw) => ({ ...raw, content: textOf(raw.content) ?? '' })

function file(raw: Raw): FileProps {
  return {
    ...raw,
    url: typeof raw.url === 'string' ? raw.url : typeof raw.src === 'string' ? raw.src : undefined,
    mediaType: firstText(raw.mediaType, raw.mimeType),
    filename: firstText(raw.filename, raw.name, raw.title),
    alt: firstText(raw.alt),
  }
}

// Each reader keeps every field it does not know and replaces the ones it does with
// a value of the right type, or `undefined`; a field's older or other names fall back in order.
const readers: { readonly [Key in keyof PartProps]: (raw: Raw) => PartProps[Key] } = {
  text: content,
  reasoning: content,
  tool: (raw) => ({
    ...raw,
    toolCallId: textOf(raw.toolCallId) ?? '',
    name: firstText(raw.name, raw.toolName) ?? '',
    state: TOOL_STATES.has(raw.state) ? (raw.state as ToolState) : undefined,
    inputText: typeof raw.inputText === 'string' ? raw.inputText : undefined,
    errorText: firstText(raw.errorText),
    title: firstText(raw.title),
    preliminary: typeof raw.preliminary === 'boolean' ? raw.preliminary : undefined,
    durationMs: finite(raw.durationMs),
  }),
  file,
  image: file,
  'reasoning-file': file,
  notice: (raw) => ({ ...raw, text: firstText(raw.text, raw.content, raw.message) ?? '', level: firstText(raw.level) }),
  error: (raw) => ({ ...raw, message: firstText(raw.message, raw.errorText, raw.text, raw.content), code: firstText(raw.type, raw.code) }),
  loading: (raw) => ({ ...raw, message: firstText(raw.message, raw.text, raw.content) }),
  'recommended-action': (raw) => ({
    ...raw,
    actionId: firstText(raw.actionId),
    label: firstText(raw.label),
    rationale: firstText(raw.rationale),
    confidence: finite(raw.confidence),
  }),
  'data-*': (raw) => ({ ...raw, id: firstText(raw.id) }),
}

/**
 * A message's props read as the shape of one built-in type, checked at run
 * time: every field comes back with its declared type or not at all (required
 * text as `''`), other names a server uses for a field fill it in, and fields
 * the shape does not list are kept as they came. Never throws, whatever the
 * props hold. The shape is the caller's choice, not `message.type`, so a view
 * registered for several types reads them all one way.
 *
 * @example
 * function ToolName({ message }: MessageRendererProps) {
 *   const { name, state } = partProps(message, 'tool') // name: string, state: ToolState | undefined
 *   return <b data-state={state}>{name || 'tool'}</b>
 * }
 */
export function partProps<Type extends keyof PartProps>(message: { readonly props: unknown }, type: Type): PartProps[Type] {
  return readers[type](recordOf(message.props) ?? {})
}
