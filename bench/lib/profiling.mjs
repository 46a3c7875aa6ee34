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
 * Where a run's profile is and which milliseconds of it (from the process start) the load covered:
 * the whole load, and its measured one-connection part alone (`single`: one call at a time, where
 * the server's every cost is on the caller's path), so `--profile` can say where a lone call goes.
 * @param {string} name
 * @param {{ spawnedAt: number }} server
 * @param {{ window: { startedAt: number, endedAt: number }, requests: number, single: { requests: number, window?: { startedAt: number, endedAt: number } }, warmup?: { requests: number } }} result
 */
export function profileRef(name, server, result) {
  const sinceSpawn = (at) => Math.round(at - server.spawnedAt)
  return {
    file: join(profilesDir, `${name}.cpuprofile`),
    fromMs: sinceSpawn(result.window.startedAt),
    toMs: sinceSpawn(result.window.endedAt),
    // Answers received in the window (1 connection, then all); requests still queued at the end are not counted.
    requests: result.requests + result.single.requests + (result.warmup?.requests ?? 0),
    single: result.single.window
      ? {
          fromMs: sinceSpawn(result.single.window.startedAt),
          toMs: sinceSpawn(result.single.window.endedAt),
          requests: result.single.requests
        }
      : null
  }
}
