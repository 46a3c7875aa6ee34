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
  let text: string
  try {
    text = serializeScenario(exportState(store, null))
  } finally {
    store.close()
  }
  if (!values.out) {
    process.stdout.write(text)
    return 0
  }
  const outPath = resolveUserPath(values.out)
  try {
    writeFileAtomic(outPath, text)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    const why = (code && WRITE_FAILURES[code]) ?? message
    process.stderr.write(`Cannot write the export to ${outPath}: ${why}. Nothing was written there.\n`)
    return EXIT.failed
  }
  return 0
}

/** Why --out could not be written, in words (the atomic write leaves no file behind either way). */
const WRITE_FAILURES: Record<string, string> = {
  EISDIR: 'it is a folder; give a file name',
  ENOTDIR: 'a part of the path is a file, not a folder',
  // From making the folders: a part of the path exists, as a file.
  EEXIST: 'a part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'a file cannot be created there'
}
