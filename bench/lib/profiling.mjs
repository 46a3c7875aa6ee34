// --profile: which Node flags start a server under the CPU profiler, and which part of its
// profile belongs to the measured load (so fixture import and shutdown stay out of the figures).
import { join } from 'node:path'

import { profilesDir } from './paths.mjs'

/** Node flags that write bench/profiles/<name>.cpuprofile when the process exits normally. */
export const cpuProfArgs = (name) => [
  '--cpu-prof',
  '--cpu-prof-dir',
  profilesDir,
  '--cpu-prof-name',
  `${name}.cpuprofile`
]

/**
 * Where a run's profile is and which milliseconds of it (from the process start) the load covered.
 * @param {string} name
 * @param {{ spawnedAt: number }} server
 * @param {{ window: { startedAt: number, endedAt: number }, requests: number, single: { requests: number }, warmup?: { requests: number } }} result
 */
export function profileRef(name, server, result) {
  return {
    file: join(profilesDir, `${name}.cpuprofile`),
    fromMs: Math.round(result.window.startedAt - server.spawnedAt),
    toMs: Math.round(result.window.endedAt - server.spawnedAt),
    // Answers received in the window (1 connection, then all); requests still queued at the end are not counted.
    requests: result.requests + result.single.requests + (result.warmup?.requests ?? 0)
  }
}
