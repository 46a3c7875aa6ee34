// Runs a load generator as its own process and reads the CPU time it used. bash's `times`
// builtin, run after the generator exits, prints the user and system time of the shell's
// finished children: exact, with no sampling that could miss the run's last moments.
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'

/**
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, wallS: number, cpuS: number | null }>}
 */
export function runMeasured(command, args) {
  const startedAt = performance.now()
  const child = spawn('bash', ['-c', '"$@"; status=$?; times >&2; exit $status', 'bash', command, ...args], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-20_000)))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => {
      const wallS = (performance.now() - startedAt) / 1000
      resolve({ code, stdout, stderr: stripTimes(stderr), wallS, cpuS: childCpuSeconds(stderr) })
    })
  })
}

const TIMES_LINE = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/

/** The children's user + system seconds: the last of the two lines `times` prints. */
export function childCpuSeconds(stderr) {
  const lines = stderr.trim().split('\n')
  const match = TIMES_LINE.exec(lines.at(-1)?.trim() ?? '')
  if (!match || !TIMES_LINE.test(lines.at(-2)?.trim() ?? '')) return null
  const [, um, us, sm, ss] = match
  return Number(um) * 60 + Number(us) + Number(sm) * 60 + Number(ss)
}

function stripTimes(stderr) {
  const lines = stderr.trimEnd().split('\n')
  return (childCpuSeconds(stderr) === null ? lines : lines.slice(0, -2)).join('\n')
}

/**
 * The generator's share of the machine while it ran: its CPU seconds over the wall time of all
 * cores. On 2 cores, 0.5 means it held one core the whole run, which the servers did not get.
 */
export function generatorCpu(name, cpuS, wallS) {
  return {
    name,
    cpuS: cpuS === null ? null : Math.round(cpuS * 100) / 100,
    machineShare: cpuS === null ? null : Math.round((cpuS / (wallS * cpus().length)) * 1000) / 1000
  }
}
