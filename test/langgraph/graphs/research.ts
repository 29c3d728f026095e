/**
 * (c) A subgraph and parallel branches: `plan` fans out with `Send` to the `research` subgraph,
 * once per topic, so two copies run side by side; each copy's `search` node writes a `custom`
 * event and its `write` node streams a note from the model. `summarize` streams the answer.
 */
import { AIMessage } from '@langchain/core/messages'
import { Annotation, END, type LangGraphRunnableConfig, MessagesAnnotation, Send, START, StateGraph } from '@langchain/langgraph'
import { ScriptedChatModel, textOf } from './scripted-model.js'

const model = new ScriptedChatModel((messages) => {
  const prompt = textOf(messages.at(-1))
  if (prompt.startsWith('note:')) return { text: `Notes on ${prompt.slice('note:'.length)}: it checks out.` }
  return { text: `Summary: ${prompt}` }
})

const ResearchState = Annotation.Root({
  topic: Annotation<string>,
  sources: Annotation<number>,
  notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
})

const research = new StateGraph(ResearchState)
  .addNode('search', async (state: typeof ResearchState.State, config: LangGraphRunnableConfig) => {
    config.writer?.({ kind: 'progress', topic: state.topic, step: 'search' })
    return { sources: state.topic.length }
  })
  .addNode('write', async (state: typeof ResearchState.State) => {
    const note = await model.invoke([{ role: 'user', content: `note:${state.topic}` }])
    return { notes: [textOf(note)] }
  })
  .addEdge(START, 'search')
  .addEdge('search', 'write')
  .addEdge('write', END)
  .compile()

const ParentState = Annotation.Root({
  ...MessagesAnnotation.spec,
  topics: Annotation<string[]>({ reducer: (_a, b) => b, default: () => [] }),
  notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
})

export const graph = new StateGraph(ParentState)
  .addNode('plan', () => ({ topics: ['alpha', 'beta'] }))
  .addNode('research', research)
  .addNode('summarize', async (state: typeof ParentState.State) => {
    const notes = [...state.notes].sort().join(' ')
    const answer = await model.invoke([{ role: 'user', content: notes }])
    return { messages: [new AIMessage({ content: textOf(answer), id: answer.id })] }
  })
  .addEdge(START, 'plan')
  .addConditionalEdges('plan', (state: typeof ParentState.State) => state.topics.map((topic) => new Send('research', { topic })), ['research'])
  .addEdge('research', 'summarize')
  .addEdge('summarize', END)
  .compile()
