/** A real HTTP server on loopback for tests, serving the mock agent handler. */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMockAgentHandler, type MockAgentHandlerOptions } from '../../mock/server'

/** A started loopback server and what it saw. */
export interface TestServer {
  url: string
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>
  close(): Promise<void>
  server: Server
}

/**
 * Start the mock agent server on 127.0.0.1 with an ephemeral port.
 *
 * @example
 * const srv = await startServer(); await fetch(`${srv.url}/mock/scenarios`); await srv.close()
 */
export async function startServer(options?: MockAgentHandlerOptions): Promise<TestServer> {
  const handler = createMockAgentHandler(options)
  const requests: TestServer['requests'] = []
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '', headers: req.headers })
    handler(req, res, () => {
      res.statusCode = 404
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
