/**
 * The agent client and what a host configures it with and sends. The client's
 * parts (run driver, persister, commands, continuation loop) stay internal.
 */
export { AgentClient } from './agent-client'
export * from './options'
export type { ActionResult, AnswerResult, ApprovalResponse, GateResponse, InterruptDecision, JsonValue } from './gates'
export type { AttachmentLimits, FilePart } from './files'
export type { ClientTool } from './tool-calls'
export type { RespondResult, UiTool } from './respond'
export type { AddContextResult, AgentStateUpdate } from './agent-state'
export { textOf } from './request-plan'
