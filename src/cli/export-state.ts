import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'

import { writeFileAtomic } from '../core/files/atomic-file'
import { exportState, serializeScenario } from '../core/scenarios/state-export'
import { openStore } from '../core/store/store'
import { EXIT } from './exit-codes'
import { UsageError } from './serve-options'
import { resolveUserPath } from './user-path'

export const EXPORT_USAGE = `Usage: plugin-license-emulator export-state --db PATH [--out FILE]

  Writes the database's state as a scenario document to FILE (atomically: temp file, then
  rename) or to stdout. Safe while a server runs on the same database. A --db that does not
  exist is refused (exit 5) and nothing is created. The clock, the fault rules and the settings
  live in the running server: GET /_emulator/state exports them too.`

/** `export-state`: the state of a database file as a scenario document. */
export function runExportState(args: readonly string[]): number {
  let values
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      options: { db: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }
    }).values
  } catch (error) {
    throw new UsageError((error as Error).message, EXPORT_USAGE)
  }
  if (values.help) {
    process.stdout.write(`${EXPORT_USAGE}\n`)
    return 0
  }
  if (!values.db) throw new UsageError('--db PATH is required.', EXPORT_USAGE)
  const databasePath = resolveUserPath(values.db)
  // Opening a missing path would create (and migrate) an empty database and export nothing.
  if (!existsSync(databasePath)) {
    process.stderr.write(`There is no database at ${databasePath}: nothing to export. Give the --db that serve used.\n`)
    return EXIT.databaseUnavailable
  }
  const store = openStore({ path: databasePath })
  try {
    const text = serializeScenario(exportState(store, null))
    if (values.out) writeFileAtomic(resolveUserPath(values.out), text)
    else process.stdout.write(text)
  } finally {
    store.close()
  }
  return 0
}
