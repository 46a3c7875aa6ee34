// Memory: does the server's RSS keep growing with the number of requests served? The request
// inspector keeps a bounded ring (5,000 rows in SQLite, a bounded queue in memory), so after
// warm-up RSS should be flat. A fresh emulator serves validate requests (the hot path, which
// also writes the request log and touches rows) in fixed counts; RSS is read after each
// checkpoint, once the server has been idle long enough to flush its request-log batch.
import { join } from 'node:path'

import { startEmulator } from './emulator.mjs'
import { ENDPOINTS, preflight } from './endpoints.mjs'
import { runLoad } from './load.mjs'
import { mib, readRss } from './rss.mjs'

/** Growth allowed between the first and the last checkpoint: GC timing alone moves RSS a little. */
export const GROWTH_TOLERANCE = 0.1
const SETTLE_MS = 1000

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 */
export async function runMemory(config, fixtures, workDir, log) {
  const emu = await startEmulator({ databasePath: join(workDir, 'memory.db') })
  try {
    await emu.control('PUT', '/state', fixtures.document)
    const validate = ENDPOINTS.find((e) => e.name === 'validate')
    const spec = await validate.prepare(emu, fixtures)
    await preflight(emu.baseUrl, spec)
    const checkpoints = []
    let served = 0
    let peak = 0
    for (const target of config.memoryCheckpoints) {
      const run = await runLoad(emu.baseUrl, spec, {
        connections: config.connections,
        amount: target - served,
        pid: emu.pid
      })
      served = target
      peak = Math.max(peak, run.rss?.kernelPeakMiB ?? run.rss?.maxSampledMiB ?? 0)
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
      const rssMiB = mib(readRss(emu.pid).rss)
      checkpoints.push({ requests: served, rssMiB, unexpected: run.unexpected, errors: run.errors })
      log(`  after ${served.toLocaleString('en-US')} requests: RSS ${rssMiB} MiB`)
    }
    const first = checkpoints[0]
    const last = checkpoints[checkpoints.length - 1]
    const growthMiB = Math.round((last.rssMiB - first.rssMiB) * 10) / 10
    return {
      endpoint: 'validate',
      checkpoints,
      firstRequests: first.requests,
      lastRequests: last.requests,
      growthMiB,
      growthPct: Math.round((growthMiB / first.rssMiB) * 1000) / 10,
      tolerancePct: GROWTH_TOLERANCE * 100,
      peakMiB: peak
    }
  } catch (error) {
    throw new Error(`memory: ${error.message}\nserver stderr:\n${emu.stderr()}`)
  } finally {
    await emu.stop()
  }
}
