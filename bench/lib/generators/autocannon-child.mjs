// autocannon in a process of its own (started by autocannon.mjs): the load generator then never
// shares the bench's event loop. Reads its run from the JSON file named by its argument and prints
// one AUTOCANNON_RESULT line of JSON.
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

import { UNIQUE_MARKER } from './request-spec.mjs'

const run = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const { prepared } = run
let unexpected = 0
let firstUnexpected = null
let sent = 0
const onResponse = (status, body) => {
  if (status === prepared.expectStatus) return
  unexpected += 1
  firstUnexpected ??= `${status} ${String(body).slice(0, 300)}`
}
const base = { method: prepared.method, path: prepared.path, headers: prepared.headers, onResponse }
// Bodies are serialised already; a marked one only has its number put in.
const requests = prepared.bodies.length
  ? prepared.bodies.map((body) =>
      prepared.unique
        ? { ...base, setupRequest: (req) => ({ ...req, body: body.replace(UNIQUE_MARKER, `${run.tag}-${++sent}`) }) }
        : { ...base, body }
    )
  : [base]
const result = await autocannon({
  url: run.baseUrl,
  connections: run.connections,
  ...(run.amount ? { amount: run.amount } : { duration: run.durationS }),
  requests,
  // Defaults would stop waiting at 10 s; a stalled server should show as a huge p99, not vanish.
  timeout: 30
})
process.stdout.write(
  `AUTOCANNON_RESULT ${JSON.stringify({
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: Math.round(result.latency.average * 100) / 100,
    max: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    unexpected,
    firstUnexpected,
    errors: result.errors + result.timeouts,
    durationS: result.duration
  })}\n`
)
