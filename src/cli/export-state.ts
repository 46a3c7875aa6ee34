import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'

import { writeFileAtomic } from '../core/files/atomic-file'
import { exportState, serializeScenario } from '../core/scenarios/state-export'
import { openStore, UnreadableDatabaseError } from '../core/store/store'
import { EXIT } from './exit-codes'
import { UsageError } from './serve-options'
import { resolveUserPath } from './user-path'

export const EXPORT_USAGE = `Usage: plugin-license-emulator export-state --db PATH [--out FILE]

  Writes the database's state as a scenario document to FILE (atomically: temp file, then
  rename) or to stdout. Reads the database read-only, in one snapshot, without taking or waiting
  for its write lock: safe while a server runs on it, or another program holds that lock. A --db
  that does not exist, or is not an emulator database this version reads, is refused (exit 5)
  and left as it was. The clock, the fault rules and the settings live in the running server:
  GET /_emulator/state exports them too.`

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
  let text: string
  try {
    // Read-only, one snapshot: no migration, no checkpoint, never the write lock (a running serve writes on).
    const store = openStore({ path: databasePath, readOnly: true })
    try {
      text = serializeScenario(exportState(store, null))
    } finally {
      store.close()
    }
  } catch (error) {
    const refused = whyUnreadable(databasePath, error)
    process.stderr.write(`${refused.message}\n`)
    return refused.exit
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

/** SQLite's codes for a file that is not a database it can open, or that another connection keeps it from reading. */
const UNREADABLE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CANTOPEN', 'SQLITE_BUSY', 'SQLITE_LOCKED'])

/** Why --db could not be exported, in words, and the exit code (docs/cli.md, "Exit codes"). */
function whyUnreadable(databasePath: string, error: unknown): { message: string; exit: number } {
  if (error instanceof UnreadableDatabaseError) {
    const message =
      error.found === 0
        ? `${databasePath} is not an emulator database: nothing to export. Give the --db that serve used.`
        : error.found < error.expected
          ? `${databasePath} was written by an older emulator (schema version ${error.found}; this one reads ${error.expected}). Start this version's serve on it once to upgrade it, then export again.`
          : `${databasePath} was written by a newer emulator (schema version ${error.found}; this one reads ${error.expected}). Export it with that version.`
    return { message, exit: EXIT.databaseUnavailable }
  }
  const { code, message } = error as { code?: string; message?: string }
  const exit =
    code !== undefined && (UNREADABLE_CODES.has(code) || code.startsWith('STORAGE_'))
      ? EXIT.databaseUnavailable
      : EXIT.failed
  return { message: `Cannot export ${databasePath}: ${message ?? String(error)}. Nothing was written.`, exit }
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
