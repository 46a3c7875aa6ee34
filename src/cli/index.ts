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

/** Every command, with its one line for the top-level usage and its own usage (`<command> --help`). */
const COMMANDS: ReadonlyArray<{ name: string; summary: string; usage?: string; label?: string }> = [
  { name: 'serve', summary: 'run the emulator headless (for CI and QA)', usage: SERVE_USAGE },
  { name: 'export-state', summary: "write a database's state as a scenario document", usage: EXPORT_USAGE },
  { name: 'scenario-schema', summary: 'print the JSON Schema of scenario documents', usage: SCENARIO_SCHEMA_USAGE },
  { name: 'version', summary: 'print the version (also --version, -v)' },
  { name: 'help', label: 'help [command]', summary: "this text, or that command's options (also --help, -h)" }
]

const USAGE = `Usage: plugin-license-emulator <command> [options]

Commands:
${COMMANDS.map(({ name, label, summary }) => `  ${(label ?? name).padEnd(17)}${summary}`).join('\n')}

  \`plugin-license-emulator <command> --help\` prints a command's options.
  Exit codes: 0 ok, 1 failure, 2 bad command line (no command, an unknown command or
  option), 3-5 serve could not start (serve --help says which).`

/** How long a SIGTERM/SIGINT waits for requests in flight before dropping them. */
const SHUTDOWN_GRACE_MS = 10_000

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) throw new UsageError('No command given.', USAGE)
  if (command === 'version' || command === '--version' || command === '-v') {
    process.stdout.write(`${EMULATOR_VERSION}\n`)
    return 0
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    const topic = rest[0]
    if (topic === undefined) {
      process.stdout.write(`${USAGE}\n`)
      return 0
    }
    const usage = COMMANDS.find(({ name }) => name === topic)?.usage
    if (usage === undefined) throw new UsageError(`No help for "${topic}".`, USAGE)
    process.stdout.write(`${usage}\n`)
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
    throw new UsageError(`Unknown command "${command}".`, USAGE)
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
        // A second signal: stop waiting for requests in flight, and for another program's write lock.
        process.stderr.write(`${signal} again: dropping open connections, no longer waiting for the database\n`)
        server.dropConnections()
        server.stopWaitingForStorage()
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
    // The reader of stdout or stderr went away (`serve | head -1`, a closed log pipe): the server
    // stops as on a signal, its requests finished and its database closed, instead of crashing on
    // EPIPE at its next log line. Once: the writes that fail after it are no second signal.
    let outputGone = false
    const onOutputError = () => {
      if (outputGone) return
      outputGone = true
      stop('SIGPIPE')
    }
    process.stdout.on('error', onOutputError)
    process.stderr.on('error', onOutputError)
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
