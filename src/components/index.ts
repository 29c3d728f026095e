/**
 * weft's presentational components: pure views over the selector hooks. They
 * need no styles (`weft/styles.css` is an optional default look) and never
 * call a server; a person's actions reach the host through callbacks.
 *
 * @example
 * import { AgentProvider, useAgentStream } from 'weft/react'
 * import { Transcript, Composer, StatusBar } from 'weft/components'
 */
export { Transcript, TurnError } from './transcript'
export { TurnInterrupted, type TurnInterruptedProps } from './turn-interrupted'
export { TurnUsage, UsageSettingsProvider, type TurnUsageProps, type UsageSettings, type UsageSettingsProviderProps, type UsageFigureName } from './turn-usage'
export { usageFigures, type UsageFigures, type Pricing, type PriceTable, type ModelPrice } from '../core/model/usage-figures'
export { formatCost } from './format'
export { Queue, QueuedMessages, type QueueRootProps, type QueueItemProps } from './queued-messages'
export type { TranscriptRootProps, TranscriptTurnProps, TranscriptContentProps, TranscriptBlockProps, TranscriptThreadProps, TurnErrorProps } from './transcript'
export { MessageView, type MessageViewProps } from './message'
export { BranchPicker, type BranchPickerProps } from './branch-picker'
export { Attachments, useAttachments, type AttachmentsState, type AttachmentsRootProps, type AttachmentsButtonProps, type AttachmentsListProps } from './attachments'
export {
  RendererProvider, useRenderer, defaultRenderers,
  type RendererProviderProps, type MessageRenderer, type MessageRendererProps, type MessageRenderers, type MessagePartProps, type MessageLeafProps,
  type RenderedType, type RenderedProps,
} from './renderers'
export {
  WeftCallbacksProvider, useWeftCallbacks,
  type WeftCallbacks, type WeftCallbacksProviderProps, type RouteParams, type Recommendation, type GateAnswer, type GateAnswerDetail,
} from './callbacks'
export { TextMessage, MarkdownMessage } from './messages/text'
export { Markdown, MarkdownSettingsProvider, type MarkdownProps, type MarkdownSettingsProviderProps } from './markdown/markdown'
export { CodeBlock } from './markdown/code-block'
export type { CodeBlockProps } from './markdown/render'
export { useMarkdownSettings, type Highlighter, type HighlightedLine, type HighlightedToken, type MarkdownSettings, type MathRenderer, type DiagramRenderer, type DiagramTheme } from './markdown/highlight'
export { Citation, type CitationProps } from './citations'
export { CopyButton, type CopyButtonProps } from './copy-button'
export { LabelsProvider, useLabels, englishLabels, type WeftLabels, type LabelsProviderProps } from './labels'
export { ReasoningMessage } from './messages/reasoning'
export { ToolCallMessage, useToolState, type ToolRenderer, type ToolRendererProps } from './messages/tool'
export { ToolRenderersProvider, useToolRenderer, type ToolRenderers } from './tool-renderers'
export { ToolGroup, type ToolGroupProps } from './tool-group'
export { PartBoundary, type PartBoundaryProps } from './part-boundary'
export { Slot } from './slot'
export { FileMessage } from './messages/file'
export { NoticeMessage } from './messages/notice'
export { ErrorMessage } from './messages/error'
export { LoadingMessage } from './messages/loading'
export { DataMessage } from './messages/data'
export { RecommendedActionCard } from './messages/recommended-action'
export { SubAgentLane, type LaneHeaderProps, type LaneButtonProps, type LaneFocusBarProps, type LaneRestoreProps } from './lane'
export { useLaneView, useHiddenLanes, useFocusedLane, laneOfRow, rowOfLane, type LaneView, type LaneViewState } from './lane-view'
export { Trace, TraceHeadline, type TraceRootProps, type TraceNodeProps, type TraceHeadlineProps, type TraceDisclosureProps } from './trace'
export { Sources, type SourcesProps } from './sources'
export { Suggestions, type SuggestionsProps } from './suggestions'
export { GateCard, Gates, type GateCardProps, type GatesProps } from './gate-card'
export { StatusBar, type StatusBarProps } from './status-bar'
export { Composer, type ComposerProps, type ComposerRootProps, type ComposerInputProps, type ComposerButtonProps } from './composer'
export type { ComposerDictateProps } from './dictation'
export { VoiceSettingsProvider, useVoiceSettings, ReadAloudButton, type VoiceSettings, type VoiceSettingsProviderProps, type ReadAloudButtonProps } from './voice'
export { StateInspector, type StateInspectorProps, type InspectorSection } from './state-inspector'
export { safeUrl, type SafeUrlOptions } from './safe-url'
export { ThreadList, type ThreadListProps } from './thread-list'
export { ThreadListLayout, type ThreadListLayoutProps } from './thread-list-layout'
export { MessageActions, type MessageActionsProps } from './message-actions'
export { Chat, useStickToBottom, type ChatProps } from './chat'
export { TranscriptScrollContext } from './scroll-context'
export { ConversationBoundary, type ConversationBoundaryProps } from './conversation-boundary'

// The voice adapters' types the settings reach (their Web Speech implementations are weft/voice).
export type {
  DictationAdapter, DictationHandlers, DictationOptions, DictationSession, ReadAloudAdapter, ReadAloudHandlers, ReadAloudOptions, ReadAloudSession, VoiceError, VoiceErrorCode,
} from '../voice/types'

// The core's types the components' props reach, so a host can name them from here.
export type {
  AgentState, Turn, Block, Thread, Message, TraceNode, Gate, Source, QueuedMessage, TokenUsage, TurnTiming, RunTiming, JsonValue,
  StreamStatus, TurnStatus, MessageStatus, TraceStatus, GateStatus, ToolState, ProtocolName, SpanStatus, StreamCursor, TraceActor, ErrorType, WeftError,
  PartProps, TextProps, ReasoningProps, ToolProps, FileProps, DataProps, ErrorProps, NoticeProps, LoadingProps, OpenProps, RecommendedActionProps,
  MessageTable, MessageBucket, TraceTable, Op, HydratedTurn, TurnFields, MessagePlace, DeltaAction,
  ProtocolDefinition, Decoder, DecoderFactory, DecodeContext, DetectInput, FrameMeta, DataPart, SSEFrame, HistoryReader, HistoryReadContext, ProtocolViews,
  RequestBuilder, RequestBody, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration, ContextEntry, SendInput, AttachmentLimits, RespondResult,
  ResumeStrategy, ResumeHandle, ResumeState, ResumeRequest, ResumeRequestContext, ReplayItem, ReplayFilter, EventIdentity, DedupeContext, LedgerView,
} from '../core/index'
