// Cold start: from spawning `node bin/plugin-license-emulator.js serve` to the first 200 from
// GET /_emulator/health, each run on a fresh database (so it includes migrating the schema and
// creating the signing keys, the slowest first start a user sees). The port is chosen up front
// so the bench can poll health without waiting for the "listening" line.
//
// Measured under the bench's own Node and under each Node LTS that `scripts/node-lts.mjs` (run by
// .ci/run) installed in .tmp/node-lts with its better-sqlite3 build in .tmp/native. Each Node
// starts with an empty compile cache of its own (Node 22+ keeps compiled code there: the bin enables
// it), so its first run is the first start on a new machine and the later ones are every start after.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
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

/**
 * @typedef {object} NodeUnderTest
 * @property {string} bin
 * @property {string} version
 * @property {Record<string, string>} env  what this Node needs (its better-sqlite3 build)
 */

/** @returns {NodeUnderTest[]} the bench's Node, then each installed Node LTS with a better-sqlite3 build for it */
function nodesUnderTest() {
  const nodes = [{ bin: process.execPath, version: process.version, env: {} }]
  const installed = join(projectRoot, '.tmp', 'node-lts')
  if (!existsSync(installed)) return nodes
  for (const dir of readdirSync(installed).sort()) {
    const bin = join(installed, dir, 'bin', 'node')
    if (!existsSync(bin)) continue
    const [version, abi] = execFileSync(bin, ['-p', '`${process.version} ${process.versions.modules}`'], {
      encoding: 'utf8'
    })
      .trim()
      .split(' ')
    const binding = join(projectRoot, '.tmp', 'native', `node-v${abi}-linux-x64`, 'better_sqlite3.node')
    if (version === undefined || version === process.version || !existsSync(binding)) continue
    nodes.push({ bin, version, env: { PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING: binding } })
  }
  return nodes
}

/** @param {NodeUnderTest} node @param {string} compileCache */
async function oneColdStart(node, databasePath, compileCache) {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    node.bin,
    [cliEntry, 'serve', '--port', String(port), '--db', databasePath, '--admin-token', 'bench-cold-start-token'],
    {
      cwd: projectRoot,
      stdio: 'ignore',
      env: { ...process.env, ...node.env, NODE_COMPILE_CACHE: compileCache }
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
  const byNode = []
  for (const node of nodesUnderTest()) {
    const compileCache = mkdtempSync(join(workDir, 'compile-cache-'))
    const runsMs = []
    for (let i = 0; i < config.coldStartRuns; i++)
      runsMs.push(Math.round(await oneColdStart(node, join(workDir, `cold-${byNode.length}-${i}.db`), compileCache)))
    const entry = coldStartOf(node.version, runsMs)
    log(
      `  cold start, Node ${node.version}: median ${entry.medianMs} ms, first ${entry.firstMs} ms (runs ${runsMs.join(', ')} ms)`
    )
    byNode.push(entry)
  }
  return summariseColdStarts(byNode)
}

/** One Node's runs, the first of them with an empty compile cache. */
export function coldStartOf(node, runsMs) {
  const sorted = [...runsMs].sort((a, b) => a - b)
  const lts = Number(node.slice(1).split('.')[0]) >= 22
  return {
    node,
    lts,
    runsMs,
    medianMs: sorted[Math.floor(sorted.length / 2)],
    firstMs: runsMs[0],
    minMs: sorted[0],
    maxMs: sorted.at(-1)
  }
}

/**
 * The figure the target is judged on: the slowest median among the supported Node LTS lines when
 * any was measured (Node 20 is past its end of life and has no compile cache), else the bench's own Node's.
 */
export function summariseColdStarts(byNode) {
  const judged = byNode.some((entry) => entry.lts) ? byNode.filter((entry) => entry.lts) : byNode.slice(0, 1)
  const worst = judged.reduce((a, b) => (b.medianMs > a.medianMs ? b : a))
  return { medianMs: worst.medianMs, judgedOn: judged.map((entry) => entry.node), byNode }
}
