// A host's resume chunk has arrived by the time a person sends; tests that count ticks
// after a send expect the same. Loading itself is tested in resume-loading.test.ts.
// (Protocols are not set up here: nothing registers them. Tests take the `weft`
// entry's defaults from src/umbrella, or hand a client its `protocols`.)
import { preloadResume } from '../src/core/resume/load-binding'

await preloadResume()

// In the browser every source module is a resource of its own: past the default 250
// entries the page stops recording, and a test that asks what was fetched (the lazy
// shiki chunk) would read nothing. Set before any test file is imported.
if (typeof performance !== 'undefined' && typeof performance.setResourceTimingBufferSize === 'function') performance.setResourceTimingBufferSize(100_000)
