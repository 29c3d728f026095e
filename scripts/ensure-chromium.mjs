#!/usr/bin/env node
// Makes sure a system Chromium exists for the browser test projects.
// Test tools never download their own browser here: we use Debian's `chromium`.
//
// Order: $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser.
// If none exists and we run as root with apt-get, installs Debian's `chromium`;
// otherwise exits non-zero and says what to install or which variable to set.
import { spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const DEFAULT_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser']
const TAG = 'ensure-chromium:'

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function versionOf(path) {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 })
  return run.status === 0 ? run.stdout.trim() : undefined
}

function fail(message) {
  console.error(`${TAG} ${message}`)
  process.exit(1)
}

function report(path, how) {
  const version = versionOf(path)
  if (!version) {
    fail(
      `${path} exists but \`${path} --version\` failed. ` +
        'Reinstall Chromium (Debian: apt-get install -y chromium) or set CHROMIUM_PATH to a working Chromium binary.',
    )
  }
  console.log(`${TAG} ${version} at ${path} (${how})`)
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

const fromEnv = process.env.CHROMIUM_PATH
if (fromEnv) {
  if (!isExecutable(fromEnv)) {
    fail(`CHROMIUM_PATH=${fromEnv} is not an executable file. Point it at a Chromium or Chrome binary, or unset it.`)
  }
  report(fromEnv, 'from CHROMIUM_PATH')
  process.exit(0)
}

const found = DEFAULT_PATHS.find(isExecutable)
if (found) {
  report(found, 'system package')
  process.exit(0)
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
if (isRoot && hasAptGet()) {
  console.log(`${TAG} no Chromium found; installing Debian's chromium with apt-get (about a minute)...`)
  apt(['update', '-q'])
  apt(['install', '-y', '-q', 'chromium'])
  const installed = DEFAULT_PATHS.find(isExecutable)
  if (!installed) fail('apt-get installed chromium, but no binary appeared at /usr/bin/chromium.')
  report(installed, 'installed now with apt-get')
  process.exit(0)
}

fail(
  'no Chromium found for the browser tests (looked at CHROMIUM_PATH, ' +
    `${DEFAULT_PATHS.join(', ')}). ` +
    (hasAptGet()
      ? 'Install it with `sudo apt-get install -y chromium`, '
      : "Install your system's Chromium package, ") +
    'or set CHROMIUM_PATH=/path/to/chromium (any Chromium or Chrome binary).',
)
