/**
 * `npm run bench`: weft's figures, measured side by side with the floor and
 * the peers in one process. Printed, never asserted.
 */
import { benchBytes } from './bytes'
import { benchConversations } from './conversations'
import { benchMarkdown } from './markdown'
import { benchRenders } from './renders'
import { benchUIMessage } from './ui-message'
import { benchYao } from './yao'

console.log(`weft bench · Node ${process.version} · ${new Date().toISOString()}\n`)
await benchYao()
await benchUIMessage()
await benchRenders()
await benchBytes()
await benchMarkdown()
await benchConversations()
// jsdom and React leave timers behind; the figures are printed.
process.exit(0)
