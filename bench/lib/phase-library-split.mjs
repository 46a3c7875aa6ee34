// Where a library's service time goes: bench/library-service-time.ts in its own process (no HTTP),
// timing the SQLite reads, the view built from them and the serialisation separately, with the
// body's bytes per item. It runs the TypeScript sources through jiti, as `npm run bench:library`.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

import { projectRoot } from './paths.mjs'

const ITERATIONS = 30
/** The script takes a few seconds; one that does not end (a thread keeping it alive) fails the phase instead of hanging the bench. */
const TIMEOUT_MS = 120_000

/** @returns {Record<string, { medianMs: number, bytes: number, bytesPerItem: number, sqliteMs: number, viewMs: number, serialiseMs: number }>} */
export function runLibrarySplit(log) {
  const run = spawnSync(
    process.execPath,
    [
      join(projectRoot, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs'),
      join(projectRoot, 'bench', 'library-service-time.ts'),
      '--json',
      '--iterations',
      String(ITERATIONS)
    ],
    {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: TIMEOUT_MS
    }
  )
  if (run.error?.code === 'ETIMEDOUT')
    throw new Error(
      `library-service-time.ts did not end within ${TIMEOUT_MS / 1000} s; stderr: ${run.stderr.slice(-2000)}`
    )
  if (run.status !== 0)
    throw new Error(`library-service-time.ts failed (exit ${run.status}): ${run.stderr.slice(-2000)}`)
  const figures = JSON.parse(run.stdout.trim().split('\n').at(-1))
  for (const [name, f] of Object.entries(figures)) {
    log(
      `  ${name}: ${f.medianMs.toFixed(2)} ms in process = SQLite ${f.sqliteMs.toFixed(2)} + view ${f.viewMs.toFixed(2)} + serialisation ${f.serialiseMs.toFixed(2)} ms; ${f.bytesPerItem} bytes per item`
    )
  }
  return figures
}
