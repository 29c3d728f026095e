/**
 * Once per run, before any test file starts: the package built (when `src/`
 * is newer than `dist/`) and packed into a tarball that every host installs.
 * It is a global setup, not a test file's `beforeAll`, so the two host files
 * share one tarball, and so nothing else in `npm test` that reads `dist/` (the
 * Jest run of weft/testing) can start while the build rewrites it.
 */
import type { TestProject } from 'vitest/node'
import { packWeft, seconds, tempDir } from './scaffold'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed weft tarball the hosts install. */
    weftTarball: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const temp = tempDir('pack')
  const start = performance.now()
  const { tarball, built } = await packWeft(temp.dir).catch((error: unknown) => {
    temp.remove()
    throw error
  })
  console.log(`hosts: ${built ? 'npm run build (dist/ was older than src/), then ' : ''}npm pack in ${seconds(start)} s`)
  project.provide('weftTarball', tarball)
  return () => temp.remove()
}
