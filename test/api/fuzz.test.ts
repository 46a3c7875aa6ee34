import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { ERROR_CODES } from '../../src/shared/contract/error-codes'
import { killAllCli, startServeCli } from '../support/cli-process'
import type { ServingCli } from '../support/cli-process'
import { sendRawBytes } from '../support/raw-http'

// A fuzz run against a real `serve` process: requests generated from /openapi.json (valid-ish and
// broken bodies, odd path and query values, every kind of credential), raw malformed HTTP, and
// mutated scenario imports. It fails on any 5xx, and on any error answer outside the contract's
// shape. The generator is seeded: a failure prints the seed and the request, and FUZZ_SEED=<n>
// replays it.
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000)
const GENERATED_REQUESTS = 5_000
const RAW_REQUESTS = 300
const MUTATED_IMPORTS = 150
const CONCURRENCY = 8
const ADMIN_TOKEN = 'fuzz-admin-token-0123456789'
const KNOWN_CODES = new Set<string>(ERROR_CODES)

const PLUGIN = {
  appId: 'app_DemoSynth0000000000001',
  pluginKey: 'pk_DemoSynthPresetKey000000000001',
  pluginSecret: 'sk_DemoSynthPresetSecret0000000000001'
}

/** mulberry32: a small seeded PRNG, so a run can be replayed exactly. */
function prng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  return { next, int, pick, chance: (p: number) => next() < p }
}
type Rng = ReturnType<typeof prng>

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  items?: JsonSchema
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  format?: string
  $ref?: string
}

interface Operation {
  method: string
  path: string
  params: { name: string; in: string; schema?: JsonSchema }[]
  body: JsonSchema | null
}

// Operations that would stop the run from testing anything after them (they are covered by
// their own tests): wiping state or settings, injecting faults that are 5xx by design, streams.
const SKIPPED = [
  /^\/_emulator\/(faults|settings|reset|state)/,
  /^\/_emulator\/requests\/stream/,
  /^\/_emulator\/events/,
  /^\/_emulator\/presets\//
]

const ODD_STRINGS = [
  '',
  ' ',
  '..',
  '%',
  '../../etc/passwd',
  'x'.repeat(300),
  'x'.repeat(5000),
  'ünïcödé ✓',
  '\u0000',
  '<script>',
  'null',
  '-1',
  '1e999',
  'DEMO1-PERPE-TUAL0-00000-00001',
  'MAGIC-VALID',
  'prod_demo_synth',
  'cus_demo',
  'dev_demo'
]

function valueFor(schema: JsonSchema | undefined, rng: Rng, depth = 0): unknown {
  if (!schema) return rng.pick(ODD_STRINGS)
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return rng.pick(schema.enum)
  if (schema.anyOf) return valueFor(rng.pick(schema.anyOf), rng, depth)
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type
  switch (type) {
    case 'string':
      if (schema.format === 'date-time')
        return rng.chance(0.8)
          ? new Date(Date.UTC(2020 + rng.int(15), rng.int(12), 1 + rng.int(28))).toISOString()
          : rng.pick(['2026-12-31', 'garbage'])
      return rng.chance(0.7) ? rng.pick(ODD_STRINGS.slice(10)) : `fuzz-${rng.int(1000)}`
    case 'integer':
    case 'number':
      return rng.pick([0, 1, 2, 30, 86400, schema.minimum ?? 0, schema.maximum ?? 100])
    case 'boolean':
      return rng.chance(0.5)
    case 'null':
      return null
    case 'array':
      return depth > 3 ? [] : Array.from({ length: rng.int(3) }, () => valueFor(schema.items, rng, depth + 1))
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(name) || rng.chance(0.5)) out[name] = valueFor(property, rng, depth + 1)
      }
      return out
    }
    default:
      return rng.pick(ODD_STRINGS)
  }
}

/** A body as a careless or hostile client sends it: valid-ish, then often broken. */
function bodyFor(operation: Operation, rng: Rng): string | undefined {
  if (!operation.body && rng.chance(0.8)) return undefined
  const value = valueFor(operation.body ?? { type: 'object' }, rng) as Record<string, unknown>
  const roll = rng.int(10)
  if (roll === 0) return '{"unterminated": '
  if (roll === 1) return JSON.stringify(`${'['.repeat(2000)}${']'.repeat(2000)}`).slice(1, -1)
  if (roll === 2) return 'null'
  if (roll === 3 && value && typeof value === 'object') {
    // A required field gone, a type swapped, an unknown field added.
    const keys = Object.keys(value)
    if (keys.length) delete value[rng.pick(keys)]
    value[rng.pick(['license_key', 'productId', 'unknownField', 'utm_source'])] = rng.pick([42, [], {}, null, true])
  }
  if (roll === 4) return JSON.stringify([value])
  return JSON.stringify(value)
}

function fillPath(path: string, rng: Rng): string {
  return path.replace(/\{([^}]+)\}/g, () => encodeURIComponent(rng.pick(ODD_STRINGS.filter((s) => s !== ''))))
}

function headersFor(rng: Rng, developerToken: string, libraryToken: string): Record<string, string> {
  switch (rng.int(6)) {
    case 0:
      return {
        'x-svc-app-id': PLUGIN.appId,
        'x-svc-plugin-key': PLUGIN.pluginKey,
        'x-svc-plugin-secret': PLUGIN.pluginSecret
      }
    case 1:
      return { authorization: `Bearer ${developerToken}` }
    case 2:
      return { authorization: `Bearer ${libraryToken}` }
    case 3:
      return { 'x-emulator-token': ADMIN_TOKEN }
    case 4:
      return {
        authorization: rng.pick([
          'Bearer',
          'Bearer eyJhbGciOiJub25lIn0.e30.',
          'Basic abc',
          `Bearer ${'a'.repeat(3000)}`
        ]),
        'x-svc-app-id': rng.pick(['app_', 'app_DemoSynth0000000000001', 'x'.repeat(5000), '..', '%00'])
      }
    default:
      return {}
  }
}

function contractProblem(status: number, contentType: string | null, text: string): string | null {
  if (status >= 500) return `answered ${status}`
  if (status < 400) return null
  if (!contentType?.startsWith('application/json')) return `a ${status} that is not JSON (${contentType})`
  let body: { ok?: unknown; error?: unknown; message?: unknown }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return `a ${status} whose body is not JSON`
  }
  if (body.ok !== false || typeof body.error !== 'string' || typeof body.message !== 'string')
    return `a ${status} outside the contract's shape`
  if (!KNOWN_CODES.has(body.error)) return `a ${status} with an undocumented code ${body.error}`
  return null
}

let serving: ServingCli
/**
 * FUZZ_UPSTREAM=1 (docs/upstream.md): the fuzzed serve forwards the service API to a second
 * serve, which holds the data; the control plane calls go to that second one.
 */
let platform: ServingCli | null = null
let operations: Operation[]
let developerToken = ''
let libraryToken = ''
let baseState: Record<string, any>

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${(platform ?? serving).baseUrl}/_emulator${path}`, {
    method,
    headers: { 'x-emulator-token': ADMIN_TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

beforeAll(async () => {
  const args = ['--port', '0', '--db', ':memory:', '--admin-token', ADMIN_TOKEN, '--log-level', 'error']
  if (process.env.FUZZ_UPSTREAM) platform = await startServeCli(args)
  serving = await startServeCli(platform ? [...args, '--upstream', platform.baseUrl] : args)
  expect((await control('POST', '/presets/full-library')).status).toBe(200)
  baseState = (await control('GET', '/state')).body.state
  developerToken = (await control('POST', '/developers/dev_demo/session', {})).body.token
  libraryToken = (await control('POST', '/customers/cus_demo/library-token')).body.libraryToken
  const document = (await (await fetch(`${serving.baseUrl}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        { parameters?: Operation['params']; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
      >
    >
  }
  operations = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      if (method === 'head' || SKIPPED.some((pattern) => pattern.test(path))) continue
      operations.push({
        method: method.toUpperCase(),
        path,
        params: spec.parameters ?? [],
        body: spec.requestBody?.content?.['application/json']?.schema ?? null
      })
    }
  }
}, 120_000)

afterAll(async () => {
  await killAllCli()
})

describe(`fuzz against a real serve (seed ${SEED}; replay with FUZZ_SEED=${SEED})`, () => {
  it(`answers ${GENERATED_REQUESTS} requests generated from /openapi.json below 500, every error in the contract's shape`, async () => {
    expect(operations.length).toBeGreaterThan(30)
    const rng = prng(SEED)
    const failures: string[] = []
    let sent = 0
    let started = 0
    const byClass: Record<number, number> = {}
    const one = async () => {
      const operation = rng.pick(operations)
      let path = fillPath(operation.path, rng)
      const query = operation.params
        .filter((p) => p.in === 'query' && rng.chance(0.5))
        .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(valueFor(p.schema, rng)))}`)
      if (rng.chance(0.2))
        query.push(`${rng.pick(['_', 'utm_source', 'token', 'x'])}=${encodeURIComponent(rng.pick(ODD_STRINGS))}`)
      if (query.length) path += `?${query.join('&')}`
      // fetch sends no body with GET; a DELETE sometimes gets one.
      const body =
        operation.method === 'GET' || (operation.method === 'DELETE' && rng.chance(0.9))
          ? undefined
          : bodyFor(operation, rng)
      const headers = {
        ...headersFor(rng, developerToken, libraryToken),
        ...(body !== undefined
          ? {
              'content-type': rng.chance(0.9)
                ? 'application/json'
                : rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'])
            }
          : {})
      }
      const response = await fetch(`${serving.baseUrl}${path}`, { method: operation.method, headers, body })
      const text = await response.text()
      sent += 1
      byClass[Math.floor(response.status / 100)] = (byClass[Math.floor(response.status / 100)] ?? 0) + 1
      const problem = contractProblem(response.status, response.headers.get('content-type'), text)
      if (problem)
        failures.push(
          `${operation.method} ${path.slice(0, 200)} (${operation.path}): ${problem}: ${text.slice(0, 200)}`
        )
    }
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (started < GENERATED_REQUESTS) {
        started += 1
        await one()
      }
    })
    await Promise.all(workers)
    expect(failures.slice(0, 20)).toEqual([])
    expect(sent).toBeGreaterThanOrEqual(GENERATED_REQUESTS)
    // The run reached the routes' logic, not only their refusals: both outcomes are common.
    expect(byClass[2] ?? 0).toBeGreaterThan(GENERATED_REQUESTS / 20)
    expect(byClass[4] ?? 0).toBeGreaterThan(GENERATED_REQUESTS / 5)
    process.stdout.write(`fuzz seed ${SEED}: ${JSON.stringify(byClass)} answers by status class\n`)
  }, 240_000)

  it(`answers ${RAW_REQUESTS} malformed raw HTTP requests in the contract's shape`, async () => {
    const rng = prng(SEED + 1)
    const failures: string[] = []
    const lines = [
      'GET /api/library HTTP/1.1',
      'POST /api/license/v1/validate HTTP/1.1',
      'get /api/library HTTP/1.1',
      'GET /api/li brary HTTP/1.1',
      'GET /api/librä HTTP/1.1',
      `GET /api/library?${'q'.repeat(20_000)} HTTP/1.1`,
      'GET /api/library HTTP/9.9',
      'BREW /coffee HTTP/1.1',
      'GET  HTTP/1.1'
    ]
    const headerSets = [
      'Host: 127.0.0.1\r\n',
      '',
      'Host: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n',
      'Host: 127.0.0.1\r\nContent-Length: abc\r\n',
      'Host: 127.0.0.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n',
      'Host: 127.0.0.1\r\nX-A: a\u0001b\r\n',
      `Host: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n`,
      'Host: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n',
      'Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5\r\n'
    ]
    for (let i = 0; i < RAW_REQUESTS; i++) {
      const request = `${rng.pick(lines)}\r\n${rng.pick(headerSets)}Connection: close\r\n\r\n${rng.pick(['', '{}', 'zz\r\n', '{"a":1}'])}`
      const answer = await sendRawBytes(serving.baseUrl, Buffer.from(request, 'utf8'))
      const problem =
        answer.status === 0 ? null : contractProblem(answer.status, answer.headers['content-type'] ?? null, answer.text)
      if (problem) failures.push(`${JSON.stringify(request.slice(0, 120))}: ${problem}: ${answer.text.slice(0, 200)}`)
    }
    expect(failures.slice(0, 20)).toEqual([])
  }, 120_000)

  it(`refuses or survives ${MUTATED_IMPORTS} mutated scenario imports, and the service keeps answering below 500`, async () => {
    const rng = prng(SEED + 2)
    const failures: string[] = []
    const sections = Object.keys(baseState).filter((key) => Array.isArray(baseState[key]) && baseState[key].length > 0)
    for (let i = 0; i < MUTATED_IMPORTS; i++) {
      const document = structuredClone(baseState)
      const rows = document[rng.pick(sections)] as Record<string, unknown>[]
      const row = rng.pick(rows)
      row[rng.pick(Object.keys(row))] = rng.pick<unknown>([
        '2026-12-31',
        'garbage',
        -1,
        1e15,
        1.5,
        null,
        '',
        {},
        [],
        true,
        'missing_ref',
        'x'.repeat(20_000)
      ])
      const imported = await control('PUT', '/state', document)
      if (imported.status !== 200 && imported.status !== 400) failures.push(`import answered ${imported.status}`)
      const validate = await fetch(`${serving.baseUrl}/api/license/v1/validate`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-svc-app-id': PLUGIN.appId,
          'x-svc-plugin-key': PLUGIN.pluginKey,
          'x-svc-plugin-secret': PLUGIN.pluginSecret
        },
        body: JSON.stringify({ license_key: 'DEMO1-PERPE-TUAL0-00000-00001', instance_id: 'fuzz' })
      })
      const library = await fetch(`${serving.baseUrl}/api/developer/plugin-keys/products`, {
        headers: { authorization: `Bearer ${developerToken}` }
      })
      for (const answer of [validate, library]) {
        const problem = contractProblem(answer.status, answer.headers.get('content-type'), await answer.text())
        if (problem) failures.push(`after mutation ${i}: ${problem}`)
      }
      if (imported.status === 200) await control('PUT', '/state', baseState)
    }
    expect(failures.slice(0, 20)).toEqual([])
  }, 120_000)
})
