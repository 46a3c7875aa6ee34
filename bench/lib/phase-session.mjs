// A test suite's view: a plugin's CI session replayed on one connection, one call at a time
// (verify, activate a new instance, 200 validates of it, deactivate it, the customer's library),
// against the emulator and against the limit server's equivalent handlers (bench/limit-server.mjs),
// each in its own process over a fresh database, by a client in a process of its own
// (generators/session-child.mjs), the two alternated session by session. Reports each one's
// median session wall time and their ratio.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { startEmulator } from './emulator.mjs'
import { pluginHeaders } from './endpoints.mjs'
import { runMeasured } from './generators/measured-process.mjs'
import { runTag } from './generators/request-spec.mjs'
import { limitScript, projectRoot } from './paths.mjs'
import { startServerProcess } from './server-process.mjs'

const sessionChild = fileURLToPath(new URL('./generators/session-child.mjs', import.meta.url))

/** Validates in one session: a plugin's test suite checking its license again and again. */
export const SESSION_VALIDATES = 200

/**
 * The session's steps, as both servers take them.
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} libraryToken  a library token of the 10-item customer (the limit only checks it is there)
 */
export function sessionSteps(fixtures, libraryToken) {
  const headers = pluginHeaders(fixtures.plugin)
  const license = { license_key: fixtures.activateKeys[0], instance_id: 'ci-instance-{n}' }
  return [
    { method: 'POST', path: '/api/plugin-connections/verify', body: JSON.stringify(fixtures.plugin) },
    {
      method: 'POST',
      path: '/api/license/v1/activate',
      headers,
      expectStatus: 201,
      body: JSON.stringify({ ...license, platform: 'linux', app_version: '1.0.0' })
    },
    {
      method: 'POST',
      path: '/api/license/v1/validate',
      headers,
      times: SESSION_VALIDATES,
      body: JSON.stringify(license)
    },
    { method: 'POST', path: '/api/license/v1/deactivate', headers, body: JSON.stringify(license) },
    { method: 'GET', path: '/api/library', headers: { authorization: `Bearer ${libraryToken}` } }
  ]
}

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runSession(config, fixtures, workDir, log) {
  const dir = mkdtempSync(join(workDir, 'session-'))
  const sessions = config.mode === 'quick' ? 3 : 7
  const fixturesFile = join(dir, 'limit-fixtures.json')
  writeFileSync(
    fixturesFile,
    JSON.stringify({
      plugin: fixtures.plugin,
      validateLicenses: fixtures.validateLicenses,
      activateKeys: fixtures.activateKeys
    })
  )
  // Both servers run at once (the idle one costs nothing) and their sessions alternate, so a
  // neighbour's burst on this shared machine falls on both alike.
  const emu = await startEmulator({ databasePath: join(dir, 'emulator.db') })
  let limitServer = null
  try {
    await emu.control('PUT', '/state', fixtures.document)
    const issued = await emu.control('POST', `/customers/${fixtures.libraryCustomerIds[10]}/library-token`)
    limitServer = await startServerProcess({
      script: limitScript,
      args: ['--port', '0', '--db', join(dir, 'limit.db'), '--fixtures', fixturesFile],
      cwd: projectRoot
    })
    const servers = {
      emulator: { baseUrl: emu.baseUrl, steps: sessionSteps(fixtures, issued.libraryToken), ms: [], failures: 0 },
      limit: { baseUrl: limitServer.baseUrl, steps: sessionSteps(fixtures, 'limit-library-token'), ms: [], failures: 0 }
    }
    for (let n = 0; n < sessions; n++) {
      for (const [name, server] of Object.entries(servers)) {
        try {
          // The first session of each server warms it up (V8), unmeasured.
          const run = await replay(server.baseUrl, server.steps, n === 0 ? 1 : 0, dir)
          server.ms.push(...run.sessionsMs)
          server.failures += run.failures
        } catch (error) {
          const stderr = name === 'emulator' ? emu.stderr() : limitServer.stderr()
          throw new Error(`session (${name}): ${error.message}\nserver stderr:\n${stderr}`)
        }
      }
    }
    const summary = ({ ms, failures }) => ({ medianMs: median(ms), sessionsMs: ms, failures })
    const emulator = summary(servers.emulator)
    const limit = summary(servers.limit)
    const result = {
      calls: SESSION_VALIDATES + 4,
      sessions,
      emulator,
      limit,
      ratio: Math.round((emulator.medianMs / limit.medianMs) * 100) / 100
    }
    log(
      `  a CI session of ${result.calls} calls on one connection: emulator ${emulator.medianMs} ms, ` +
        `limit ${limit.medianMs} ms (${result.ratio} x; medians of ${sessions}, alternated)` +
        (emulator.failures + limit.failures ? `, ${emulator.failures + limit.failures} failed answers` : '')
    )
    return result
  } finally {
    await limitServer?.stop()
    await emu.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** One measured session in the child process, after `warmupSessions` unmeasured ones. */
async function replay(baseUrl, steps, warmupSessions, dir) {
  const planFile = join(dir, 'session-plan.json')
  writeFileSync(planFile, JSON.stringify({ baseUrl, steps, sessions: 1, warmupSessions }))
  const run = await runMeasured(process.execPath, [sessionChild, planFile, runTag()])
  const line = run.stdout.split('\n').find((l) => l.startsWith('SESSION_RESULT '))
  if (run.code !== 0 || !line) throw new Error(`the session client failed (exit ${run.code}): ${run.stderr.trim()}`)
  return JSON.parse(line.slice('SESSION_RESULT '.length))
}
