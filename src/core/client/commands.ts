/**
 * The conversation commands a person gives: ask (with files), ask again, and
 * edit a question. Each opens its turns in the store and starts a run; the
 * continuation loop then goes on from its end.
 */
import { toWeftError, type WeftError } from '../model/errors'
import { newId } from '../model/ids'
import type { Op } from '../model/ops'
import { protocolName } from '../protocol/resolve'
import { own } from '../util/record'
import type { ClientContext } from './context'
import type { ContinuationLoop } from './continuation-loop'
import { refused } from './continuation-loop'
import { checkFiles, toFilePart, type FilePart } from './files'
import type { ActionResult } from './gates'
import type { SendInput } from './options'
import { textOf } from './request-plan'
import { runTurn } from './turn-runner'

/**
 * Ask: a user turn (text and files) and the answer to it, below `parentId` when
 * given (an edit), else at the end of the active path.
 */
export async function submit(ctx: ClientContext, loop: ContinuationLoop, input: SendInput | undefined, parentId: string | null | undefined): Promise<ActionResult> {
  const options = ctx.options
  const files = typeof input === 'object' && input !== null && Array.isArray(input.files) ? input.files : []
  const invalid = checkFiles(files, options.attachments)
  if (invalid) return refuseSend(ctx, invalid)
  let parts: FilePart[] = []
  // Without files nothing is awaited, so the turn opens in the same tick as the call.
  if (files.length > 0) {
    try {
      parts = await Promise.all(files.map((file) => toFilePart(file, options.upload)))
    } catch (thrown) {
      return refuseSend(ctx, toWeftError(thrown, 'validation'))
    }
  }
  const turnId = newId('turn')
  // Files alone (the composer sends '' with them) make a question without a text part.
  const typed = textOf(input)
  const text = typed !== undefined && typed.trim() === '' && parts.length > 0 ? undefined : typed
  const opening: Op[] = []
  if (text !== undefined || parts.length > 0) {
    const userTurn = newId('user')
    opening.push({ op: 'turn.open', turnId: userTurn, role: 'user', ...(parentId !== undefined ? { parentId } : {}) })
    parts.forEach((part, i) => opening.push({ op: 'message.put', turnId: userTurn, messageId: `${userTurn}/file:${i}`, role: 'user', type: 'file', props: { ...part }, status: 'done' }))
    if (text !== undefined) opening.push({ op: 'message.put', turnId: userTurn, messageId: `${userTurn}/text`, role: 'user', type: 'text', props: { content: text }, status: 'done' })
    opening.push({ op: 'turn.finish', turnId: userTurn, status: 'done' })
  }
  opening.push({ op: 'turn.open', turnId, role: 'assistant', protocol: protocolName(options.protocol), ...(opening.length === 0 && parentId !== undefined ? { parentId } : {}) })
  await runTurn(ctx, { turnId, input, trigger: 'submit', opening })
  await loop.proceed(turnId)
  return { ok: true }
}

/** Ask again for an answer (by default the last one on the active path); the old one stays as a sibling branch. */
export async function regenerate(ctx: ClientContext, loop: ContinuationLoop, turnId: string | undefined): Promise<ActionResult> {
  const state = ctx.store.getState()
  const targetId = turnId ?? [...state.turnIds].reverse().find((id) => own(state.turns, id)?.role === 'assistant')
  const target = targetId ? own(state.turns, targetId) : undefined
  if (!target || target.role !== 'assistant') return refused(`there is no answer${turnId ? ` "${turnId}"` : ''} to regenerate`)
  const answer = newId('turn')
  const protocol = protocolName(ctx.options.protocol) ?? target.protocol
  await runTurn(ctx, {
    turnId: answer, input: undefined, trigger: 'regenerate', replacing: target.id,
    opening: [{ op: 'turn.open', turnId: answer, role: 'assistant', parentId: target.parentId ?? null, protocol }],
  })
  await loop.proceed(answer)
  return { ok: true }
}

/** Replace a question: a new user turn beside `turnId`, and its answer. */
export function edit(ctx: ClientContext, loop: ContinuationLoop, turnId: string, input: SendInput): Promise<ActionResult> {
  const turn = own(ctx.store.getState().turns, turnId)
  if (!turn || turn.role !== 'user') return Promise.resolve(refused(`"${turnId}" is not a question that can be edited`))
  return submit(ctx, loop, input, turn.parentId ?? null)
}

/** A send that cannot go (files over the limits, an upload that failed): the stream shows why and the host hears of it. */
function refuseSend(ctx: ClientContext, error: WeftError): ActionResult {
  ctx.store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
  ctx.options.onError?.(error)
  return { ok: false, error }
}
