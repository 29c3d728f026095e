// The child process that scripts/langgraph-server.mjs starts: LangGraph's in-memory API server
// (what `langgraph dev` runs), in-process here, on the port and with the graphs it is given.
// Run with `--import tsx` so the TypeScript graph files load. Prints one line,
// `LANGGRAPH_READY <host:port>`, when it accepts requests.
import { startServer } from '@langchain/langgraph-api/server'

const options = JSON.parse(process.argv.at(-1) ?? '{}')
const { host, cleanup } = await startServer(options)
process.stdout.write(`LANGGRAPH_READY ${host}\n`)

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  // Nothing worth keeping was written (the server's files live in a temporary folder): close and go.
  await Promise.race([cleanup().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000))])
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
// The parent went away without stopping us (a killed test worker): do not linger.
process.on('disconnect', stop)
