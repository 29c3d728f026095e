/** Reasoning: the model streams `reasoning` content blocks, then `text` blocks, in one message. */
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ScriptedChatModel } from './scripted-model.js'

const model = new ScriptedChatModel(() => ({
  reasoning: 'The user greets me, so I greet them back.',
  text: 'Hello there!',
}))

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('think', async (state: typeof MessagesAnnotation.State) => ({ messages: [await model.invoke(state.messages)] }))
  .addEdge(START, 'think')
  .compile()
