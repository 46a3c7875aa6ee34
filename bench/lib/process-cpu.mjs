// CPU time another process has used (all its threads: the main thread and libuv's pool), from
// /proc/<pid>/stat. Per request, it is the server's cost whatever else runs on the machine: a
// neighbour slows a run's req/s but does not add CPU seconds to the server (Linux only; null
// elsewhere). Split by thread from /proc/<pid>/task: what the main thread pays, and what the
// request log's worker, libuv's pool and V8's helpers add beside it.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

let ticksPerSecond = null

/**
 * The process's user + system CPU seconds so far, or null where procfs is missing.
 * @param {number} pid
 * @returns {number | null}
 */
export function readCpuSeconds(pid) {
  let stat
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  return statCpuSeconds(stat).seconds
}

/** A `stat` line's command name and user + system CPU seconds (a process's or one thread's: the same format). */
function statCpuSeconds(stat) {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  }
}

/**
 * Which thread a server's CPU went to. The main thread is the one whose id is the process's; the
 * request log's worker names itself `request-log`; Node 22+ names libuv's pool (`libuv-worker`,
 * where a busy emulator signs off the main thread) and V8's helpers (`V8Worker`: the collector's
 * parallel work). On Node 20 the last two are both `node`, counted as other threads.
 */
export const THREAD_KINDS = ['main', 'requestLog', 'libuvPool', 'v8Helpers', 'other']

/**
 * CPU seconds so far of each of the process's threads, by kind, or null where procfs is missing.
 * A thread that ended between two readings takes its seconds with it: the difference of two
 * readings can then undercount that kind (the server's threads live as long as it does).
 * @param {number} pid
 * @returns {Record<string, number> | null}
 */
export function readThreadCpuSeconds(pid) {
  let tids
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return null
  }
  /** @type {Record<string, number>} */
  const seconds = Object.fromEntries(THREAD_KINDS.map((kind) => [kind, 0]))
  for (const tid of tids) {
    let stat
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    } catch {
      continue // ended since the listing
    }
    const thread = statCpuSeconds(stat)
    seconds[threadKind(Number(tid) === pid, thread.name)] += thread.seconds
  }
  return seconds
}

function threadKind(isMain, name) {
  if (isMain) return 'main'
  if (name === 'request-log') return 'requestLog'
  if (name === 'libuv-worker') return 'libuvPool'
  if (name === 'V8Worker') return 'v8Helpers'
  return 'other'
}

/**
 * Microseconds of CPU a request, by kind of thread, between two readings of readThreadCpuSeconds.
 * @param {Record<string, number> | null} before
 * @param {Record<string, number> | null} after
 * @param {number} requests
 * @returns {Record<string, number> | null}
 */
export function cpuUsPerRequestByThread(before, after, requests) {
  if (!before || !after || !(requests > 0)) return null
  return Object.fromEntries(
    THREAD_KINDS.map((kind) => [kind, Math.max(0, Math.round(((after[kind] - before[kind]) * 1e6) / requests))])
  )
}
