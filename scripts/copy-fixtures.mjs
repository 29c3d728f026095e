// Copies the fixtures into the package as plain JSON files (`weft/testing/fixtures/<protocol>/<name>.json`),
// so a host can copy one, edit it and check it in next to its tests.
import { cpSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const from = join(root, 'src/testing/fixtures')
const to = join(root, 'dist/testing/fixtures')
cpSync(from, to, { recursive: true, filter: (path) => !path.endsWith('.ts') })
const count = readdirSync(to, { recursive: true }).filter((f) => String(f).endsWith('.json')).length
console.log(`copied ${count} fixtures to dist/testing/fixtures`)
