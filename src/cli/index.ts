import { join } from 'node:path'
import { parseArgs } from 'node:util'

import { scenarioJsonSchema } from '../core/scenarios/scenario-schema'
import { EMULATOR_VERSION } from '../server/build-server'
import { EXIT, ScenarioError } from './exit-codes'
import { EXPORT_USAGE, runExportState } from './export-state'
import { startServe } from './serve'
import { parseServeOptions, SERVE_USAGE, UsageError } from './serve-options'

const SCENARIO_SCHEMA_USAGE = `Usage: plugin-license-emulator scenario-schema

  Prints the JSON Schema of scenario documents (GET/PUT /_emulator/state, --scenario FILE).`

const USAGE = `Plugin License Emulator ${EMULATOR_VERSION}

Usage: plugin-license-emulator <command> [options]

Commands:
  serve            run the emulator headless (for CI and QA)
  export-state     write a database's state as a scenario document
  scenario-schema  print the JSON Schema of scenario documents
  version          print the version

${SERVE_USAGE}

${EXPORT_USAGE}

${SCENARIO_SCHEMA_USAGE}`

/** How long a SIGTERM/SIGINT waits for requests in flight before dropping them. */
const SHUTDOWN_GRACE_MS = 10_000

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
    let help = false
    try {
      help =
        parseArgs({ args: rest, strict: true, options: { help: { type: 'boolean', short: 'h' } } }).values.help ?? false
    } catch (error) {
      throw new UsageError((error as Error).message, SCENARIO_SCHEMA_USAGE)
    }
    process.stdout.write(help ? `${SCENARIO_SCHEMA_USAGE}\n` : scenarioJsonSchema())
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
  if (options === 'version') {
    process.stdout.write(`${EMULATOR_VERSION}\n`)
    return 0
  }
  // This entry is out/main/cli.js; the built UI sits beside it in out/renderer.
  const server = await startServe({ ...options, rendererDir: join(import.meta.dirname, '../renderer') })
  const forPeople = options.readyJson ? process.stderr : process.stdout
  forPeople.write(`Plugin License Emulator ${EMULATOR_VERSION} listening on ${server.baseUrl}\n`)
  forPeople.write(`Admin UI: ${server.adminUrl}\n`)
  if (options.readyJson) {
    const ready = {
      baseUrl: server.baseUrl,
      adminUrl: server.adminUrl,
      adminToken: server.adminToken,
      databasePath: server.databasePath,
      pid: process.pid,
      version: EMULATOR_VERSION
    }
    process.stdout.write(`${JSON.stringify(ready)}\n`)
  }

  await new Promise<void>((resolveStop) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal: stop waiting for requests in flight.
        process.stderr.write(`${signal} again: dropping open connections\n`)
        server.dropConnections()
        return
      }
      stopping = true
      process.stderr.write(`${signal}: finishing requests in flight, then closing the server and the database\n`)
      // A client that stops reading its response would hold the exit forever.
      const grace = setTimeout(() => {
        process.stderr.write(`requests still open after ${SHUTDOWN_GRACE_MS / 1000} s: dropping them\n`)
        server.dropConnections()
      }, SHUTDOWN_GRACE_MS)
      grace.unref()
      server.stop().then(resolveStop, (error: unknown) => {
        process.stderr.write(`error while closing: ${(error as Error).message}\n`)
        process.exitCode = EXIT.failed
        resolveStop()
      })
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  return 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode ??= code
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${error.usage}\n`)
      process.exitCode = EXIT.usage
      return
    }
    if (error instanceof ScenarioError) {
      process.stderr.write(`The emulator could not start: ${error.message}\n`)
      process.exitCode = EXIT.badScenario
      return
    }
    const failure = error as NodeJS.ErrnoException & { address?: string; port?: number }
    if (failure.code === 'EADDRINUSE') {
      const where =
        failure.port === undefined
          ? 'The port'
          : `Port ${failure.port}${failure.address ? ` on ${failure.address}` : ''}`
      process.stderr.write(`${where} is already in use. Pick another with --port, or --port 0 for a free one.\n`)
      process.exitCode = EXIT.portInUse
    } else if (failure.code === 'SQLITE_BUSY' || failure.code === 'SQLITE_LOCKED') {
      process.stderr.write(
        `The database is locked by another process (${failure.message}). Stop it, or give another --db.\n`
      )
      process.exitCode = EXIT.databaseUnavailable
    } else if (
      failure.code === 'SQLITE_NOTADB' ||
      failure.code === 'SQLITE_CANTOPEN' ||
      failure.code === 'SQLITE_CORRUPT'
    ) {
      process.stderr.write(`The database cannot be opened: ${failure.message}. Give another --db, or :memory:.\n`)
      process.exitCode = EXIT.databaseUnavailable
    } else {
      process.stderr.write(`The emulator could not start: ${(error as Error).message}\n`)
      process.exitCode = EXIT.failed
    }
  }
)
