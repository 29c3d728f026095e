/**
 * A host's protocol built from the public entries alone (test/fixtures/host-protocol)
 * draws with the components: its views, an entry of their own as AG-UI's are,
 * apply to the turns that speak it once the definition with views is given to
 * the renderer provider. The `weft` entry's built-in list carries AG-UI's views.
 */
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { builtInProtocols as withViews } from 'weft'
import { RendererProvider, Transcript } from 'weft/components'
import { createAgentStore, foldStream, messageList } from 'weft/core'
import { builtInProtocols as withoutViews } from 'weft/protocols'
import { agUiProtocol } from 'weft/protocols/ag-ui'
import { AgUiToolView, agUiProtocolWithViews, agUiViews } from 'weft/protocols/ag-ui/react'
import { AgentProvider } from 'weft/react'
import { memoProtocol, memoSse } from '../fixtures/host-protocol/index'
import { MemoToolView, memoProtocolWithViews } from '../fixtures/host-protocol/react'

afterEach(cleanup)

function memoStore() {
  const state = foldStream(memoSse([
    { memo: 'text', id: 'm1', text: 'Looking that up.' },
    { memo: 'tool', id: 'c1', name: 'lookup', input: '{"q":"weather"}' },
    { memo: 'result', id: 'c1', output: { temp: 21 } },
    { memo: 'done' },
  ]), { protocol: memoProtocol })
  const store = createAgentStore()
  const turns = state.turnIds.map((id) => state.turns[id]!)
  const messages = new Map(messageList(state.messages).map((m) => [m.id, m]))
  store.getState().dispatch([{ op: 'hydrate', at: 'end', turns: turns.map((turn) => ({ turn, messages: turn.messageIds.map((id) => messages.get(id)!) })) }])
  return store
}

describe('a host protocol from the public entries, drawn by the components', () => {
  it('draws its tool call with its own view when given its definition with views', () => {
    render(
      <AgentProvider store={memoStore()}>
        <RendererProvider protocols={[memoProtocolWithViews]}><Transcript.Root /></RendererProvider>
      </AgentProvider>,
    )
    expect(screen.getByTestId('memo-tool').textContent).toContain('lookup')
    expect(screen.getByText('Looking that up.')).toBeTruthy()
  })

  it('without its views the kit draws the call with its own tool view', () => {
    render(
      <AgentProvider store={memoStore()}>
        <RendererProvider protocols={[memoProtocol]}><Transcript.Root /></RendererProvider>
      </AgentProvider>,
    )
    expect(screen.queryByTestId('memo-tool')).toBeNull()
    expect(document.querySelector('[data-weft="tool"]')).not.toBeNull()
  })

  it('its views are typed as the core types them (a component taking MessagePartProps)', () => {
    expect(memoProtocolWithViews.views).toEqual({ tool: MemoToolView })
  })
})

describe("AG-UI's views are an entry of their own", () => {
  it('the protocol has no views; its react entry attaches them', () => {
    expect(agUiProtocol.views).toBeUndefined()
    expect(agUiViews).toEqual({ tool: AgUiToolView })
    expect(agUiProtocolWithViews).toMatchObject({ name: 'ag-ui', create: agUiProtocol.create, sniff: agUiProtocol.sniff, views: agUiViews })
  })

  it("the weft entry's built-in list carries AG-UI with its views; weft/protocols' does not", () => {
    // The weft entry also speaks LangGraph, which is an entry of its own (weft/protocols/langgraph).
    expect(withViews.map((p) => p.name)).toEqual([...withoutViews.map((p) => p.name), 'langgraph'])
    expect(withViews.find((p) => p.name === 'ag-ui')).toBe(agUiProtocolWithViews)
    expect(withoutViews.find((p) => p.name === 'ag-ui')).toBe(agUiProtocol)
  })
})
