#!/usr/bin/env node
// Makes sure a Redis server exists for the AI SDK resume tests (resumable-stream
// keeps its streams in Redis). The tests start and stop their own server on a
// free port; this script only installs the binary.
//
// Order: $REDIS_SERVER_PATH, /usr/bin/redis-server. If neither exists and we run
// as root with apt-get, installs Debian's `redis-server`; otherwise exits non-zero
// and says what to install.
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const DEFAULT_PATH = '/usr/bin/redis-server'
const TAG = 'ensure-redis:'

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function fail(message) {
  console.error(`${TAG} ${message}`)
  process.exit(1)
}

function report(path, how) {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 })
  if (run.status !== 0) fail(`${path} exists but \`${path} --version\` failed. Reinstall it (Debian: apt-get install -y redis-server).`)
  console.log(`${TAG} ${run.stdout.trim()} at ${path} (${how})`)
}

function hasAptGet() {
  return spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0
}

function apt(args) {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  })
  if (run.status !== 0) fail(`\`apt-get ${args.join(' ')}\` failed (exit ${run.status ?? run.signal}).`)
}

const fromEnv = process.env.REDIS_SERVER_PATH
if (fromEnv) {
  if (!isExecutable(fromEnv)) fail(`REDIS_SERVER_PATH=${fromEnv} is not an executable file.`)
  report(fromEnv, 'from REDIS_SERVER_PATH')
  process.exit(0)
}
if (isExecutable(DEFAULT_PATH)) {
  report(DEFAULT_PATH, 'system package')
  process.exit(0)
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (isRoot && hasAptGet()) {
  console.log(`${TAG} no redis-server found; installing Debian's redis-server with apt-get...`)
  apt(['update', '-q'])
  // Only the binary is wanted: the tests start their own server, so the package's service is not started.
  apt(['install', '-y', '-q', '--no-install-recommends', 'redis-server'])
  if (!isExecutable(DEFAULT_PATH)) fail('apt-get installed redis-server, but no binary appeared at /usr/bin/redis-server.')
  report(DEFAULT_PATH, 'installed now with apt-get')
  process.exit(0)
}
fail(
  'no redis-server found for the AI SDK resume tests (looked at REDIS_SERVER_PATH and /usr/bin/redis-server). ' +
    (hasAptGet() ? 'Install it with `sudo apt-get install -y redis-server`, ' : "Install your system's Redis server package, ") +
    'or set REDIS_SERVER_PATH=/path/to/redis-server.',
)
