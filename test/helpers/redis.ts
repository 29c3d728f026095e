/** A real Redis server for a test file: Debian's `redis-server` on a free loopback port, without persistence. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** A started Redis server. */
export interface RedisServer {
  url: string
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Start `redis-server` (installed by `scripts/ensure-redis.mjs`) and wait until it accepts connections.
 *
 * @example
 * const redis = await startRedis(); createClient({ url: redis.url }); await redis.stop()
 */
export async function startRedis(): Promise<RedisServer> {
  const binary = process.env.REDIS_SERVER_PATH ?? 'redis-server'
  const port = await freePort()
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 20_000)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`could not run ${binary} (run node scripts/ensure-redis.mjs): ${error.message}`))
    })
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve()
      }
    })
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    }),
  }
}
