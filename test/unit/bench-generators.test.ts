import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedMeasured from '../../bench/lib/generators/measured-process.mjs'
// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedSpec from '../../bench/lib/generators/request-spec.mjs'
// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedWrk from '../../bench/lib/generators/wrk.mjs'
// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedLoad from '../../bench/lib/load.mjs'

interface LoadSpec {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: unknown
  bodies?: unknown[]
  expectStatus?: number
}
interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  unexpected: number
  errors: number
  generator: { name: string; cpuS: number | null; machineShare: number | null }
}
const { prepareRequests, requestFileText, firstBody, UNIQUE_MARKER } = untypedSpec as {
  prepareRequests: (spec: LoadSpec) => {
    headers: Record<string, string>
    bodies: string[]
    unique: boolean
    expectStatus: number
  }
  requestFileText: (spec: LoadSpec) => string
  firstBody: (spec: LoadSpec, fill?: string) => unknown
  UNIQUE_MARKER: string
}
const { childCpuSeconds } = untypedMeasured as { childCpuSeconds: (stderr: string) => number | null }
const { hasWrk, parseWrkResult, toLoadResult } = untypedWrk as {
  hasWrk: () => boolean
  parseWrkResult: (stdout: string) => Record<string, number> | null
  toLoadResult: (result: Record<string, number>) => LoadResult
}
const { runLoad, warmAndMeasure, warmupRuns, WARMUP_RECONNECTS } = untypedLoad as {
  runLoad: (
    baseUrl: string,
    spec: LoadSpec,
    how: { connections: number; durationS?: number; amount?: number; generator?: string }
  ) => Promise<LoadResult>
  warmAndMeasure: (
    baseUrl: string,
    spec: LoadSpec,
    config: { connections: number; durationS: number; warmupS: number; singleS: number; generator: string },
    pid: number
  ) => Promise<LoadResult & { warmup: { requests: number; errors: number }; single: { requests: number } }>
  warmupRuns: (warmupS: number) => number[]
  WARMUP_RECONNECTS: number
}

describe('bench load generators: the prepared requests', () => {
  it('serialises every body once, adds the JSON content type and keeps the expected status', () => {
    const prepared = prepareRequests({
      method: 'POST',
      path: '/v',
      headers: { 'x-a': '1' },
      bodies: [{ k: 1 }, { k: 2 }],
      expectStatus: 201
    })
    expect(prepared).toEqual({
      method: 'POST',
      path: '/v',
      headers: { 'content-type': 'application/json', 'x-a': '1' },
      bodies: ['{"k":1}', '{"k":2}'],
      unique: false,
      expectStatus: 201
    })
  })

  it('marks bodies that need a number of their own, and refuses a list where only some do', () => {
    expect(prepareRequests({ method: 'POST', path: '/a', bodies: [{ id: `i-${UNIQUE_MARKER}` }] }).unique).toBe(true)
    expect(() =>
      prepareRequests({ method: 'POST', path: '/a', bodies: [{ id: `i-${UNIQUE_MARKER}` }, { id: 'fixed' }] })
    ).toThrow(/every body/)
    expect(() => prepareRequests({ method: 'POST', path: '/a', bodies: [] })).toThrow(/empty/)
  })

  it('fills the marker of the preflight body', () => {
    expect(firstBody({ method: 'POST', path: '/a', bodies: [{ id: `i-${UNIQUE_MARKER}` }] })).toEqual({
      id: 'i-preflight'
    })
    expect(firstBody({ method: 'GET', path: '/a' })).toBeUndefined()
  })

  it("writes wrk's request file one line a field, and refuses a header that would break a line", () => {
    expect(
      requestFileText({ method: 'POST', path: '/p', headers: { authorization: 'Bearer t' }, bodies: [{ a: 'x\ny' }] })
    ).toBe('M POST\nP /p\nH content-type: application/json\nH authorization: Bearer t\nB {"a":"x\\ny"}\n')
    expect(() => requestFileText({ method: 'GET', path: '/p', headers: { 'x-a': 'one\ntwo' } })).toThrow(/request file/)
  })
})

describe('bench load generators: reading their figures', () => {
  it("reads the generator's CPU seconds from the two lines bash's times prints", () => {
    expect(childCpuSeconds('warning\n0m0.010s 0m0.002s\n1m2.500s 0m0.250s\n')).toBeCloseTo(62.75, 5)
    expect(childCpuSeconds('wrk: no such file\n')).toBeNull()
  })

  it("turns wrk's microseconds into the report's milliseconds and counts status errors as unexpected", () => {
    const line =
      'WRK_RESULT {"requests":1000,"durationUs":2000000,"bytes":1,"connectErrors":1,"readErrors":2,"writeErrors":0,"statusErrors":3,"timeouts":4,"p50Us":1234,"p99Us":56789,"meanUs":2000.5,"maxUs":90000}'
    const parsed = parseWrkResult(`Running 2s test\n${line}\n`)
    expect(parsed).not.toBeNull()
    expect(toLoadResult(parsed!)).toEqual({
      rps: 500,
      p50: 1.23,
      p99: 56.79,
      mean: 2,
      max: 90,
      requests: 1000,
      non2xx: 3,
      unexpected: 3,
      errors: 7,
      durationS: 2
    })
    expect(parseWrkResult('no result here')).toBeNull()
  })
})

// The generators for real: a plain HTTP server on loopback records every body it is sent.
describe('bench load generators: against a real server', () => {
  const received: string[] = []
  /** Requests answered on each connection, in the order the connections were opened. */
  const perConnection: number[] = []
  let server: Server
  let baseUrl: string

  beforeAll(async () => {
    server = createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { index?: number }
      socket.index ??= perConnection.push(0) - 1
      perConnection[socket.index] = (perConnection[socket.index] ?? 0) + 1
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        received.push(body)
        res.writeHead(req.headers['x-fail'] ? 403 : 200, { 'content-type': 'application/json' }).end('{"ok":true}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const bodies = [
    { license_key: 'A', instance_id: `i-${UNIQUE_MARKER}` },
    { license_key: 'B', instance_id: `i-${UNIQUE_MARKER}` }
  ]

  // Skipped where wrk is not installed (.ci/run installs it): the test drives the real generator.
  it.skipIf(!hasWrk())(
    'wrk (skipped where wrk is not installed; .ci/run installs it) cycles the bodies and numbers each marked one uniquely',
    async () => {
      received.length = 0
      const result = await runLoad(
        baseUrl,
        { method: 'POST', path: '/', bodies },
        { connections: 2, durationS: 1, generator: 'wrk' }
      )
      const parsed = received.map((body) => JSON.parse(body) as { license_key: string; instance_id: string })
      expect(result.generator.name).toBe('wrk')
      expect(result.requests).toBeGreaterThan(0)
      expect(received.length).toBeGreaterThanOrEqual(result.requests)
      expect(new Set(parsed.map((b) => b.license_key))).toEqual(new Set(['A', 'B']))
      expect(new Set(parsed.map((b) => b.instance_id)).size).toBe(parsed.length)
      expect(parsed.every((b) => /^i-[0-9a-f]{8}-\d+-\d+$/.test(b.instance_id))).toBe(true)
      expect(result.unexpected).toBe(0)
      expect(result.generator.cpuS).not.toBeNull()
    }
  )

  // Skipped where wrk is not installed (.ci/run installs it): the test drives the real generator.
  it.skipIf(!hasWrk())('wrk (skipped where wrk is not installed) counts error answers as unexpected', async () => {
    const result = await runLoad(
      baseUrl,
      { method: 'GET', path: '/', headers: { 'x-fail': '1' } },
      { connections: 1, durationS: 1, generator: 'wrk' }
    )
    expect(result.requests).toBeGreaterThan(0)
    expect(result.unexpected).toBe(result.requests)
  })

  it('warms up on a connection, then on WARMUP_RECONNECTS new ones, before the measured runs each open their own', async () => {
    perConnection.length = 0
    const result = await warmAndMeasure(
      baseUrl,
      { method: 'POST', path: '/', bodies },
      { connections: 2, durationS: 1, warmupS: 1, singleS: 1, generator: 'autocannon' },
      process.pid
    )
    expect(warmupRuns(3)).toEqual([3, ...Array.from({ length: WARMUP_RECONNECTS }, () => 1)])
    expect(WARMUP_RECONNECTS).toBeGreaterThan(1)
    // The warm-up's connections, the measured one-connection run's, then the loaded run's two.
    expect(perConnection).toHaveLength(WARMUP_RECONNECTS + 1 + 1 + 2)
    expect(perConnection.every((answered) => answered > 0)).toBe(true)
    const warmedUp = perConnection.slice(0, WARMUP_RECONNECTS + 1).reduce((sum, n) => sum + n, 0)
    // A request in flight when a run stopped may be answered after the generator stopped counting.
    expect(result.warmup.requests).toBeLessThanOrEqual(warmedUp)
    expect(result.warmup.requests).toBeGreaterThanOrEqual(warmedUp - (WARMUP_RECONNECTS + 1))
    expect(result.single.requests).toBeGreaterThan(0)
  }, 30_000)

  it('autocannon, in its own process, sends exactly a fixed count, numbering marked bodies apart across runs', async () => {
    received.length = 0
    const first = await runLoad(
      baseUrl,
      { method: 'POST', path: '/', bodies },
      { connections: 2, amount: 40, generator: 'wrk' }
    )
    const second = await runLoad(baseUrl, { method: 'POST', path: '/', bodies }, { connections: 2, amount: 40 })
    const ids = received.map((body) => (JSON.parse(body) as { instance_id: string }).instance_id)
    expect(first.generator.name).toBe('autocannon')
    expect([first.requests, second.requests]).toEqual([40, 40])
    expect(received).toHaveLength(80)
    expect(new Set(ids).size).toBe(80)
    expect(first.generator.cpuS).not.toBeNull()
  })
})
