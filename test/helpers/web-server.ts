/** A loopback HTTP server whose routes are web `Request` → `Response` handlers, as stock server code is written. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'

/** A started server, and the JSON bodies it received. */
export interface WebServer {
  url: string
  bodies: unknown[]
  close(): Promise<void>
  server: Server
}

/**
 * Serve `handle` on 127.0.0.1 with an ephemeral port.
 *
 * @example
 * const srv = await startWebServer(async (req) => new Response('ok'))
 */
export async function startWebServer(handle: (request: Request) => Promise<Response>): Promise<WebServer> {
  const bodies: unknown[] = []
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    if (text) {
      try {
        bodies.push(JSON.parse(text))
      } catch {
        bodies.push(text)
      }
    }
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
      method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : text,
    })
    let response: Response
    try {
      response = await handle(request)
    } catch (thrown) {
      response = new Response(thrown instanceof Error ? thrown.message : String(thrown), { status: 500 })
    }
    res.statusCode = response.status
    response.headers.forEach((value, name) => res.setHeader(name, value))
    if (!response.body) {
      res.end()
      return
    }
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    server,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
