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
  if (unknown.length)
    throw new Error(`unknown endpoint ${unknown.join(', ')} (${ENDPOINTS.map((e) => e.name).join(', ')})`)
  for (const endpoint of ENDPOINTS.filter((e) => !config.endpoints || config.endpoints.has(e.name))) {
    const emu = await startEmulator({
      databasePath: join(workDir, `${endpoint.name}.db`),
      profileName: config.profile ? endpoint.name : null
    })
    try {
      await emu.control('PUT', '/state', fixtures.document)
      const spec = await endpoint.prepare(emu, fixtures)
      const idBefore = await newestRequestId(emu)
      const { bytes } = await preflight(emu.baseUrl, spec)
      const measured = await warmAndMeasure(emu.baseUrl, spec, config, emu.pid)
      const result = {
        ...measured,
        bytes,
        ...(endpoint.items ? { bytesPerItem: Math.round(bytes / endpoint.items) } : {}),
        inspector: inspectorCount((await newestRequestId(emu)) - idBefore, measured, config)
      }
      log(
        `  ${endpoint.name}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms ` +
          `(1 connection: ${result.single.perCallMs} ms a call, ${result.single.cpuUsPerRequest} us CPU)${result.unexpected ? `, ${result.unexpected} unexpected answers` : ''}; ` +
          `inspector recorded ${result.inspector.recorded} of ${result.inspector.answered} answered`
      )
      results.push({
        name: endpoint.name,
        label: endpoint.label,
        ...result,
        profile: config.profile ? profileRef(endpoint.name, emu, result) : null
      })
    } catch (error) {
      throw new Error(`${endpoint.name}: ${error.message}\nserver stderr:\n${emu.stderr()}`)
    } finally {
      await emu.stop()
    }
  }
  return results
}

/**
 * The newest request log id. Ids are AUTOINCREMENT, so the difference across a run counts every
 * entry written, even those the bounded ring has already dropped again. Reading the list flushes
 * the log's queue first, so every finished request is counted.
 */
async function newestRequestId(emu) {
  const page = await emu.control('GET', '/requests?limit=1')
  return page.requests[0]?.id ?? 0
}

/**
 * What the inspector recorded against what the load had answered (the preflight, the one-connection
 * warm-up, the measured one-connection run and the measured run). A request still in flight when autocannon stopped is recorded
 * but not counted as answered, so up to one per connection (50, and the warm-up's one) more is
 * expected; fewer is a loss.
 */
export function inspectorCount(recorded, measured, config) {
  const warmup = measured.warmup ?? { requests: 0, errors: 0 }
  const answered = 1 + warmup.requests + measured.single.requests + measured.requests
  // A timed-out request may or may not have reached the server: it may add one entry, never lose one.
  const unsure =
    config.connections + 1 + (measured.warmup ? 1 : 0) + warmup.errors + measured.single.errors + measured.errors
  return { recorded, answered, complete: recorded >= answered && recorded <= answered + unsure }
}
