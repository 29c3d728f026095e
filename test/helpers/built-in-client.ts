/**
 * The suite's client: the core's `AgentClient`, given the built-in protocols
 * unless a test names its own, as a host's hooks under the `weft` entry's
 * provider are. Tests that are about the protocol list pass `protocols` themselves.
 */
import { AgentClient as CoreAgentClient, type AgentClientOptions } from '../../src/core/client'
import type { AgentStore } from '../../src/core/store/store'
import { builtInProtocols } from '../../src/protocols/index'

const withBuiltIns = (options: AgentClientOptions): AgentClientOptions =>
  options.protocols === undefined ? { ...options, protocols: builtInProtocols } : options

export class AgentClient extends CoreAgentClient {
  constructor(store: AgentStore, options: AgentClientOptions) {
    super(store, withBuiltIns(options))
  }

  override setOptions(options: AgentClientOptions): void {
    super.setOptions(withBuiltIns(options))
  }
}
