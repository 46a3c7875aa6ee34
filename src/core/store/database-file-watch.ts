import { statSync } from 'node:fs'

/** How often the database's path is looked at. */
export const FILE_WATCH_INTERVAL_MS = 1000

export interface DatabaseFileWatch {
  stop(): void
}

/**
 * Calls `onGone` once if the file at `path` stops being the one opened: deleted (`rm emulator.db`
 * while the emulator runs), moved, or replaced by another file. SQLite keeps writing the open file
 * either way, and on a POSIX system a deleted one is gone, with every write since, when the process
 * ends (a moved one is not, but the path no longer names it: stopping writes is the safe side).
 * Nothing tells SQLite; only the path's device and inode say so.
 */
export function watchDatabaseFile(path: string, onGone: () => void): DatabaseFileWatch {
  const identityOf = () => {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false })
    return stats === undefined ? null : `${stats.dev}:${stats.ino}`
  }
  const opened = identityOf()
  if (opened === null) return { stop: () => undefined }
  const timer = setInterval(() => {
    let now: string | null
    try {
      now = identityOf()
    } catch {
      // The folder cannot be read for now (permissions): nothing is known, nothing is said.
      return
    }
    if (now === opened) return
    clearInterval(timer)
    onGone()
  }, FILE_WATCH_INTERVAL_MS)
  // A watch must never keep a process (a test, `serve` on its way out) alive.
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
