/**
 * A sample that names a protocol or a resume strategy by its name must give the
 * definition that makes the name known, or it fails as copied: nothing is
 * registered anywhere, and only the `weft` entry's providers and client default
 * to the built-ins. So in every ```ts / ```tsx block of the README,
 * CONTRIBUTING.md and docs/ that imports from weft, each `protocol: '…'`,
 * `resume: '…'` and `strategy: '…'` is `sse`, or comes with `weft`, or is the
 * name of a definition the block passes itself (`protocol: uiMessageProtocol`,
 * or in a `protocols` list: `protocols={[agUiProtocolWithViews]}`), or is
 * defined in the block.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ProtocolDefinition } from '../../../src/core/protocol/types'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const documents = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** Each built-in protocol entry's definitions, by the name they are exported under: the names each brings. */
async function definitionNames(): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>()
  const folders = readdirSync(join(root, 'src/protocols'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  for (const folder of folders) {
    const entry = (await import(`../../../src/protocols/${folder}/index.ts`)) as Record<string, unknown>
    for (const [exported, value] of Object.entries(entry)) {
      const definition = value as Partial<ProtocolDefinition>
      if (typeof value !== 'object' || value === null || typeof definition.name !== 'string' || typeof definition.create !== 'function') continue
      names.set(exported, [definition.name, ...(definition.resume ? [definition.resume().name] : [])])
    }
  }
  return names
}

/** The names a definition in a `protocols` list brings: one entry's, AG-UI's with views, or all the built-ins'. */
function listed(identifier: string, definitions: Map<string, string[]>): string[] {
  if (identifier === 'builtInProtocols') return [...definitions.values()].flat()
  if (identifier === 'agUiProtocolWithViews') return definitions.get('agUiProtocol') ?? []
  return definitions.get(identifier) ?? []
}

interface Block { doc: string; line: number; code: string }

function blocks(): Block[] {
  return documents.flatMap((doc) => {
    const text = readFileSync(join(root, doc), 'utf8')
    return [...text.matchAll(/^```tsx?\n([\s\S]*?)^```$/gm)].map((m) => ({ doc, line: text.slice(0, m.index).split('\n').length, code: m[1]! }))
  })
}

/** The names a block uses that nothing in it makes known. */
function unknownNames(block: Block, definitions: Map<string, string[]>): string[] {
  const imports = [...block.code.matchAll(/(?:from|import) '(weft[^']*)'/g)].map((m) => m[1]!)
  // A fragment without imports is read beside the page's other samples; the testing helpers take scenario names.
  if (imports.length === 0 || imports.some((i) => i.startsWith('weft/testing'))) return []
  if (imports.includes('weft')) return []
  const known = new Set(['sse'])
  for (const m of block.code.matchAll(/\bname:\s*'([^']+)'/g)) known.add(m[1]!)
  for (const m of block.code.matchAll(/\bprotocol:\s*([A-Za-z_$][\w$]*)/g)) for (const name of definitions.get(m[1]!) ?? []) known.add(name)
  // A list handed to a provider or a client: each definition in it, spread or not.
  for (const list of block.code.matchAll(/\bprotocols(?:=\{|:)\s*\[([^\]]*)\]/g)) {
    for (const m of list[1]!.matchAll(/[A-Za-z_$][\w$]*/g)) for (const name of listed(m[0], definitions)) known.add(name)
  }
  return [...block.code.matchAll(/\b(?:protocol|resume|strategy):\s*'([^']+)'/g)].map((m) => m[1]!).filter((name) => !known.has(name))
}

describe('protocol and strategy names in the documentation', () => {
  it('every name a sample uses is made known by what the sample imports or defines', async () => {
    const definitions = await definitionNames()
    expect([...definitions.keys()].sort()).toEqual(['agUiProtocol', 'langGraphProtocol', 'uiMessageProtocol', 'vocionProtocol', 'yaoProtocol'])
    const problems = blocks().flatMap((block) => unknownNames(block, definitions).map((name) => `${block.doc}:${block.line}: '${name}' is not given by this sample`))
    expect(problems).toEqual([])
  })

  it('catches a sample that names a protocol it does not give', async () => {
    const definitions = await definitionNames()
    const broken = { doc: 'x.md', line: 1, code: "import { useAgentStream } from 'weft/react'\nuseAgentStream({ url: '/a', protocol: 'yao', resume: 'ai-sdk' })\n" }
    expect(unknownNames(broken, definitions)).toEqual(['yao', 'ai-sdk'])
    const handed = { ...broken, code: "import { yaoProtocol } from 'weft/protocols/yao'\nuseResumableStream({ protocol: yaoProtocol, resume: 'yao' })\n" }
    expect(unknownNames(handed, definitions)).toEqual([])
    const listedInProvider = { ...broken, code: "import { AgentProvider } from 'weft/react'\nimport { agUiProtocolWithViews } from 'weft/protocols/ag-ui/react'\n<AgentProvider protocols={[agUiProtocolWithViews]} />\nuseAgentStream({ protocol: 'ag-ui', resume: 'yao' })\n" }
    expect(unknownNames(listedInProvider, definitions)).toEqual(['yao'])
    // `weft/protocols` alone registers nothing any more.
    const bare = { ...broken, code: "import 'weft/protocols'\nimport { useAgentStream } from 'weft/react'\nuseAgentStream({ protocol: 'yao' })\n" }
    expect(unknownNames(bare, definitions)).toEqual(['yao'])
  })
})
