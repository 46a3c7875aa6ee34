// Throughput and latency of each endpoint. Each run gets its own emulator process over its own
// fresh database (seeded with the same fixtures), so runs do not inherit each other's rows
// (activate's new activations, verify's audit trail) and, under --profile, each profile holds
// one endpoint's work only.
import { join } from 'node:path'
import { startEmulator } from './emulator.mjs'
import { ENDPOINTS, preflight } from './endpoints.mjs'
import { warmAndMeasure } from './load.mjs'
import { profileRef } from './profiling.mjs'

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runThroughput(config, fixtures, workDir, log) {
  const results = []
  const unknown = [...(config.endpoints ?? [])].filter((name) => !ENDPOINTS.some((e) => e.name === name))
  if (unknown.length) throw new Error(`unknown endpoint ${unknown.join(', ')} (${ENDPOINTS.map((e) => e.name).join(', ')})`)
  for (const endpoint of ENDPOINTS.filter((e) => !config.endpoints || config.endpoints.has(e.name))) {
    const emu = await startEmulator({ databasePath: join(workDir, `${endpoint.name}.db`), profileName: config.profile ? endpoint.name : null })
    try {
      await emu.control('PUT', '/state', fixtures.document)
      const spec = await endpoint.prepare(emu, fixtures)
      await preflight(emu.baseUrl, spec)
      const result = await warmAndMeasure(emu.baseUrl, spec, config, emu.pid)
      log(
        `  ${endpoint.name}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms ` +
          `(1 connection: mean ${result.single.mean} ms, ${result.single.rps} req/s)${result.unexpected ? `, ${result.unexpected} unexpected answers` : ''}`
      )
      results.push({ name: endpoint.name, label: endpoint.label, ...result, profile: config.profile ? profileRef(endpoint.name, emu, result) : null })
    } catch (error) {
      throw new Error(`${endpoint.name}: ${error.message}\nserver stderr:\n${emu.stderr()}`)
    } finally {
      await emu.stop()
    }
  }
  return results
}
