/**
 * weft's `UIMessage` rebuild against the AI SDK's own: the chunks of each mock
 * scenario folded by `readUIMessageStream` and by weft give the same tool parts
 * (states, inputs, outputs, approvals), text, files and step boundaries, and
 * weft's messages pass the SDK's `validateUIMessages`.
 */
import { isToolUIPart, readUIMessageStream, validateUIMessages, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { uiMessageChunks } from '../../../mock/scenarios/ui-message'
import { foldStream } from '../../../src/umbrella/defaults'
import { toUIMessages } from '../../../src/protocols/ui-message/ui-messages'

async function sdkMessage(chunks: readonly unknown[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      // A copy: the SDK's fold writes into the chunks it reads, and the scenarios are shared by other tests.
      for (const chunk of chunks) controller.enqueue(structuredClone(chunk) as UIMessageChunk)
      controller.close()
    },
  })
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot
  return message!
}

/** What both sides must agree on: tools in full, text, files, and where steps begin. */
function shape(message: Pick<UIMessage, 'parts'>) {
  return {
    tools: message.parts.filter(isToolUIPart).map((p) => {
      const { providerExecuted: _p, callProviderMetadata: _c, title: _t, approval, ...rest } = p as Record<string, unknown>
      // weft also reads the stream's `tool-approval-response` chunk, which the SDK's fold passes over: ids are compared.
      const id = (approval as { id?: unknown } | undefined)?.id
      return JSON.parse(JSON.stringify({ ...rest, approvalId: id })) as unknown
    }),
    files: message.parts.filter((p) => p.type === 'file'),
    steps: message.parts.filter((p) => p.type === 'step-start').length,
    text: message.parts.flatMap((p) => (p.type === 'text' ? [p.text.replace(/<think>[\s\S]*?<\/think>/g, '')] : [])).join('').replace(/\s+/g, ' ').trim(),
  }
}

describe('UIMessage rebuild', () => {
  for (const [name, chunks] of Object.entries(uiMessageChunks)) {
    it(`${name}: the same parts as the AI SDK's fold, and valid for the SDK`, async () => {
      const sdk = await sdkMessage(chunks)
      const state = foldStream(chunks as unknown[], { protocol: 'ui-message' })
      const [weft] = toUIMessages(await state, (await state).turnIds)
      expect(weft).toBeDefined()
      expect(weft!.id).toBe(sdk.id)
      expect(shape(weft as unknown as UIMessage)).toEqual(shape(sdk))
      await expect(validateUIMessages({ messages: [weft] })).resolves.toHaveLength(1)
    })
  }
})
