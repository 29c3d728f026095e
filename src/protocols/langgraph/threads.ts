/**
 * LangGraph threads as a conversation storage: `ThreadList` lists the
 * server's threads, selecting one loads its history (with its branches), a new
 * conversation is a new thread id, and removing one deletes the thread. The
 * server keeps what the runs wrote, so a save stores only a renamed title (in
 * the thread's metadata); revisions are counted per page.
 */
import {
  ConversationConflictError, conversationRecord, createAgentStore, WeftStreamError,
  type ConversationStorage, type ConversationSummaryRecord, type StoredConversation,
} from '../../core/index'
import { fetchJSON, isRecord, joinPath, nonEmpty } from '../../protocol-kit/index'
import { readLangGraphHistory } from './history'
import { contentText, lcMessage } from './lc-messages'

/**
 * Options of `langGraphThreads`.
 *
 * @example
 * const options: LangGraphThreadsOptions = { apiUrl: 'http://localhost:2024', graphId: 'agent' }
 */
export interface LangGraphThreadsOptions {
  apiUrl: string
  /** List only the threads of this graph (their `metadata.graph_id`). */
  graphId?: string
  /** Threads listed, newest first (default 100). */
  limit?: number
  /** Checkpoints read per thread, every branch included (default 100). */
  historyLimit?: number
  headers?: HeadersInit | (() => HeadersInit)
  credentials?: RequestCredentials
  fetch?: typeof fetch
}

/**
 * A `ConversationStorage` over a LangGraph server's threads, for
 * `ConversationsProvider` (and so `ThreadList`). Pair it with a
 * `langGraphSource` without a `threadId`: each conversation's runs then go to
 * its own thread.
 *
 * @example
 * const conversations = createConversations({ storage: langGraphThreads({ apiUrl: 'http://localhost:2024', graphId: 'agent' }) })
 * const tree = <ConversationsProvider conversations={conversations} protocols={[langGraphProtocol]}><ThreadList /></ConversationsProvider>
 */
export function langGraphThreads(options: LangGraphThreadsOptions): ConversationStorage {
  const revisions = new Map<string, number>()
  const titles = new Map<string, string>()
  const request = async (method: string, parts: string[], body?: unknown) => {
    const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
    if (body !== undefined) headers.set('content-type', 'application/json')
    return fetchJSON<unknown>({
      url: joinPath(options.apiUrl, ...parts.map(encodeURIComponent)), method, headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}), credentials: options.credentials, fetch: options.fetch,
    })
  }
  const summaryOf = (thread: Record<string, unknown>): ConversationSummaryRecord | undefined => {
    const id = nonEmpty(thread.thread_id)
    if (!id) return undefined
    const metadata = isRecord(thread.metadata) ? thread.metadata : {}
    const named = nonEmpty(metadata.title)
    const title = named ?? firstQuestion(thread.values) ?? 'New conversation'
    titles.set(id, title)
    const createdAt = Date.parse(String(thread.created_at)) || 0
    return {
      format: 'weft.conversation', version: 1, id, title, titleSource: named ? 'user' : 'server', createdAt,
      updatedAt: Date.parse(String(thread.updated_at)) || createdAt, revision: revisions.get(id) ?? 1,
    }
  }

  return {
    createId: () => crypto.randomUUID(),
    async list(): Promise<StoredConversation[]> {
      const { data } = await request('POST', ['threads', 'search'], {
        limit: options.limit ?? 100, sort_by: 'updated_at', sort_order: 'desc', ...(options.graphId ? { metadata: { graph_id: options.graphId } } : {}),
      })
      const out: StoredConversation[] = []
      for (const thread of Array.isArray(data) ? data : []) {
        const summary = isRecord(thread) ? summaryOf(thread) : undefined
        if (summary) out.push({ id: summary.id, summary })
      }
      return out
    },
    async load(id) {
      let thread: unknown
      try {
        thread = (await request('GET', ['threads', id])).data
      } catch (thrown) {
        if (notFound(thrown)) return undefined
        throw thrown
      }
      const summary = isRecord(thread) ? summaryOf(thread) : undefined
      if (!summary) return undefined
      const { data } = await request('POST', ['threads', id, 'history'], { limit: options.historyLimit ?? 100 })
      const store = createAgentStore()
      store.getState().dispatch(readLangGraphHistory(data, { state: store.getState() }))
      revisions.set(id, summary.revision)
      return conversationRecord({ id, title: summary.title, titleSource: summary.titleSource, createdAt: summary.createdAt, updatedAt: summary.updatedAt, revision: summary.revision }, store.getState())
    },
    async save(record, { expectedRevision }) {
      const stored = revisions.get(record.id) ?? 0
      if (stored !== expectedRevision) throw new ConversationConflictError(record.id, stored, expectedRevision)
      if (record.titleSource === 'user' && titles.get(record.id) !== record.title) {
        // A thread that no run has created yet has nowhere to keep a title: the next list names it by its first question.
        await request('PATCH', ['threads', record.id], { metadata: { title: record.title } }).catch(() => undefined)
        titles.set(record.id, record.title)
      }
      revisions.set(record.id, record.revision)
    },
    async remove(id) {
      revisions.delete(id)
      await request('DELETE', ['threads', id]).catch((thrown: unknown) => {
        if (!notFound(thrown)) throw thrown
      })
    },
  }
}

function notFound(thrown: unknown): boolean {
  return thrown instanceof WeftStreamError && thrown.info.status === 404
}

/** A thread's first question, as a title. */
function firstQuestion(values: unknown): string | undefined {
  const list = isRecord(values) && Array.isArray(values.messages) ? values.messages : []
  for (const item of list) {
    const message = lcMessage(item)
    if (message?.kind === 'human') return nonEmpty(contentText(message.content).text.trim().slice(0, 60))
  }
  return undefined
}
