/**
 * One shipped fixture by protocol and name. A module of its own, so the fixtures
 * chunk holds the recorded streams and nothing that checks protocols.
 */
import { fixtures } from './fixtures'
import type { AgentFixture, FixtureProtocol } from './frames'
import { isBuiltInProtocol, UnsupportedProtocolError } from './protocols'

/**
 * One shipped fixture. An unknown name throws with the names there are; a
 * protocol weft ships no fixtures for (a host's own) throws an
 * `UnsupportedProtocolError` (`feature: 'fixtures'`).
 *
 * @example
 * const fixture = getFixture('ag-ui', 'interrupt')
 */
export function getFixture(protocol: FixtureProtocol, name: string): AgentFixture {
  if (!isBuiltInProtocol(protocol)) throw new UnsupportedProtocolError(protocol, 'fixtures')
  const byName: Record<string, AgentFixture> = fixtures[protocol]
  const fixture = Object.hasOwn(byName, name) ? byName[name] : undefined
  if (!fixture) throw new Error(`weft/testing: no fixture ${protocol}/${name} (${protocol} has: ${Object.keys(byName).join(', ')})`)
  return fixture
}
