// The emulator under test: the built CLI `serve` in its own process, on loopback, over a
// database file the bench owns, plus a tiny control-plane client for seeding.
import { randomBytes } from 'node:crypto'

import { cliEntry, projectRoot } from './paths.mjs'
import { cpuProfArgs } from './profiling.mjs'
import { startServerProcess } from './server-process.mjs'

/**
 * @typedef {import('./server-process.mjs').ServerProcess & {
 *   adminToken: string,
 *   databasePath: string,
 *   control: (method: string, path: string, body?: unknown) => Promise<any>
 * }} Emulator
 */

/**
 * @param {object} options
 * @param {string} options.databasePath  a file the bench created the folder of (fresh or pre-seeded)
 * @param {string | null} [options.profileName]  when set, run under --cpu-prof into bench/profiles/<name>.cpuprofile
 * @param {string[]} [options.extraArgs]  more `serve` flags (the upstream phase's --upstream URL)
 * @returns {Promise<Emulator>}
 */
export async function startEmulator({ databasePath, profileName = null, extraArgs = [] }) {
  const adminToken = `bench-${randomBytes(12).toString('hex')}`
  const nodeArgs = profileName ? cpuProfArgs(profileName) : []
  const server = await startServerProcess({
    script: cliEntry,
    // --log-level error: the default (warn) is already quiet; this keeps the stderr pipe idle under load.
    args: [
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--db',
      databasePath,
      '--admin-token',
      adminToken,
      '--log-level',
      'error',
      ...extraArgs
    ],
    nodeArgs,
    cwd: projectRoot
  })
  const control = (method, path, body) => controlRequest(server.baseUrl, adminToken, method, path, body)
  return Object.assign(server, { adminToken, databasePath, control })
}

/** One control-plane call (docs/api.md section 6); throws with the answer on anything but 2xx. */
async function controlRequest(baseUrl, adminToken, method, path, body) {
  const response = await fetch(`${baseUrl}/_emulator${path}`, {
    method,
    headers: { 'x-emulator-token': adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} /_emulator${path} answered ${response.status}: ${text.slice(0, 500)}`)
  return JSON.parse(text)
}
