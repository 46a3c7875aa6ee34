import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import writeFileAtomicPackage from 'write-file-atomic'

/**
 * Writes `data` atomically with write-file-atomic (a temporary file beside `path`, fsync, then a
 * rename): a crash or a full disk leaves the old file or the new one, never half of one. The
 * temporary file is opened with `mode` (private by default), so nothing is readable by others,
 * even briefly. The one atomic write of the project (desktop and command line).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileAtomicPackage.sync(
    path,
    typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    { mode, fsync: true }
  )
}
