// Peers: the mocks a user could pick instead of the emulator, serving validate, in the same run.
// Prism (`prism mock` of the emulator's own OpenAPI document: an answer made from the schema, no
// state, no signature) and Mockoon CLI (one route answering a fixed validate body), each installed
// on demand into .tmp/bench-peers (npm install --prefix; never a dependency of the project), each
// in its own process, loaded exactly as the emulator's validate; the emulator is measured again
// here, just before them, signing every answer. Each is loaded as a throughput run is: a warm-up
// and a measured run at one connection, then 50 connections. When a peer cannot be installed or started the
// phase says so plainly and its target is not run.
import { spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

import { startEmulator } from './emulator.mjs'
import { ENDPOINTS, preflight } from './endpoints.mjs'
import { warmAndMeasure } from './load.mjs'
import { projectRoot } from './paths.mjs'

export const PEERS_DIR = join(projectRoot, '.tmp', 'bench-peers')
const PEER_PACKAGES = { prism: '@stoplight/prism-cli', mockoon: '@mockoon/cli' }
const BINARIES = { prism: 'prism', mockoon: 'mockoon-cli' }

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runPeers(config, fixtures, workDir, log) {
  const dir = join(workDir, 'peers')
  mkdirSync(dir, { recursive: true })
  const validate = ENDPOINTS.find((endpoint) => endpoint.name === 'validate')
  const spec = await validate.prepare(null, fixtures)
  const installed = installPeers(log)
  const result = { emulator: null, prism: null, mockoon: null }

  const emu = await startEmulator({ databasePath: join(dir, 'emulator.db') })
  let openApiFile = null
  let answer = null
  try {
    await emu.control('PUT', '/state', fixtures.document)
    answer = (await preflight(emu.baseUrl, spec)).body
    openApiFile = join(dir, 'openapi.json')
    writeFileSync(openApiFile, await (await fetch(`${emu.baseUrl}/openapi.json`)).text())
    result.emulator = await measure(emu.baseUrl, spec, config, emu.pid)
    log(`  emulator validate: ${result.emulator.rps} req/s, p99 ${result.emulator.p99} ms`)
  } catch (error) {
    throw new Error(`peers (emulator): ${error.message}\nserver stderr:\n${emu.stderr()}`)
  } finally {
    await emu.stop()
  }

  for (const peer of ['prism', 'mockoon']) {
    if (installed[peer] !== true) {
      result[peer] = { skipped: installed[peer] }
      log(`  ${peer}: not measured: ${installed[peer]}`)
      continue
    }
    const port = await freePort()
    const args =
      peer === 'prism'
        ? ['mock', openApiFile, '--host', '127.0.0.1', '--port', String(port)]
        : [
            'start',
            '--data',
            mockoonEnvironment(dir, spec.path, answer),
            '--port',
            String(port),
            '--hostname',
            '127.0.0.1',
            '--repair',
            '--disable-log-to-file'
          ]
    const server = startPeer(peer, args)
    try {
      const baseUrl = `http://127.0.0.1:${port}`
      await waitUntilAnswering(baseUrl, spec, server)
      result[peer] = await measure(baseUrl, spec, config, server.child.pid)
      log(`  ${peer}: ${result[peer].rps} req/s, p99 ${result[peer].p99} ms (${result[peer].non2xx} not 2xx)`)
    } catch (error) {
      result[peer] = { skipped: `could not be measured: ${error.message.split('\n')[0]}` }
      log(`  ${peer}: not measured: ${error.message}\n${server.output().slice(-2000)}`)
    } finally {
      await server.stop()
    }
  }
  return result
}

/** Installs the peers into PEERS_DIR unless there already; answers true or why not, per peer. */
function installPeers(log) {
  const missing = Object.keys(PEER_PACKAGES).filter((peer) => !existsSync(binaryOf(peer)))
  if (missing.length) {
    mkdirSync(PEERS_DIR, { recursive: true })
    if (!existsSync(join(PEERS_DIR, 'package.json')))
      writeFileSync(join(PEERS_DIR, 'package.json'), '{ "name": "bench-peers", "private": true }\n')
    log(`  installing ${missing.map((peer) => PEER_PACKAGES[peer]).join(' and ')} into ${PEERS_DIR}`)
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', PEERS_DIR, '--no-audit', '--no-fund', ...missing.map((peer) => PEER_PACKAGES[peer])],
      { encoding: 'utf8', timeout: 600_000 }
    )
    if (npm.status !== 0) log(`  npm install failed: ${(npm.stderr || npm.error?.message || '').trim().slice(-1000)}`)
  }
  return Object.fromEntries(
    Object.keys(PEER_PACKAGES).map((peer) => [
      peer,
      existsSync(binaryOf(peer)) ? true : `${PEER_PACKAGES[peer]} could not be installed into .tmp/bench-peers`
    ])
  )
}

const binaryOf = (peer) => join(PEERS_DIR, 'node_modules', '.bin', BINARIES[peer])

/** The same load as the throughput runs (warmAndMeasure), the figures the peers line reports. */
async function measure(baseUrl, spec, config, pid) {
  const run = await warmAndMeasure(baseUrl, spec, config, pid)
  return {
    rps: run.rps,
    p50: run.p50,
    p99: run.p99,
    requests: run.requests,
    non2xx: run.non2xx,
    errors: run.errors,
    server: run.server,
    single: { perCallMs: run.single.perCallMs, cpuUsPerRequest: run.single.cpuUsPerRequest }
  }
}

/** A Mockoon environment with one route answering `answer` (the emulator's own validate answer) to POST `path`. */
function mockoonEnvironment(dir, path, answer) {
  const routeId = randomUUID()
  const environment = {
    uuid: randomUUID(),
    lastMigration: 32,
    name: 'bench validate',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '127.0.0.1',
    folders: [],
    routes: [
      {
        uuid: routeId,
        type: 'http',
        documentation: '',
        method: 'post',
        endpoint: path.replace(/^\//, ''),
        responses: [
          {
            uuid: randomUUID(),
            body: JSON.stringify(answer),
            latency: 0,
            statusCode: 200,
            label: '',
            headers: [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
            bodyType: 'INLINE',
            filePath: '',
            databucketID: '',
            sendFileAsBody: false,
            rules: [],
            rulesOperator: 'OR',
            disableTemplating: true,
            fallbackTo404: false,
            default: true,
            crudKey: 'id',
            callbacks: []
          }
        ],
        responseMode: null,
        streamingMode: null,
        streamingInterval: 0
      }
    ],
    rootChildren: [{ type: 'route', uuid: routeId }],
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: { enabled: false, type: 'CERT', pfxPath: '', certPath: '', keyPath: '', caPath: '', passphrase: '' },
    cors: false,
    headers: [],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data: [],
    callbacks: []
  }
  const file = join(dir, 'mockoon-environment.json')
  writeFileSync(file, JSON.stringify(environment, null, 2))
  return file
}

function startPeer(peer, args) {
  const child = spawn(binaryOf(peer), args, { cwd: PEERS_DIR, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000)
  }
  child.stdout.setEncoding('utf8').on('data', keep)
  child.stderr.setEncoding('utf8').on('data', keep)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  return {
    child,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
  }
}

/** Polls the peer with the first validate request until it answers 2xx (Prism takes seconds to start). */
async function waitUntilAnswering(baseUrl, spec, server, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    if (server.exited()) throw new Error(`exited before answering: ${server.output().slice(-500)}`)
    try {
      await preflight(baseUrl, spec)
      return
    } catch (error) {
      last = error.message
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no 2xx answer within ${timeoutMs / 1000} s: ${last}`)
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}
