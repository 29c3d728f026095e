/**
 * The recorded streams `weft/testing` ships: every situation a chat UI meets, in
 * every protocol. Each is also a plain JSON file in the package
 * (`weft/testing/fixtures/<protocol>/<name>.json`) a host can copy and edit.
 */
import type { AgentFixture, BuiltInProtocol } from './frames'
import { fixtureSet, type FixtureSet } from './fixtures/index'

/**
 * Every fixture by protocol and name.
 *
 * @example
 * streamResponse(fixtures.vocion.hitl)
 */
export const fixtures: Readonly<FixtureSet> = fixtureSet

// Every built-in protocol has its fixtures (the generated set is checked against the closed list).
fixtureSet satisfies Record<BuiltInProtocol, Record<string, AgentFixture>>

/**
 * The situations a chat UI should be tested against.
 *
 * @example
 * const situation: Situation = 'error-mid-stream'
 */
export type Situation =
  | 'plain'
  | 'reasoning'
  | 'tools-with-approval'
  | 'sources'
  | 'error-mid-stream'
  | 'dropped-connection'
  | 'concurrent'
  | 'long-answer'

/**
 * Which fixture shows each situation in each protocol. A protocol missing from a
 * situation has no such stream on its wire: Yao has no approval gate and no
 * source events, AG-UI 1.0 and LangGraph no source events (see docs/testing.md).
 * LangGraph's fixtures are recordings of a real server's small graphs, so it has
 * no long answer; its plain answer is the long run's few words.
 *
 * @example
 * for (const [protocol, name] of Object.entries(situations.reasoning)) test(name, () => { ... })
 */
export const situations: Readonly<Record<Situation, Partial<Record<BuiltInProtocol, string>>>> = {
  plain: { yao: 'streaming-text', 'ui-message': 'plain', 'ag-ui': 'plain', vocion: 'plain', langgraph: 'long-run' },
  reasoning: { yao: 'one-block', 'ui-message': 'reasoning', 'ag-ui': 'subagents', vocion: 'answer', langgraph: 'reasoning' },
  'tools-with-approval': { 'ui-message': 'full', 'ag-ui': 'interrupt', vocion: 'hitl', langgraph: 'approval' },
  sources: { 'ui-message': 'full', vocion: 'answer' },
  'error-mid-stream': { yao: 'error-mid-stream', 'ui-message': 'error-mid-stream', 'ag-ui': 'error-mid-stream', vocion: 'error-mid-stream', langgraph: 'error' },
  'dropped-connection': {
    yao: 'dropped-connection', 'ui-message': 'dropped-connection', 'ag-ui': 'dropped-connection', vocion: 'dropped-connection', langgraph: 'dropped-connection',
  },
  concurrent: { yao: 'concurrent-threads', 'ui-message': 'full', 'ag-ui': 'subagents', vocion: 'answer', langgraph: 'research' },
  'long-answer': { yao: 'long-answer', 'ui-message': 'long-answer', 'ag-ui': 'long-answer', vocion: 'long-answer' },
}

/**
 * Every fixture as a flat list, for table-driven tests.
 *
 * @example
 * test.each(allFixtures())('$protocol/$name folds', (fixture) => { ... })
 */
export function allFixtures(): AgentFixture[] {
  return Object.values(fixtures).flatMap((byName) => Object.values(byName))
}
