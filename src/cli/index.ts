import { join } from 'node:path'
import { parseServeOptions, SERVE_USAGE, UsageError } from './serve-options'
import { startServe } from './serve'
import { EMULATOR_VERSION } from '../server/build-server'
import { EXPORT_USAGE, runExportState } from './export-state'
import { scenarioJsonSchema } from '../core/scenarios/scenario-schema'

const USAGE = `Plugin License Emulator ${EMULATOR_VERSION}

Usage: plugin-license-emulator <command> [options]

Commands:
  serve            run the emulator headless (for CI and QA)
  export-state     write a database's state as a scenario document
  scenario-schema  print the JSON Schema of scenario documents
  version          print the version

${SERVE_USAGE}

${EXPORT_USAGE}`

async function main(argv: readonly string[]): Promise<number> {
  const [command = 'help', ...rest] = argv
  if (command === 'version' || command === '--version' || command === '-v') {
    process.stdout.write(`${EMULATOR_VERSION}\n`)
    return 0
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (command === 'export-state') return runExportState(rest)
  if (command === 'scenario-schema') {
    process.stdout.write(scenarioJsonSchema())
    return 0
  }
  if (command !== 'serve') {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`)
    return 2
  }
  const options = parseServeOptions(rest)
  if (options === 'help') {
    process.stdout.write(`${SERVE_USAGE}\n`)
    return 0
  }
  // This entry is out/main/cli.js; the built UI sits beside it in out/renderer.
  const server = await startServe({ ...options, rendererDir: join(import.meta.dirname, '../renderer') })
  process.stdout.write(`Plugin License Emulator ${EMULATOR_VERSION} listening on ${server.baseUrl}\n`)
  process.stdout.write(`Admin UI: ${server.adminUrl}\n`)

  await new Promise<void>((resolveStop) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      process.stderr.write(`${signal}: closing the server and the database\n`)
      server.stop().then(resolveStop, (error: unknown) => {
        process.stderr.write(`error while closing: ${(error as Error).message}\n`)
        resolveStop()
      })
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  return 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${SERVE_USAGE}\n`)
      process.exitCode = 2
      return
    }
    const failure = error as NodeJS.ErrnoException & { address?: string; port?: number }
    if (failure.code === 'EADDRINUSE') {
      const where = failure.port === undefined ? 'The port' : `Port ${failure.port}${failure.address ? ` on ${failure.address}` : ''}`
      process.stderr.write(`${where} is already in use. Pick another with --port, or --port 0 for a free one.\n`)
    } else process.stderr.write(`The emulator could not start: ${(error as Error).message}\n`)
    process.exitCode = 1
  }
)
