#!/usr/bin/env node
// Installs the locked dependencies when they are missing, so `npm start` and
// `npm test` work as the first commands on a fresh clone.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (existsSync(join(root, 'node_modules', '.package-lock.json'))) process.exit(0)

console.log('weft: installing dependencies (npm ci)…')
const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
process.exit(result.status ?? 1)
