import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// Vitest global setup of the unit and api projects: the command-line and bundle tests run
// out/main/*.js, so every run builds it from the current sources first (a stale bundle would
// test yesterday's code). `npm test` builds once itself and sets BUNDLE_FRESH_ENV; so does the
// first project of a run, so the second one does not build again. Set it yourself
// (`PLE_BUNDLE_FRESH=1 npx vitest run ...`) to skip the build while iterating on core code.
export const BUNDLE_FRESH_ENV = 'PLE_BUNDLE_FRESH'

export default function buildBundle(): void {
  if (process.env[BUNDLE_FRESH_ENV] === '1') return
  const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    shell: process.platform === 'win32'
  })
  if (build.status !== 0) {
    throw new Error(
      `electron-vite build failed (exit ${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`
    )
  }
  process.env[BUNDLE_FRESH_ENV] = '1'
}
