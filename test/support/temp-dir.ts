import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh directory under the OS temp dir, removed by the returned function. */
export function makeTempDir(label: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `ple-${label}-`))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}
