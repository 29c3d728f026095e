/**
 * The curated surface of `weft/core`: at most 80 runtime names (types are not
 * capped: a type in a public signature is exported so hosts can name it), and the
 * kit's internals stay out of every entry. `api/*.api.md` records the full surface;
 * this holds the limits a change must not cross without a decision.
 */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const entries = {
  'weft': 'src/index.ts',
  'weft/core': 'src/core/index.ts',
  'weft/react': 'src/react/index.ts',
  'weft/components': 'src/components/index.ts',
}

/** Every name an entry exports, runtime and type, and the runtime ones apart. */
function exportedNames(): Record<string, string[]> & { runtime: Record<string, string[]> } {
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root)
  const program = ts.createProgram(Object.values(entries).map((f) => join(root, f)), { ...config.options, noEmit: true })
  const checker = program.getTypeChecker()
  const runtime: Record<string, string[]> = {}
  const all = Object.fromEntries(Object.entries(entries).map(([name, file]) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(join(root, file))!)!
    const symbols = checker.getExportsOfModule(module)
    const value = (s: ts.Symbol) => ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value) !== 0
    runtime[name] = symbols.filter(value).map((s) => s.name)
    return [name, symbols.map((s) => s.name)]
  }))
  return Object.assign(all, { runtime })
}

describe('public API', () => {
  const names = exportedNames()

  it('weft/core exports at most 80 runtime names, the store, client, foldStream, model, protocols, resume and errors among them', () => {
    const core = names['weft/core']!
    expect(names.runtime['weft/core']!.length).toBeLessThanOrEqual(80)
    expect(names.runtime['weft/core']).toContain('foldStream')
    expect(names.runtime['weft/core']).not.toContain('AgentState')
    for (const name of ['createAgentStore', 'AgentClient', 'foldStream', 'AgentState', 'Op', 'ProtocolDefinition', 'httpSseTransport', 'ResumeStrategy', 'WeftError', 'WeftStreamError']) {
      expect(core).toContain(name)
    }
  })

  it('no entry exports the kit’s internals', () => {
    const internals = ['newId', 'quote', 'fingerprint', 'withQuery', 'joinPath', 'parsePath', 'TurnLedger', 'isSafeKey', 'clean', 'fold', 'applyDelta', 'createBatcher', 'openStream', 'fetchJSON', 'createFrameParser', 'IncrementalJsonParser', 'resolveProtocol', 'readHandle', 'writeHandle', 'checkRecord', 'completeTail', 'mergeProps', 'splitCitations',
      // A protocol's decoder and sniffer are reached through its definition, never by name.
      'createYaoDecoder', 'sniffYao', 'createUIMessageDecoder', 'sniffUIMessage', 'UI_MESSAGE_CHUNK_TYPES',
      'createVocionDecoder', 'sniffVocion', 'classifyVocionError', 'createAgUiDecoder', 'sniffAgUi', 'AG_UI_EVENT_TYPES']
    for (const entry of Object.keys(entries)) {
      const exported = names[entry]!
      expect({ entry, leaked: exported.filter((n) => internals.includes(n)) }).toEqual({ entry, leaked: [] })
    }
  })
})
