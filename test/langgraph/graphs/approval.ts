/**
 * (b) An approval: the model drafts a `send_email` call, the `approval` node stops the run with
 * `interrupt()`, and a run started with `command: { resume }` answers it. Resuming with
 * `{ approved: true }` sends the email; anything else cancels it. The model then answers.
 */
import { ToolMessage } from '@langchain/core/messages'
import { END, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ScriptedChatModel, textOf } from './scripted-model.js'

const model = new ScriptedChatModel((messages) => {
  const last = messages.at(-1)
  if (last?.type === 'tool') {
    return { text: textOf(last) === 'sent' ? 'Done: the email is sent.' : 'All right, I did not send it.' }
  }
  return {
    text: 'I will send the email.',
    toolCalls: [{ id: 'call_email_1', name: 'send_email', argPieces: ['{"to": "ada@example.com", ', '"subject": "Hello"}'] }],
  }
})

/** What the interrupt carries, and what the resume value must look like to approve. */
export interface ApprovalRequest {
  question: string
  tool: string
  args: Record<string, unknown>
}

async function draft(state: typeof MessagesAnnotation.State) {
  return { messages: [await model.invoke(state.messages)] }
}

function approval(state: typeof MessagesAnnotation.State) {
  const last = state.messages.at(-1)
  const call = last && 'tool_calls' in last && Array.isArray(last.tool_calls) ? last.tool_calls[0] : undefined
  if (!call) return {}
  const answer = interrupt<ApprovalRequest, { approved?: boolean } | undefined>({
    question: 'Send this email?',
    tool: call.name,
    args: call.args,
  })
  const approved = answer?.approved === true
  return { messages: [new ToolMessage({ tool_call_id: call.id ?? '', name: call.name, content: approved ? 'sent' : 'cancelled' })] }
}

async function answer(state: typeof MessagesAnnotation.State) {
  return { messages: [await model.invoke(state.messages)] }
}

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('draft', draft)
  .addNode('approval', approval)
  .addNode('answer', answer)
  .addEdge(START, 'draft')
  .addEdge('draft', 'approval')
  .addEdge('approval', 'answer')
  .addEdge('answer', END)
  .compile()
