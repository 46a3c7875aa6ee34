// Cold start: from spawning `node bin/plugin-license-emulator.js serve` to the first 200 from
// GET /_emulator/health, each run on a fresh database (so it includes migrating the schema and
// creating the signing keys, the slowest first start a user sees). The port is chosen up front
// so the bench can poll health without waiting for the "listening" line.
import { spawn } from 'node:child_process'
import { get } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'

import { cliEntry, projectRoot } from './paths.mjs'

const POLL_MS = 2
const GIVE_UP_MS = 30_000

/** A port that was free a moment ago (the OS hands out a fresh one for port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address())
      probe.close(() => resolve(port))
    })
  })
}

/** One GET /_emulator/health on a new connection: true on 200. */
function healthy(port) {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/_emulator/health', agent: false, timeout: 1000 }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode === 200))
    })
    req.once('error', () => resolve(false))
    req.once('timeout', () => req.destroy())
  })
}

async function oneColdStart(databasePath) {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [cliEntry, 'serve', '--port', String(port), '--db', databasePath, '--admin-token', 'bench-cold-start-token'],
    {
      cwd: projectRoot,
      stdio: 'ignore'
    }
  )
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  try {
    while (!(await healthy(port))) {
      if (exited) throw new Error('serve ended before answering health')
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no health answer within ${GIVE_UP_MS} ms`)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    return performance.now() - started
  } finally {
    child.kill('SIGINT')
    if (!exited) await new Promise((resolve) => child.once('exit', resolve))
  }
}

/** @param {import('./config.mjs').BenchConfig} config */
export async function runColdStart(config, workDir, log) {
  const runsMs = []
  for (let i = 0; i < config.coldStartRuns; i++)
    runsMs.push(Math.round(await oneColdStart(join(workDir, `cold-${i}.db`))))
  const sorted = [...runsMs].sort((a, b) => a - b)
  const medianMs = sorted[Math.floor(sorted.length / 2)]
  log(`  cold start: median ${medianMs} ms (runs ${runsMs.join(', ')} ms)`)
  return { runsMs, medianMs, minMs: sorted[0], maxMs: sorted[sorted.length - 1] }
}
