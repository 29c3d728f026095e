/**
 * (d) A long run, for dropping the connection and rejoining: one node streams many chunks with a
 * pause before each. `configurable.chunks` (default 120) and `configurable.delayMs` (default 25) set them;
 * `configurable.fail` makes the node throw after its model has streamed (an `error` event mid-run).
 */
import { type LangGraphRunnableConfig, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ScriptedChatModel } from './scripted-model.js'

export function countText(chunks: number): string {
  return Array.from({ length: chunks }, (_, i) => `w${i + 1}`).join(' ')
}

async function speak(state: typeof MessagesAnnotation.State, config: LangGraphRunnableConfig) {
  const chunks = Number(config.configurable?.chunks ?? 120)
  const delayMs = Number(config.configurable?.delayMs ?? 25)
  const model = new ScriptedChatModel(() => ({ text: countText(chunks), delayMs }))
  const message = await model.invoke(state.messages, config)
  if (config.configurable?.fail) throw new Error(String(config.configurable.fail))
  return { messages: [message] }
}

export const graph = new StateGraph(MessagesAnnotation).addNode('speak', speak).addEdge(START, 'speak').compile()
