/**
 * `respond` as a tool renderer receives it: through the client that acts for the
 * store (a host's own client included), with the call's id; without one, a typed
 * refusal rather than a request.
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ToolCallMessage, type ToolRendererProps } from '../../src/components/messages/tool'
import { ToolRenderersProvider } from '../../src/components/tool-renderers'
import type { RespondResult } from '../../src/core/client/respond'
import { messageIn } from '../../src/core/model/message-table'
import { createAgentStore } from '../../src/core/store/store'
import type { StoreClient } from '../../src/react/client-slots'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(() => cleanup())

function storeWithCall() {
  const store = createAgentStore()
  store.getState().dispatch([
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.put', turnId: 't1', messageId: 'tool-1', role: 'assistant', type: 'tool', props: { toolCallId: 'call-7', name: 'pickColor', input: { options: ['teal'] }, state: 'input-available' } },
    { op: 'turn.finish', turnId: 't1', status: 'done' },
  ])
  return store
}

let last: RespondResult | undefined
function Picker({ input, respond }: ToolRendererProps<{ options: string[] }, { color: string }>) {
  return <button type="button" onClick={() => void respond({ color: input!.options[0]! }).then((r) => (last = r))}>pick</button>
}

async function pick(store: ReturnType<typeof createAgentStore>, client?: StoreClient) {
  const view = render(
    <AgentProvider store={store} client={client}>
      <ToolRenderersProvider renderers={{ pickColor: Picker }}>
        <ToolCallMessage message={messageIn(store.getState().messages, 'tool-1')!} />
      </ToolRenderersProvider>
    </AgentProvider>,
  )
  await act(async () => {
    fireEvent.click(view.getByRole('button', { name: 'pick' }))
    await Promise.resolve()
  })
}

describe('a tool renderer\'s respond', () => {
  it('goes through the acting client with the call id and the output', async () => {
    const calls: unknown[][] = []
    const client: StoreClient = {
      answer: async () => ({ ok: true }), selectBranch: () => ({ ok: true }), regenerate: async () => ({ ok: true }),
      respond: async (...args: unknown[]) => {
        calls.push(args)
        return { ok: true }
      },
    }
    last = undefined
    await pick(storeWithCall(), client)
    expect(calls).toEqual([['call-7', { color: 'teal' }]])
    expect(last).toEqual({ ok: true })
  })

  it('with no client acting for the store: refused, typed', async () => {
    last = undefined
    await pick(storeWithCall())
    expect(last).toMatchObject({ ok: false, error: { type: 'validation', code: 'no_client' } })
  })
})
