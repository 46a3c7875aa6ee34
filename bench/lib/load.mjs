// One autocannon run, in this (the bench's) process, against a server in another process.
import autocannon from 'autocannon'
import { sampleRss, mib } from './rss.mjs'

/**
 * What a run sends. `next` (optional) gives each request its own body: autocannon's
 * setupRequest hook calls it before every request.
 * @typedef {object} LoadSpec
 * @property {'GET' | 'POST'} method
 * @property {string} path
 * @property {Record<string, string>} [headers]
 * @property {unknown} [body]              a fixed JSON body
 * @property {() => unknown} [next]        a fresh JSON body per request
 * @property {number} [expectStatus]       every answer must have it (default 200)
 */

/**
 * @typedef {object} LoadResult
 * @property {number} rps         mean requests per second (2xx and non-2xx alike, as autocannon counts)
 * @property {number} p50         latency in ms (2xx answers only: autocannon records those)
 * @property {number} p99
 * @property {number} mean
 * @property {number} max
 * @property {number} requests    answers received
 * @property {number} non2xx
 * @property {number} unexpected  answers whose status was not expectStatus
 * @property {number} errors      connection errors and timeouts
 * @property {number} durationS
 * @property {{ maxSampledMiB: number | null, kernelPeakMiB: number | null } | null} rss
 */

/**
 * A throughput run as the bench reports it. First `warmupS` at ONE connection: it lets V8
 * optimise the hot path, and its latency is the service time (no queueing). A warm-up at 50
 * connections would instead leave up to 50 slow requests queued in the server, and the measured
 * run would start behind them. Then `durationS` at `connections`, measured, with the server's RSS
 * sampled.
 * @param {string} baseUrl
 * @param {LoadSpec} spec
 * @param {{ connections: number, durationS: number, warmupS: number }} config
 * @param {number} pid  the server process
 * @returns {Promise<LoadResult & { single: { rps: number, p50: number, p99: number, mean: number, requests: number, non2xx: number, errors: number }, window: { startedAt: number, endedAt: number } }>}
 *   `window`: performance.now() in the bench around both parts (to cut a CPU profile to the load)
 */
export async function warmAndMeasure(baseUrl, spec, config, pid) {
  const startedAt = performance.now()
  const single = await runLoad(baseUrl, spec, { connections: 1, durationS: config.warmupS })
  const measured = await runLoad(baseUrl, spec, { connections: config.connections, durationS: config.durationS, pid })
  return {
    ...measured,
    single: { rps: single.rps, p50: single.p50, p99: single.p99, mean: single.mean, requests: single.requests, non2xx: single.non2xx, errors: single.errors },
    window: { startedAt, endedAt: performance.now() }
  }
}

/**
 * @param {string} baseUrl
 * @param {LoadSpec} spec
 * @param {{ connections: number, durationS?: number, amount?: number, pid?: number }} how
 *   durationS for throughput runs; amount (a request count) only for the memory-growth check.
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(baseUrl, spec, how) {
  const expectStatus = spec.expectStatus ?? 200
  let unexpected = 0
  let firstUnexpected = null
  const headers = { ...(spec.body !== undefined || spec.next ? { 'content-type': 'application/json' } : {}), ...spec.headers }
  const request = {
    method: spec.method,
    path: spec.path,
    headers,
    ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
    ...(spec.next
      ? {
          setupRequest: (req) => {
            req.body = JSON.stringify(spec.next())
            return req
          }
        }
      : {}),
    onResponse: (status, body) => {
      if (status !== expectStatus) {
        unexpected += 1
        firstUnexpected ??= `${status} ${String(body).slice(0, 300)}`
      }
    }
  }
  const sampler = how.pid ? sampleRss(how.pid) : null
  const result = await autocannon({
    url: baseUrl,
    connections: how.connections,
    ...(how.amount ? { amount: how.amount } : { duration: how.durationS }),
    requests: [request],
    // Defaults would stop waiting at 10 s; a stalled server should show as a huge p99, not vanish.
    timeout: 30
  })
  const rss = sampler ? sampler.stop() : null
  if (firstUnexpected) process.stderr.write(`  ! ${unexpected} answers were not ${expectStatus}; first: ${firstUnexpected}\n`)
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: Math.round(result.latency.average * 100) / 100,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    unexpected,
    errors: result.errors + result.timeouts,
    durationS: result.duration,
    rss: rss ? { maxSampledMiB: mib(rss.maxSampled), kernelPeakMiB: mib(rss.kernelPeak) } : null
  }
}
