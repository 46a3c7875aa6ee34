import { randomBytes } from 'node:crypto'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes `data` to a temporary file beside `path`, then renames it over `path`: a crash or a full
 * disk leaves the old file or the new one, never half of one. The temporary file gets `mode` from
 * its creation (private by default), so nothing is readable by others, even briefly. `flush` makes
 * the data durable before the rename. The one atomic write of the project (desktop and command line).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    writeFileSync(temporary, data, { mode, flag: 'wx', flush: true })
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}
