#!/usr/bin/env node
// Every call's latency at one connection, and where the slow ones fall: what wrk's p50, p99 and
// mean do not show. A fresh server (the built `serve` over the bench's fixtures, or the limit
// server) gets a warm-up of 3,000 calls, then N calls one at a time on one keep-alive socket from
// this process, each timed on its own. Printed as one JSON line: the mean, percentiles, the calls
// over 1.5 ms and their share of the run's time, and the positions (call number modulo the request
// log's batch, POST_BATCH in src/core/inspector/request-log.ts) where most of them fell: slow calls
// bunched at one position follow the log's batches.
//
// Usage: node bench/one-connection-latency.mjs [validate|verify|activate] [emulator|limit] [N]
//   (run `npm run build` first; the defaults are validate, emulator, 10000)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { startEmulator } from './lib/emulator.mjs'
import { ENDPOINTS } from './lib/endpoints.mjs'
import { buildFixtures } from './lib/fixtures.mjs'
import { UNIQUE_MARKER } from './lib/generators/request-spec.mjs'
import { limitScript, projectRoot } from './lib/paths.mjs'
import { startServerProcess } from './lib/server-process.mjs'

const [endpointName = 'validate', serverName = 'emulator', count = '10000'] = process.argv.slice(2)
const calls = Number(count)
const endpoint = ENDPOINTS.find((candidate) => candidate.name === endpointName)
if (
  !endpoint ||
  !['validate', 'verify', 'activate'].includes(endpointName) ||
  !['emulator', 'limit'].includes(serverName) ||
  !(calls > 0)
) {
  process.stderr.write('usage: node bench/one-connection-latency.mjs [validate|verify|activate] [emulator|limit] [N]\n')
  process.exit(2)
}
const WARM_UP_CALLS = 3000
const SLOW_MS = 1.5
/** The request log's batch (src/core/inspector/request-log.ts POST_BATCH). */
const LOG_BATCH = 64

const fixtures = buildFixtures()
const workDir = mkdtempSync(join(tmpdir(), 'ple-latency-'))
const server = await startServer()
try {
  const spec = await endpoint.prepare(server, fixtures)
  const latencies = await callOneAtATime(new URL(server.baseUrl), spec)
  process.stdout.write(`${JSON.stringify({ endpoint: endpointName, server: serverName, ...summary(latencies) })}\n`)
} finally {
  await server.stop()
  rmSync(workDir, { recursive: true, force: true })
}

async function startServer() {
  if (serverName === 'emulator') {
    const emulator = await startEmulator({ databasePath: join(workDir, 'emulator.db') })
    await emulator.control('PUT', '/state', fixtures.document)
    return emulator
  }
  const fixturesFile = join(workDir, 'limit-fixtures.json')
  const { plugin, validateLicenses, activateKeys } = fixtures
  writeFileSync(fixturesFile, JSON.stringify({ plugin, validateLicenses, activateKeys }))
  return startServerProcess({
    script: limitScript,
    args: ['--port', '0', '--db', join(workDir, 'limit.db'), '--fixtures', fixturesFile],
    nodeArgs: [],
    cwd: projectRoot
  })
}

/** The spec's requests one at a time on one socket (the warm-up untimed); each call's milliseconds. */
async function callOneAtATime(url, spec) {
  const bodies = (spec.bodies ?? (spec.body === undefined ? [] : [spec.body])).map((body) => JSON.stringify(body))
  const head = Object.entries({ ...spec.headers, host: url.host, 'content-type': 'application/json' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  let sent = 0
  const nextRequest = () => {
    const body = (bodies[sent % bodies.length] ?? '').replace(UNIQUE_MARKER, `latency-${sent}`)
    sent++
    return `${spec.method} ${spec.path} HTTP/1.1\r\n${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  }
  const socket = net.connect(Number(url.port), url.hostname)
  socket.setNoDelay(true)
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  let received = Buffer.alloc(0)
  let answered = () => {}
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk])
    const end = received.indexOf('\r\n\r\n')
    if (end < 0) return
    const length = Number(/content-length: (\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1] ?? 0)
    if (received.length < end + 4 + length) return
    received = received.subarray(end + 4 + length)
    answered()
  })
  const call = () =>
    new Promise((resolve) => {
      answered = resolve
      socket.write(nextRequest())
    })
  for (let i = 0; i < WARM_UP_CALLS; i++) await call()
  const latencies = []
  for (let i = 0; i < calls; i++) {
    const startedAt = performance.now()
    await call()
    latencies.push(performance.now() - startedAt)
  }
  socket.destroy()
  return latencies
}

function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b)
  const at = (share) => round(sorted[Math.floor(share * (sorted.length - 1))])
  const total = latencies.reduce((sum, ms) => sum + ms, 0)
  const slow = latencies.flatMap((ms, index) => (ms > SLOW_MS ? [{ ms, index }] : []))
  const byPosition = new Map()
  for (const { index } of slow) byPosition.set(index % LOG_BATCH, (byPosition.get(index % LOG_BATCH) ?? 0) + 1)
  return {
    calls: latencies.length,
    meanMs: round(total / latencies.length),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    p999: at(0.999),
    slowCalls: slow.length,
    slowShareOfTime: round(slow.reduce((sum, call) => sum + call.ms, 0) / total),
    // The three positions in the log's batch where most slow calls fell, with their counts.
    slowPositions: [...byPosition].sort((a, b) => b[1] - a[1]).slice(0, 3)
  }
}

function round(value) {
  return Math.round(value * 1000) / 1000
}
