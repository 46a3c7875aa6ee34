import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

import { projectRoot } from '../support/cli-process'

export const SOURCE_DIR = join(projectRoot, 'examples', 'native-client')

/** Why the native client cannot be built here (a missing tool or library), or null when it can. */
export function missingToolchain(): string | null {
  const tools: [string, string[]][] = [
    ['cmake', ['--version']],
    ['c++', ['--version']],
    ['pkg-config', ['--version']]
  ]
  for (const [tool, args] of tools) {
    if (spawnSync(tool, args, { stdio: 'ignore' }).status !== 0)
      return `${tool} is not installed (apt-get install cmake g++ pkg-config)`
  }
  for (const library of ['libcurl', 'libsodium', 'nlohmann_json']) {
    if (spawnSync('pkg-config', ['--exists', library]).status !== 0) {
      return `${library} is not installed (apt-get install libcurl4-openssl-dev libsodium-dev nlohmann-json3-dev)`
    }
  }
  return null
}

/**
 * Configures and builds the client into `.tmp/native/<name>`; returns the driver's path. Test files
 * that need the same build share its folder (make rebuilds nothing the second time); a lock keeps
 * two vitest workers from building into it at once.
 */
export function buildClient(name: string, cmakeArgs: readonly string[] = []): string {
  const buildDir = join(projectRoot, '.tmp', 'native', name)
  mkdirSync(buildDir, { recursive: true })
  const run = (args: string[]) => {
    const result = spawnSync('cmake', args, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`cmake ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`)
    return `${result.stdout}\n${result.stderr}`
  }
  return withBuildLock(`${buildDir}.lock`, () => {
    run(['-S', SOURCE_DIR, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release', ...cmakeArgs])
    const output = run(['--build', buildDir, '-j', '2'])
    // The example is code people copy: it builds without a warning (-Wall -Wextra -Wpedantic).
    // (A build that had nothing to do prints no compiler output: the first one checked it.)
    if (/warning:/.test(output)) throw new Error(`the native client built with warnings:\n${output}`)
    return join(buildDir, 'license-cli')
  })
}

/** Runs `build` holding a lock directory (mkdir is atomic); a lock older than 10 minutes is a dead run's. */
function withBuildLock<T>(lock: string, build: () => T): T {
  const sleeper = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        // Released between the two calls: try again.
      }
      Atomics.wait(sleeper, 0, 0, 250)
    }
  }
  try {
    return build()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
