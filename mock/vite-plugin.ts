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

export function mockAgentServer(options: MockAgentPluginOptions = {}): Plugin {
  const { setup, only, ...handlerOptions } = options
  // The resume endpoints ride along, after the host's own routes.
  const handler = createMockAgentHandler({ ...handlerOptions, routes: [...(handlerOptions.routes ?? []), ...createResumeRoutes()] })
  setup?.(handler)
  const serve = only
    ? (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => (only.test(req.url ?? '') ? handler(req, res, next) : next())
    : handler
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
