// Starts a server script in its own Node process and waits for its "listening on URL" line.
// The emulator (bin/plugin-license-emulator.js serve) and the baseline (bench/baseline-server.mjs)
// both print that line, so one helper starts either, the same way, with the same Node.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const LISTENING = /listening on (http:\/\/\S+)/

/**
 * @typedef {object} ServerProcess
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {number} spawnedAt  performance.now() in the bench when the process was spawned (the origin of its CPU profile, give or take Node's own start-up)
 * @property {string} baseUrl
 * @property {() => string} stderr  everything the server wrote to stderr so far (for failures)
 * @property {() => Promise<{ code: number | null, signal: string | null }>} stop  SIGINT, then SIGKILL after a grace period
 */

/**
 * @param {object} options
 * @param {string} options.script      the entry script (absolute path)
 * @param {string[]} options.args      its arguments
 * @param {string[]} [options.nodeArgs] flags for Node itself (e.g. --cpu-prof)
 * @param {string} options.cwd
 * @param {number} [options.readyTimeoutMs]
 * @returns {Promise<ServerProcess>}
 */
export async function startServerProcess({ script, args, nodeArgs = [], cwd, readyTimeoutMs = 30_000 }) {
  const spawnedAt = performance.now()
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderrText = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    // Keep the tail only: a long run under load must not grow the bench's own memory.
    stderrText = (stderrText + chunk).slice(-20_000)
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))

  const baseUrl = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${script} did not print "listening on" within ${readyTimeoutMs} ms; stderr:\n${stderrText}`))
    }, readyTimeoutMs)
    lines.on('line', (line) => {
      const match = LISTENING.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    void exited.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`${script} ended (code ${code}, signal ${signal}) before listening; stderr:\n${stderrText}`))
    })
  })
  // Drain stdout from here on so a chatty server never blocks on a full pipe.
  child.stdout.resume()

  let stopping = null
  return {
    child,
    pid: /** @type {number} */ (child.pid),
    spawnedAt,
    baseUrl,
    stderr: () => stderrText,
    stop() {
      // SIGINT is the clean path: the CLI closes the server and the database, and a process
      // started with --cpu-prof only writes its profile on a normal exit.
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return exited
        child.kill('SIGINT')
        const grace = setTimeout(() => child.kill('SIGKILL'), 15_000)
        const result = await exited
        clearTimeout(grace)
        return result
      })()
      return stopping
    }
  }
}
