// What forwarding costs (docs/upstream.md): a validate through an emulator that forwards it to a
// second emulator (the "real platform"), against the same validate sent to that second emulator
// directly. Both are the built `serve`, each in its own process over its own database; the
// platform holds the fixtures, the proxy holds nothing.
import { join } from 'node:path'

import { startEmulator } from './emulator.mjs'
import { ENDPOINTS, preflight } from './endpoints.mjs'
import { warmAndMeasure } from './load.mjs'

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runUpstream(config, fixtures, workDir, log) {
  const validate = ENDPOINTS.find((endpoint) => endpoint.name === 'validate')
  const platform = await startEmulator({ databasePath: join(workDir, 'upstream-platform.db') })
  let proxy = null
  try {
    await platform.control('PUT', '/state', fixtures.document)
    const spec = await validate.prepare(platform, fixtures)
    await preflight(platform.baseUrl, spec)
    const direct = await warmAndMeasure(platform.baseUrl, spec, config, platform.pid)
    proxy = await startEmulator({
      databasePath: join(workDir, 'upstream-proxy.db'),
      extraArgs: ['--upstream', platform.baseUrl]
    })
    await preflight(proxy.baseUrl, spec)
    const forwarded = await warmAndMeasure(proxy.baseUrl, spec, config, proxy.pid)
    const summary = (run) => ({
      rps: run.rps,
      p50: run.p50,
      p99: run.p99,
      non2xx: run.non2xx,
      errors: run.errors,
      single: { mean: run.single.mean, perCallMs: run.single.perCallMs }
    })
    const result = {
      direct: summary(direct),
      forwarded: summary(forwarded),
      rpsRatio: Math.round((forwarded.rps / direct.rps) * 100) / 100,
      p99Ratio: Math.round((forwarded.p99 / direct.p99) * 100) / 100
    }
    log(
      `  validate direct: ${direct.rps} req/s, p99 ${direct.p99} ms; through the proxy: ${forwarded.rps} req/s, ` +
        `p99 ${forwarded.p99} ms (${result.rpsRatio} x the req/s, ${result.p99Ratio} x the p99; ` +
        `1 connection: ${direct.single.perCallMs} ms a call against ${forwarded.single.perCallMs} ms)`
    )
    return result
  } catch (error) {
    throw new Error(
      `upstream: ${error.message}\nplatform stderr:\n${platform.stderr()}\nproxy stderr:\n${proxy?.stderr() ?? ''}`
    )
  } finally {
    await proxy?.stop()
    await platform.stop()
  }
}
