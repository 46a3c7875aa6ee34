// CPU time another process has used (all its threads: the main thread and libuv's pool), from
// /proc/<pid>/stat. Per request, it is the server's cost whatever else runs on the machine: a
// neighbour slows a run's req/s but does not add CPU seconds to the server (Linux only; null
// elsewhere).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

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
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}
