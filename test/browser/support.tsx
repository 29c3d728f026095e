import type { StoreClient } from '../../src/react/client-slots'
import { cleanup, fireEvent, render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach } from 'vitest'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'

afterEach(() => cleanup())

/** A store with these ops already folded in. */
export function storeWith(ops: readonly Op[]): AgentStore {
  const store = createAgentStore()
  store.getState().dispatch(ops)
  return store
}

/** Renders `ui` under a provider for `store` (with `client` acting for it, when given). */
export function renderWith(store: AgentStore, ui: ReactNode, client?: StoreClient) {
  return render(<AgentProvider store={store} client={client}>{ui}</AgentProvider>)
}

/** An assistant turn `t1` with one text message. */
export function textTurn(content: string, status: 'streaming' | 'done' = 'done'): Op[] {
  const ops: Op[] = [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: content },
  ]
  if (status === 'done') ops.push({ op: 'turn.finish', turnId: 't1', status: 'done' })
  return ops
}

/** The person scrolls `element` to its top with the wheel (the wheel first, as a browser sends it). */
export function scrollUp(element: HTMLElement): void {
  fireEvent.wheel(element, { deltaY: -element.scrollTop })
  element.scrollTop = 0
  fireEvent.scroll(element)
}
