/**
 * `npm run bench:peers`, kit (a): weft's README chat (`AgentProvider`, `Chat`,
 * `Composer`, `useAgentStream` with `protocol: 'ui-message'`) with its stylesheet,
 * the 200 earlier messages read in by `uiMessageHistory`, as a host loading a
 * stored conversation does. Built from weft's sources through the package's entries.
 */
import { history, ready } from './peers-workload'
import { useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { AgentProvider, Chat, Composer, createAgentStore, useAgentStream } from 'weft'
import { uiMessageHistory } from 'weft/protocols/ui-message'
import '../../src/components/styles.css'

function Assistant() {
  const { send, stop } = useAgentStream({ url: '/api/chat', protocol: 'ui-message' })
  useEffect(() => ready(() => void send('go')), [send])
  return <Chat footer={<Composer send={send} stop={stop} />} />
}

const store = createAgentStore()
store.getState().dispatch([{ op: 'hydrate', turns: uiMessageHistory(history()).turns, at: 'start' }])

createRoot(document.getElementById('root')!).render(
  <div style={{ height: '100vh' }}>
    <AgentProvider store={store}><Assistant /></AgentProvider>
  </div>,
)
