/**
 * (a) A tool-calling agent: the model streams a sentence and a `get_weather` call, the prebuilt
 * ToolNode runs it, and the model streams the answer from the tool's result.
 */
import { tool } from '@langchain/core/tools'
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt'
import { z } from 'zod'
import { ScriptedChatModel, textOf } from './scripted-model.js'

export const getWeather = tool(
  async ({ city }: { city: string }) => JSON.stringify({ city, sky: 'sunny', celsius: 21 }),
  {
    name: 'get_weather',
    description: 'The current weather in a city.',
    schema: z.object({ city: z.string() }),
  },
)

const model = new ScriptedChatModel((messages) => {
  const last = messages.at(-1)
  if (last?.type === 'tool') {
    const { city, sky, celsius } = JSON.parse(textOf(last)) as { city: string; sky: string; celsius: number }
    return { text: `It is ${sky} in ${city}, ${celsius} degrees.` }
  }
  // A call id of its own per call in the thread, as a real model's: the prebuilt ToolNode skips a call whose id already has a result.
  const calls = messages.filter((m) => m.type === 'tool').length
  return {
    text: 'Let me look up the weather.',
    toolCalls: [{ id: `call_weather_${calls + 1}`, name: 'get_weather', argPieces: ['{"ci', 'ty": "Pa', 'ris"}'] }],
  }
})

async function agent(state: typeof MessagesAnnotation.State) {
  return { messages: [await model.invoke(state.messages)] }
}

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', agent)
  .addNode('tools', new ToolNode([getWeather]))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', toolsCondition, ['tools', END])
  .addEdge('tools', 'agent')
  .compile()
