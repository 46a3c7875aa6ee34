// A test suite's view: a plugin's CI session replayed on one connection, one call at a time
// (verify, activate a new instance, 200 validates of it, deactivate it, the customer's library),
// against the emulator and against the limit server's equivalent handlers (bench/limit-server.mjs),
// each in its own process over a fresh database, by a client in a process of its own
// (generators/session-child.mjs). Reports each one's median session wall time and their ratio.
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
  try {
    const emu = await startEmulator({ databasePath: join(dir, 'emulator.db') })
    let emulator
    try {
      await emu.control('PUT', '/state', fixtures.document)
      const issued = await emu.control('POST', `/customers/${fixtures.libraryCustomerIds[10]}/library-token`)
      emulator = await replay(emu.baseUrl, sessionSteps(fixtures, issued.libraryToken), sessions, dir)
    } catch (error) {
      throw new Error(`session (emulator): ${error.message}\nserver stderr:\n${emu.stderr()}`)
    } finally {
      await emu.stop()
    }
    const fixturesFile = join(dir, 'limit-fixtures.json')
    writeFileSync(
      fixturesFile,
      JSON.stringify({
        plugin: fixtures.plugin,
        validateLicenses: fixtures.validateLicenses,
        activateKeys: fixtures.activateKeys
      })
    )
    const limitServer = await startServerProcess({
      script: limitScript,
      args: ['--port', '0', '--db', join(dir, 'limit.db'), '--fixtures', fixturesFile],
      cwd: projectRoot
    })
    let limit
    try {
      limit = await replay(limitServer.baseUrl, sessionSteps(fixtures, 'limit-library-token'), sessions, dir)
    } catch (error) {
      throw new Error(`session (limit): ${error.message}\nserver stderr:\n${limitServer.stderr()}`)
    } finally {
      await limitServer.stop()
    }
    const result = {
      calls: SESSION_VALIDATES + 4,
      sessions,
      emulator,
      limit,
      ratio: Math.round((emulator.medianMs / limit.medianMs) * 100) / 100
    }
    log(
      `  a CI session of ${result.calls} calls on one connection: emulator ${emulator.medianMs} ms, ` +
        `limit ${limit.medianMs} ms (${result.ratio} x; medians of ${sessions})` +
        (emulator.failures + limit.failures ? `, ${emulator.failures + limit.failures} failed answers` : '')
    )
    return result
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the sessions in the child process: one warm-up session, then `sessions` measured. */
async function replay(baseUrl, steps, sessions, dir) {
  const planFile = join(dir, 'session-plan.json')
  writeFileSync(planFile, JSON.stringify({ baseUrl, steps, sessions, warmupSessions: 1 }))
  const run = await runMeasured(process.execPath, [sessionChild, planFile, runTag()])
  const line = run.stdout.split('\n').find((l) => l.startsWith('SESSION_RESULT '))
  if (run.code !== 0 || !line) throw new Error(`the session client failed (exit ${run.code}): ${run.stderr.trim()}`)
  const { sessionsMs, failures } = JSON.parse(line.slice('SESSION_RESULT '.length))
  const sorted = [...sessionsMs].sort((a, b) => a - b)
  return { medianMs: sorted[Math.floor(sorted.length / 2)], sessionsMs, failures }
}
