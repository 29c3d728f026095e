/**
 * Vite plugin that mounts the mock agent server on the dev server (Storybook,
 * Vitest browser mode) and on `vite preview`, so stories can fetch `/mock/...`
 * from their own origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Plugin } from 'vite'
import { createResumeRoutes } from './resume.js'
import { createMockAgentHandler, type MockAgentHandler, type MockAgentHandlerOptions } from './server.js'

export interface MockAgentPluginOptions extends MockAgentHandlerOptions {
  /** Called with the handler once, e.g. to register extra routes. */
  setup?: (handler: MockAgentHandler) => void
  /** Serve only URLs that match (default: everything under `/mock/`). */
  only?: RegExp
}

const SOURCE_FILE = /^\/mock\/[^?]*\.(?:ts|tsx|js|mjs)(?:\?|$)/

export function mockAgentServer(options: MockAgentPluginOptions = {}): Plugin {
  const { setup, only, ...handlerOptions } = options
  // The resume endpoints ride along, after the host's own routes.
  const handler = createMockAgentHandler({ ...handlerOptions, routes: [...(handlerOptions.routes ?? []), ...createResumeRoutes()] })
  setup?.(handler)
  const serve = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    const url = req.url ?? ''
    // The mock's own modules (`/mock/loop-agent.ts`, imported by stories) are Vite's to serve;
    // no route of the mock agent names a source file.
    if (SOURCE_FILE.test(url) || (only && !only.test(url))) return next()
    return handler(req, res, next)
  }
  return {
    name: 'weft:mock-agent-server',
    configureServer(server) {
      // Mounted before Vite's own middlewares so `/mock/*` never falls through to the SPA fallback.
      server.middlewares.use(serve)
    },
    configurePreviewServer(server) {
      server.middlewares.use(serve)
    },
  }
}
