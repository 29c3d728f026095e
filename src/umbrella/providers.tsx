/**
 * The `weft` entry's providers: the React binding's, with the built-in
 * protocols when `protocols` is not given.
 */
import { AgentProvider as BaseAgentProvider, type AgentProviderProps } from '../react/provider'
import { ConversationsProvider as BaseConversationsProvider, type ConversationsProviderProps } from '../react/conversations'
import { builtInProtocols } from './built-ins'

/**
 * `AgentProvider` from `weft/react`, speaking the built-in protocols unless `protocols` says otherwise.
 *
 * @example
 * import { AgentProvider } from 'weft'
 * <AgentProvider><Assistant /></AgentProvider>
 */
export function AgentProvider({ protocols = builtInProtocols, ...props }: AgentProviderProps) {
  return <BaseAgentProvider protocols={protocols} {...props} />
}

/**
 * `ConversationsProvider` from `weft/react`, speaking the built-in protocols unless `protocols` says otherwise.
 *
 * @example
 * import { ConversationsProvider } from 'weft'
 * <ConversationsProvider conversations={conversations}><Assistant /></ConversationsProvider>
 */
export function ConversationsProvider({ protocols = builtInProtocols, ...props }: ConversationsProviderProps) {
  return <BaseConversationsProvider protocols={protocols} {...props} />
}
