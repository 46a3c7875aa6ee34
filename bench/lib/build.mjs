// Builds the bundle the CLI runs (out/main/cli.js), as `npm test` does before its CLI tests:
// a bench of a stale bundle would measure code that is no longer in src/.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

import { cliBundle, projectRoot } from './paths.mjs'

export function buildBundle(log) {
  const started = performance.now()
  const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    cwd: projectRoot,
    encoding: 'utf8',
    shell: process.platform === 'win32'
  })
  if (build.status !== 0) {
    // electron-vite builds main (where cli.js lives) before preload and the renderer; a renderer
    // failure still leaves a fresh CLI bundle, but the bench says so rather than hide it.
    throw new Error(
      `electron-vite build failed (exit ${build.status}); fix it or run with --no-build.\n${build.stdout}\n${build.stderr}`.slice(
        0,
        4000
      )
    )
  }
  if (!existsSync(cliBundle)) throw new Error(`electron-vite build did not produce ${cliBundle}`)
  log(`  built out/ in ${Math.round(performance.now() - started)} ms`)
}
