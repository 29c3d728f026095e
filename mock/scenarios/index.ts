/**
 * Registry of every scenario the mock agent server can stream.
 * To add a protocol: create `mock/scenarios/<protocol>.ts` exporting a
 * `Scenario[]`, import it here and spread it into `scenarios`.
 * Relative imports under `mock/` spell the `.js` extension: this code is also
 * loaded by the Vite config and Storybook's main.ts, whose loaders expect it.
 */
import type { Scenario } from '../scenario.js'
import { yaoScenarios } from './yao.js'
import { uiMessageScenarios } from './ui-message.js'
import { vocionScenarios } from './vocion.js'
import { agUiScenarios } from './ag-ui.js'
import { situationScenarios } from './situations.js'

export const scenarios: Scenario[] = [
  ...yaoScenarios,
  ...uiMessageScenarios,
  ...vocionScenarios,
  ...agUiScenarios,
  ...situationScenarios,
]

export function findScenario(protocol: string, name: string, from: readonly Scenario[] = scenarios): Scenario | undefined {
  return from.find((s) => s.protocol === protocol && s.name === name)
}
