// One load run against a server in another process, by a load generator in a process of its own
// (bench/lib/generators): wrk by default, autocannon for runs of a fixed request count and for the
// generator check. The bench's own process only prepares the requests and reads the figures, so
// it takes no CPU from the servers while they are measured.
import { GENERATORS } from './config.mjs'
import { runAutocannon } from './generators/autocannon.mjs'
import { runWrk } from './generators/wrk.mjs'
import { cpuUsPerRequestByThread, readCpuSeconds, readThreadCpuSeconds } from './process-cpu.mjs'
import { mib, sampleRss } from './rss.mjs'

/** @typedef {import('./generators/request-spec.mjs').LoadSpec} LoadSpec */

/**
 * @typedef {object} LoadResult
 * @property {number} rps         mean requests per second
 * @property {number} p50         latency in ms
 * @property {number} p99
 * @property {number} mean
 * @property {number} max
 * @property {number} requests    answers received
 * @property {number} non2xx
 * @property {number} unexpected  answers whose status was not expectStatus
 * @property {number} errors      connection errors and timeouts
 * @property {number} durationS
 * @property {{ name: string, cpuS: number | null, machineShare: number | null }} generator
 *   which generator ran and the share of the machine's CPU it used (what the servers did not get)
 * @property {{ maxSampledMiB: number | null, kernelPeakMiB: number | null } | null} rss
 * @property {{ cpuS: number, cpuUsPerRequest: number | null, byThread: Record<string, number> | null } | null} server
 *   the server's own CPU time over the run (all threads) and per answered request: its cost per
 *   request, which a busy neighbour does not change as it changes req/s; byThread splits the
 *   microseconds a request by kind of thread (process-cpu.mjs THREAD_KINDS)
 */

/**
 * A throughput run as the bench reports it. First `warmupS` at ONE connection, unmeasured: it lets
 * V8 optimise the hot path; then WARMUP_RECONNECTS runs of a second, each on a new connection, so
 * what a new connection deoptimises is optimised again before anything is measured (warmupRuns).
 * A warm-up at 50 connections would instead leave up to 50 slow requests
 * queued in the server, and the measured run would start behind them. Then `singleS` at one
 * connection, measured (`single`): one call at a time, as a plugin's test suite or a CI job makes
 * them, whose mean time a call is the service time (no queueing). Then `durationS` at
 * `connections`, measured, with the server's RSS sampled.
 *
 * A call's mean time at one connection is the run's wall time over its answers (`perCallMs`):
 * wrk's own latency mean reads 2-4 times that at one connection (measured against bare Fastify:
 * 0.96 ms mean with 3,400 answers a second; a sequential client of its own read 0.23-0.26 ms a
 * call), so it is kept only as `mean`.
 * @param {string} baseUrl
 * @param {LoadSpec} spec
 * @param {{ connections: number, durationS: number, warmupS: number, singleS?: number, generator: string }} config
 * @param {number} pid  the server process
 * @returns {Promise<LoadResult & { warmup: { requests: number, errors: number }, single: { rps: number, p50: number, p99: number, mean: number, perCallMs: number | null, requests: number, non2xx: number, errors: number, cpuUsPerRequest: number | null, cpuByThread: Record<string, number> | null, window: { startedAt: number, endedAt: number } }, window: { startedAt: number, endedAt: number } }>}
 *   `window`: performance.now() in the bench around the three parts (to cut a CPU profile to the load);
 *   `single.window`: around the measured one-connection part alone
 */
export async function warmAndMeasure(baseUrl, spec, config, pid) {
  const startedAt = performance.now()
  const warmup = { requests: 0, errors: 0 }
  for (const durationS of warmupRuns(config.warmupS)) {
    const run = await runLoad(baseUrl, spec, { connections: 1, durationS, generator: config.generator })
    warmup.requests += run.requests
    warmup.errors += run.errors + run.non2xx
  }
  const singleStartedAt = performance.now()
  const single = await runLoad(baseUrl, spec, {
    connections: 1,
    durationS: config.singleS ?? config.warmupS,
    pid,
    generator: config.generator
  })
  const singleEndedAt = performance.now()
  const measured = await runLoad(baseUrl, spec, {
    connections: config.connections,
    durationS: config.durationS,
    pid,
    generator: config.generator
  })
  return {
    ...measured,
    warmup,
    single: {
      rps: single.rps,
      p50: single.p50,
      p99: single.p99,
      mean: single.mean,
      perCallMs: perCallMs(single),
      requests: single.requests,
      non2xx: single.non2xx,
      errors: single.errors,
      cpuUsPerRequest: single.server?.cpuUsPerRequest ?? null,
      cpuByThread: single.server?.byThread ?? null,
      window: { startedAt: singleStartedAt, endedAt: singleEndedAt }
    },
    window: { startedAt, endedAt: performance.now() }
  }
}

/** One-second warm-up runs after the first, each on a new connection (see warmupRuns). */
export const WARMUP_RECONNECTS = 4

/**
 * The warm-up's runs, in seconds: `warmupS` on one connection, then WARMUP_RECONNECTS of a second,
 * each on a connection of its own. V8 optimises the request path for the first connection's
 * objects; the next connection deoptimises about 35 of those functions at its first request
 * ("wrong map": Node's HTTP parser and streams, Fastify's routing, the emulator's authentication)
 * and recompiles them on V8's helper threads. Measured on validate after one warm-up connection:
 * about 150 optimisations in the measured 5 s, 60 us of helper CPU a call. The deopts fade over
 * the next connections (34, 3, 5, 9, then none in 8 more), so the one-connection figures are taken
 * once they have.
 * @param {number} warmupS
 * @returns {number[]}
 */
export function warmupRuns(warmupS) {
  return [warmupS, ...Array.from({ length: WARMUP_RECONNECTS }, () => 1)]
}

/** One connection's mean time a call: wall time over answers, in ms (three decimals), or null without answers. */
export function perCallMs(run) {
  return run.requests > 0 ? Math.round((run.durationS * 1e6) / run.requests) / 1000 : null
}

/**
 * @param {string} baseUrl
 * @param {LoadSpec} spec
 * @param {{ connections: number, durationS?: number, amount?: number, pid?: number, generator?: string }} how
 *   durationS for timed runs; amount (a request count: autocannon, whatever `generator` says)
 *   for the memory check and the UI phase's backlog.
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(baseUrl, spec, how) {
  const generator = how.amount ? 'autocannon' : (how.generator ?? 'wrk')
  if (!GENERATORS.includes(generator)) throw new Error(`unknown generator "${generator}" (${GENERATORS.join(', ')})`)
  const sampler = how.pid ? sampleRss(how.pid) : null
  const threadsBefore = how.pid ? readThreadCpuSeconds(how.pid) : null
  const cpuBefore = how.pid ? readCpuSeconds(how.pid) : null
  const result = generator === 'wrk' ? await runWrk(baseUrl, spec, how) : await runAutocannon(baseUrl, spec, how)
  const cpuAfter = how.pid ? readCpuSeconds(how.pid) : null
  const threadsAfter = how.pid ? readThreadCpuSeconds(how.pid) : null
  const rss = sampler ? sampler.stop() : null
  const cpuS = cpuBefore === null || cpuAfter === null ? null : Math.round((cpuAfter - cpuBefore) * 100) / 100
  return {
    ...result,
    rss: rss ? { maxSampledMiB: mib(rss.maxSampled), kernelPeakMiB: mib(rss.kernelPeak) } : null,
    server:
      cpuS === null
        ? null
        : {
            cpuS,
            cpuUsPerRequest: result.requests > 0 ? Math.round((cpuS * 1e6) / result.requests) : null,
            byThread: cpuUsPerRequestByThread(threadsBefore, threadsAfter, result.requests)
          }
  }
}
