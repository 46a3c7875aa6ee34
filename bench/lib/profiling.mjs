// --profile: which Node flags start a server under the CPU profiler, and which part of its
// profile belongs to the measured load (so fixture import and shutdown stay out of the figures).
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

import { profilesDir } from './paths.mjs'

/**
 * Node flags that write one profile per thread into bench/profiles/<name>/ as the process exits
 * normally, each under Node's own name (`CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile`). No
 * `--cpu-prof-name`: the request log's worker and the WAL checkpointer inherit the flags, and with
 * one name for all, the threads' profiles overwrote each other.
 */
export const cpuProfArgs = (name) => ['--cpu-prof', '--cpu-prof-dir', join(profilesDir, name)]

/** The profile of the server's own thread (thread id 0) in a run's folder, or a path that does not exist. */
function mainThreadProfile(dir) {
  const main = existsSync(dir)
    ? readdirSync(dir).find((file) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(file))
    : undefined
  return join(dir, main ?? 'no-profile-of-thread-0.cpuprofile')
}

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
  const dir = join(profilesDir, name)
  return {
    // Found once the server has exited and written it.
    get file() {
      return mainThreadProfile(dir)
    },
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
