import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'

/**
 * Writes `text` to `path` through a temp file in the same directory, flushed and renamed into
 * place: a reader sees the old file or the new one, never half of one.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(fd)
  try {
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
