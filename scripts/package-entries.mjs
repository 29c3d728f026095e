// The package's entries as a host imports them. Built-in protocols are one folder
// each under src/protocols/, exported by one pattern (`./protocols/*`), so the list
// of protocol entries comes from the folders, never from a list kept by hand.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The built-in protocols: every folder of src/protocols/ with an index.ts. */
export function protocolFolders(root) {
  const dir = join(root, 'src', 'protocols')
  return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'index.ts'))).sort()
}

/**
 * True when a protocol has views: a `react/` folder with an index.ts, the entry
 * `weft/protocols/<name>/react`. The protocol's own entry never reaches React.
 */
export function protocolHasViews(root, name) {
  return existsSync(join(root, 'src', 'protocols', name, 'react', 'index.ts'))
}

/**
 * Every module subpath the package exports (not the stylesheet), with its targets:
 * a pattern such as `./protocols/*` becomes one entry per protocol folder.
 */
export function moduleEntries(pkg, root) {
  const entries = []
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key.endsWith('.css') || typeof target !== 'object' || !target.types) continue
    if (!key.includes('*')) {
      entries.push({ key, types: target.types, import: target.import })
      continue
    }
    if (key !== './protocols/*') continue // fixture files: data, not modules
    for (const name of protocolFolders(root)) {
      entries.push({ key: key.replace('*', name), types: target.types.replace('*', name), import: target.import.replace('*', name) })
    }
  }
  return entries
}
