/**
 * The loop agent (`../loop-agent.ts`) on the dev server: `POST /mock/loop/:protocol`
 * reads the body weft builds and replies from the conversation it carries; a Vocion
 * gate's answer goes to `POST /mock/loop/vocion/resume`.
 */
import type { MockFrame } from '../scenario.js'
import type { MockRoute } from '../route.js'
import { parseStreamOptions, readBody, sendJson, streamFrames } from '../sse.js'
import { bodyOf, loopAgent, type Json, type LoopProtocol } from '../loop-agent.js'

const agent = loopAgent('/mock/loop/vocion/resume')

const builders: Record<LoopProtocol, { reply: (body: Json) => Json[]; headers?: Record<string, string>; done?: boolean }> = {
  'ui-message': { reply: agent.reply['ui-message'], headers: { 'x-vercel-ai-ui-message-stream': 'v1' }, done: true },
  'ag-ui': { reply: agent.reply['ag-ui'] },
  yao: { reply: agent.reply.yao },
  vocion: { reply: agent.reply.vocion },
}

export const loopRoutes: MockRoute[] = [
  {
    method: 'POST',
    path: '/mock/loop/vocion/resume',
    handler: async ({ req, res, query, defaultDelayMs }) => {
      let body: Json
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}')
        body = bodyOf(parsed)
      } catch {
        sendJson(res, 400, { error: 'bad_request', message: 'the body is not JSON' })
        return
      }
      await streamFrames(res, agent.vocionResume(body).map((data) => ({ data })), parseStreamOptions(query, defaultDelayMs))
    },
  },
  {
    method: 'POST',
    path: '/mock/loop/:protocol',
    handler: async ({ req, res, params, query, defaultDelayMs }) => {
      const builder = Object.hasOwn(builders, params.protocol ?? '') ? builders[params.protocol as LoopProtocol] : undefined
      if (!builder) {
        sendJson(res, 404, { error: 'not_found', message: `no loop agent for ${params.protocol}` })
        return
      }
      let body: Json
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}')
        body = bodyOf(parsed)
      } catch {
        sendJson(res, 400, { error: 'bad_request', message: 'the body is not JSON' })
        return
      }
      const frames: MockFrame[] = builder.reply(body).map((data) => ({ data }))
      if (builder.done) frames.push({ data: '[DONE]' })
      await streamFrames(res, frames, parseStreamOptions(query, defaultDelayMs), builder.headers)
    },
  },
]
