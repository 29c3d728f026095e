/**
 * The AI SDK convention: `GET <api>/<chatId>/stream` replays the active stream
 * from its start (204: nothing to resume), so the client skips what it already
 * folded, after checking that the replay matches it.
 */
import { alignReplay, type ResumeHandle, type ResumeStrategy } from '../../core/index'
import { joinPath } from '../../protocol-kit/index'

/**
 * A handle for an AI SDK style stream.
 *
 * @example
 * const handle: AiSdkHandle = { strategy: 'ai-sdk', turnId: 't1', count: 40, url: '/api/chat', chatId: 'chat-1' }
 */
export interface AiSdkHandle extends ResumeHandle {
  /** The chat API; the resume request goes to `<url>/<chatId>/stream`. */
  url: string
  chatId: string
}

/**
 * Options of `aiSdkResume`.
 *
 * @example
 * aiSdkResume({ chatId: (key) => key.replace(/^chat:/, '') })
 */
export interface AiSdkResumeOptions {
  /** The chat id for a conversation key (default: the key itself). */
  chatId?: (conversationKey: string) => string
}

/**
 * The AI SDK style strategy.
 *
 * @example
 * useResumableStream({ url: '/api/chat', resume: aiSdkResume(), conversationKey: chatId })
 */
export function aiSdkResume(options: AiSdkResumeOptions = {}): ResumeStrategy<AiSdkHandle> {
  return {
    name: 'ai-sdk',
    replaysFromStart: true,
    identify: () => ({ counted: true }),
    handle({ turnId, ledger, protocol, conversationKey, streamUrl, resumeUrl, previous }) {
      const url = resumeUrl ?? previous?.url ?? streamUrl
      if (!url) return undefined
      const chatId = previous?.chatId ?? (options.chatId ? options.chatId(conversationKey) : conversationKey)
      return { strategy: 'ai-sdk', turnId, protocol, count: ledger.count, url, chatId }
    },
    request: (handle, { resumeUrl }) => ({ url: joinPath(resumeUrl ?? handle.url, handle.chatId, 'stream') }),
    dedupe: (ledger, { report }) => alignReplay(ledger, { startAt: 0, report }),
    revive: (value) =>
      typeof value.url === 'string' && value.url !== '' && typeof value.chatId === 'string' && value.chatId !== ''
        ? (value as unknown as AiSdkHandle)
        : undefined,
  }
}
