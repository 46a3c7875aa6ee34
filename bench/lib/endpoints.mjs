// The requests of each throughput run: what a plugin, the library UI or the developer portal
// sends. `prepare` runs against a seeded emulator (tokens are signed by that server's keys).
import { firstBody, UNIQUE_MARKER } from './generators/request-spec.mjs'

/**
 * @typedef {import('./load.mjs').LoadSpec} LoadSpec
 * @typedef {import('./fixtures.mjs').Fixtures} Fixtures
 * @typedef {object} Endpoint
 * @property {string} name        stable key in latest.json and the profile file name
 * @property {string} label       for the table
 * @property {number} [items]     library items in one answer (the report gives bytes per item)
 * @property {(emu: import('./emulator.mjs').Emulator, fixtures: Fixtures) => Promise<LoadSpec>} prepare
 */

/** The three product credential headers (docs/api.md section 5, default prefix svc). */
export function pluginHeaders(plugin) {
  return {
    'x-svc-app-id': plugin.appId,
    'x-svc-plugin-key': plugin.pluginKey,
    'x-svc-plugin-secret': plugin.pluginSecret
  }
}

/** @type {Endpoint[]} */
export const ENDPOINTS = [
  {
    name: 'validate',
    label: 'POST /api/license/v1/validate',
    async prepare(_emu, fixtures) {
      // Cycled in turn: the work spreads over rows with no random-number cost per request.
      return {
        method: 'POST',
        path: '/api/license/v1/validate',
        headers: pluginHeaders(fixtures.plugin),
        bodies: fixtures.validateLicenses.map((license) => ({
          license_key: license.key,
          instance_id: license.instanceId
        }))
      }
    }
  },
  {
    name: 'verify',
    label: 'POST /api/plugin-connections/verify',
    async prepare(_emu, fixtures) {
      return { method: 'POST', path: '/api/plugin-connections/verify', body: fixtures.plugin }
    }
  },
  {
    name: 'activate',
    label: 'POST /api/license/v1/activate (new instance)',
    async prepare(_emu, fixtures) {
      // Every request a new instance (the generator numbers UNIQUE_MARKER), spread over licenses
      // whose limit no run can reach: each answer is a 201 that wrote a new activation row.
      return {
        method: 'POST',
        path: '/api/license/v1/activate',
        headers: pluginHeaders(fixtures.plugin),
        expectStatus: 201,
        bodies: fixtures.activateKeys.map((key) => ({
          license_key: key,
          instance_id: `bench-instance-${UNIQUE_MARKER}`,
          platform: 'linux',
          app_version: '1.0.0'
        }))
      }
    }
  },
  ...[10, 1000].map((size) => ({
    name: `library-${size}`,
    items: size,
    label: `GET /api/library (${size.toLocaleString('en-US')} items)`,
    async prepare(emu, fixtures) {
      const issued = await emu.control('POST', `/customers/${fixtures.libraryCustomerIds[size]}/library-token`)
      return { method: 'GET', path: '/api/library', headers: { authorization: `Bearer ${issued.libraryToken}` } }
    }
  })),
  {
    name: 'plugin-keys-1000',
    label: 'GET /api/developer/plugin-keys/products (1,000 products)',
    async prepare(emu, fixtures) {
      const session = await emu.control('POST', `/developers/${fixtures.catalogDeveloperId}/session`, {})
      return {
        method: 'GET',
        path: '/api/developer/plugin-keys/products',
        headers: { authorization: `Bearer ${session.token}` }
      }
    }
  }
]

/**
 * One request exactly as the load sends it, checked before the load: a run of error answers
 * would measure nothing. Answers the parsed body and its size in bytes.
 * @param {string} baseUrl
 * @param {LoadSpec} spec
 */
export async function preflight(baseUrl, spec) {
  const body = firstBody(spec)
  const response = await fetch(`${baseUrl}${spec.path}`, {
    method: spec.method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...spec.headers },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  const expected = spec.expectStatus ?? 200
  if (response.status !== expected)
    throw new Error(`${spec.method} ${spec.path}: expected ${expected}, got ${response.status}: ${text.slice(0, 400)}`)
  const parsed = JSON.parse(text)
  if (parsed.ok !== true || parsed.valid === false)
    throw new Error(`${spec.method} ${spec.path}: not a success: ${text.slice(0, 400)}`)
  return { body: parsed, bytes: Buffer.byteLength(text) }
}
