// What the `weft` entry does on import: the four built-in protocols become known by name and to detection,
// AG-UI with its views (the definition the umbrella registers in its place).
import { registerProtocol } from '../src/core/protocol/registry'
import '../src/protocols/index'
import { agUiProtocolWithViews } from '../src/protocols/ag-ui/react/index'

registerProtocol(agUiProtocolWithViews)

// A host's resume chunk has arrived by the time a person sends; tests that count ticks
// after a send expect the same. Loading itself is tested in resume-loading.test.ts.
import { preloadResume } from '../src/core/resume/load-binding'

await preloadResume()
