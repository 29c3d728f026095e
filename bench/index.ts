/**
 * `npm run bench`: weft's figures, measured side by side with the floor and
 * the peers in one process. Printed, never asserted.
 */
import { benchUIMessage } from './ui-message'
import { benchYao } from './yao'

console.log(`weft bench · Node ${process.version} · ${new Date().toISOString()}\n`)
await benchYao()
await benchUIMessage()
