// A host's resume chunk has arrived by the time a person sends; tests that count ticks
// after a send expect the same. Loading itself is tested in resume-loading.test.ts.
// (Protocols are not set up here: nothing registers them. Tests take the `weft`
// entry's defaults from src/umbrella, or hand a client its `protocols`.)
import { preloadResume } from '../src/core/resume/load-binding'

await preloadResume()
