import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import type { CryptoKey, JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { documentedContract } from '../../src/core/drift/documented-operations'
import type { DocumentedContract } from '../../src/core/drift/documented-operations'
import { driftMarkdown } from '../../src/core/drift/drift-markdown'
import { createDriftLog } from '../../src/core/drift/drift-report'
import { checkExchange } from '../../src/core/drift/exchange-check'
import { upstreamKeys } from '../../src/core/drift/upstream-keys'
import type { UpstreamKeyLookup } from '../../src/core/drift/upstream-keys'
import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { buildServer } from '../../src/server/build-server'
import { makeTempDir } from '../support/temp-dir'

// The checker over crafted exchanges, held to the document the real server generates (the
// same /openapi.json a client reads): one exchange per finding kind, each found exactly once.

const APP_ID = 'app_drift_unit_0001'
const NONCE = 'nonce-4c1d'
// Shaped like no known secret: only the request's own value, hidden wherever it turns up, keeps it out.
const SECRET = `canarysecret${randomBytes(8).toString('hex')}`
const PLUGIN_KEY = `pk_${'K'.repeat(8)}canarykey${randomBytes(6).toString('hex')}`

let contract: DocumentedContract
let signingKey: CryptoKey
let publicJwk: JWK
let keyFor: UpstreamKeyLookup
const dir = makeTempDir('drift-unit')

beforeAll(async () => {
  const app = await buildServer({
    databasePath: join(dir.path, 'emulator.db'),
    runtimeKey: randomBytes(32),
    adminToken: randomBytes(16).toString('hex')
  })
  contract = documentedContract(await app.openApiDocument())
  await app.close()
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  signingKey = pair.privateKey
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'upstream-1', alg: 'EdDSA', use: 'sig' }
  keyFor = upstreamKeys(async () => ({ keys: [publicJwk] }))
}, 60_000)

afterAll(() => dir.remove())

interface TokenOptions {
  aud?: string
  nonce?: string | null
  typ?: string
  iat?: number
  exp?: number
  kid?: string
  key?: CryptoKey
}

async function licenseToken(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const claims: Record<string, unknown> = { product_id: 'prd_1' }
  if (options.nonce !== null) claims.nonce = options.nonce ?? NONCE
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? 'upstream-1', typ: options.typ ?? 'license+jwt' })
    .setAudience(options.aud ?? APP_ID)
    .setSubject('lic_1')
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 3600)
    .sign(options.key ?? signingKey)
}

function validateBody(overrides: Record<string, unknown> = {}, license: Record<string, unknown> = {}) {
  return {
    ok: true,
    valid: true,
    code: 'VALID',
    message: 'The license is valid.',
    license: {
      id: 'lic_1',
      license_key: 'LK-AAAA-BBBB',
      product_id: 'prd_1',
      kind: 'perpetual',
      status: 'active',
      expires_at: null,
      max_activations: 3,
      activation_count: 1,
      activations_remaining: 2,
      subscription_status: null,
      grace_until: null,
      ...license
    },
    ...overrides
  }
}

function exchange(input: {
  status?: number
  body?: unknown
  rawBody?: string
  headers?: Record<string, string>
  path?: string
  method?: string
  requestBody?: unknown
}): ForwardedExchange {
  const text = input.rawBody ?? JSON.stringify(input.body ?? validateBody())
  return {
    requestId: `req-${randomBytes(3).toString('hex')}`,
    method: input.method ?? 'POST',
    path: input.path ?? '/api/license/v1/validate',
    rawQuery: '',
    requestHeaders: {
      'content-type': 'application/json',
      'x-svc-app-id': APP_ID,
      'x-svc-plugin-key': PLUGIN_KEY,
      'x-svc-plugin-secret': SECRET
    },
    requestBody: Buffer.from(JSON.stringify(input.requestBody ?? { license_key: 'LK-AAAA-BBBB', nonce: NONCE })),
    upstreamUrl: 'http://127.0.0.1:1',
    status: input.status ?? 200,
    responseHeaders: input.headers ?? { 'content-type': 'application/json; charset=utf-8' },
    responseBody: text === '' ? null : Buffer.from(text),
    responseBodyTruncated: false,
    requestBodyWhole: null,
    responseBodyWhole: null,
    startedAt: new Date().toISOString(),
    durationMs: 3
  }
}

async function findingsOf(item: ForwardedExchange) {
  const log = createDriftLog({
    documented: () => [],
    credentialHeaders: () => ['x-svc-plugin-key', 'x-svc-plugin-secret']
  })
  const checked = await checkExchange(item, contract, { appIdHeader: 'x-svc-app-id', keyFor })
  log.record(item, checked)
  return log.report().operations.flatMap((operation) => operation.findings)
}

describe('the drift check of one upstream answer', () => {
  it('finds nothing in an answer the contract describes, token included', async () => {
    const body = validateBody({ license_token: await licenseToken() })
    expect(await findingsOf(exchange({ body }))).toEqual([])
  })

  it('finds nothing when only volatile values differ (times, ids, counts)', async () => {
    const body = validateBody(
      { license_token: await licenseToken(), message: 'Another sentence entirely.' },
      {
        id: 'lic_ZZZ_other_shape_9',
        license_key: 'X',
        product_id: 'whatever',
        expires_at: '1999-01-01T00:00:00.000Z',
        grace_until: 'not even a date',
        activation_count: 99,
        max_activations: 0
      }
    )
    expect(await findingsOf(exchange({ body }))).toEqual([])
  })

  const cases: [
    string,
    () => Promise<ForwardedExchange>,
    { kind: string; severity: string; location: string; path: string }
  ][] = [
    [
      'a success status the operation does not declare',
      async () => exchange({ status: 202 }),
      { kind: 'UNDOCUMENTED_STATUS', severity: 'error', location: 'status', path: '202' }
    ],
    [
      'a redirect the operation does not declare',
      async () => exchange({ status: 302, rawBody: '' }),
      { kind: 'UNDOCUMENTED_STATUS', severity: 'warning', location: 'status', path: '302' }
    ],
    [
      'a required field absent',
      async () => {
        const { message: _message, ...body } = validateBody()
        return exchange({ body })
      },
      { kind: 'MISSING_FIELD', severity: 'error', location: 'body', path: '$.message' }
    ],
    [
      'a field of another type',
      async () => exchange({ body: validateBody({}, { max_activations: '3' }) }),
      { kind: 'WRONG_TYPE', severity: 'error', location: 'body', path: '$.license.max_activations' }
    ],
    [
      'a field the emulator never answers',
      async () => exchange({ body: validateBody({ entitlement_hint: 'x' }) }),
      { kind: 'UNKNOWN_FIELD', severity: 'warning', location: 'body', path: '$.entitlement_hint' }
    ],
    [
      'an error code outside the list',
      async () => exchange({ status: 401, body: { ok: false, error: 'CREDENTIALS_REJECTED', message: 'No.' } }),
      { kind: 'UNKNOWN_ERROR_CODE', severity: 'warning', location: 'body', path: '$.error' }
    ],
    [
      'a 429 without Retry-After',
      async () =>
        exchange({ status: 429, body: { ok: false, error: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 2 } }),
      { kind: 'MISSING_HEADER', severity: 'warning', location: 'header', path: 'retry-after' }
    ],
    [
      'HTML where JSON is documented',
      async () => exchange({ rawBody: '<html>busy</html>', headers: { 'content-type': 'text/html' } }),
      { kind: 'NOT_JSON', severity: 'error', location: 'body', path: '$' }
    ],
    [
      'a token the upstream JWKS does not verify',
      async () => {
        const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
        return exchange({ body: validateBody({ license_token: await licenseToken({ key: other.privateKey }) }) })
      },
      { kind: 'TOKEN_SIGNATURE', severity: 'error', location: 'token', path: '$.license_token' }
    ],
    [
      'a token for another App ID',
      async () => exchange({ body: validateBody({ license_token: await licenseToken({ aud: 'app_someone_else' }) }) }),
      { kind: 'TOKEN_CLAIMS', severity: 'error', location: 'token', path: '$.license_token.aud' }
    ],
    [
      'a token that expires before it was issued',
      async () =>
        exchange({
          body: validateBody({ license_token: await licenseToken({ iat: 2_000_000_000, exp: 1_900_000_000 }) })
        }),
      { kind: 'TOKEN_CLAIMS', severity: 'error', location: 'token', path: '$.license_token.exp' }
    ],
    [
      'a token without the nonce sent',
      async () => exchange({ body: validateBody({ license_token: await licenseToken({ nonce: null }) }) }),
      { kind: 'TOKEN_CLAIMS', severity: 'error', location: 'token', path: '$.license_token.nonce' }
    ],
    [
      'a token of another typ',
      async () => exchange({ body: validateBody({ license_token: await licenseToken({ typ: 'JWT' }) }) }),
      { kind: 'TOKEN_CLAIMS', severity: 'error', location: 'token', path: '$.license_token.typ' }
    ]
  ]

  it.each(cases)('%s: exactly one finding, of its kind and severity', async (_name, make, expected) => {
    const findings = await findingsOf(await make())
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ ...expected, count: 1 })
  })

  it('reads every object as closed, nested ones too, and names array items once', async () => {
    const body = validateBody({
      activation: {
        id: 'act_1',
        instance_id: 'i1',
        instance_name: null,
        platform: null,
        app_version: null,
        first_seen_at: '2026-01-01T00:00:00.000Z',
        last_seen_at: '2026-01-01T00:00:00.000Z',
        deactivated_at: null,
        seat: 1
      }
    })
    const findings = await findingsOf(exchange({ body }))
    expect(findings.map((finding) => [finding.kind, finding.path])).toEqual([['UNKNOWN_FIELD', '$.activation.seat']])
  })
})

describe('error answers, read as closed like every object', () => {
  const expired = { ok: false, error: 'EXPIRED', message: 'This license has expired.' }

  it('reports members no schema names beside the envelope, though ErrorResponse lets extra keys pass', async () => {
    const findings = await findingsOf(exchange({ status: 403, body: { ...expired, foo: 1, license: { id: 'x' } } }))
    expect(findings.map((finding) => [finding.kind, finding.severity, finding.path])).toEqual([
      ['UNKNOWN_FIELD', 'warning', '$.foo'],
      ['UNKNOWN_FIELD', 'warning', '$.license']
    ])
  })

  it('lets the detail keys the contract documents pass, and holds their insides closed too', async () => {
    const documented = {
      ...expired,
      reason: 'INVALID_CLAIM_TOKEN',
      details: [{ location: 'body', path: '/license_key', problem: 'is required', field: 'license_key' }],
      recovery: { rotateKey: '/a', rotateSecret: '/b', create: '/c', ensure: '/d' },
      replacement: '/api/developer/plugin-keys/products/:productId',
      retryAfter: 2,
      state: 'past_due',
      tokenKind: { received: 'developer', accepted: ['product'] }
    }
    expect(await findingsOf(exchange({ status: 403, body: documented }))).toEqual([])
    const findings = await findingsOf(
      exchange({
        status: 403,
        body: { ...documented, details: [{ location: 'body', hint: 'x' }], recovery: { rotateKey: '/a', call: 'us' } }
      })
    )
    expect(findings.map((finding) => [finding.kind, finding.path])).toEqual([
      ['UNKNOWN_FIELD', '$.details[].hint'],
      ['UNKNOWN_FIELD', '$.recovery.call']
    ])
  })

  it("lets a 500's requestId pass: the emulator's own INTERNAL answer carries one", async () => {
    const internal = {
      ok: false,
      error: 'INTERNAL',
      message: 'The emulator hit an internal error.',
      requestId: 'req-7'
    }
    expect(await findingsOf(exchange({ status: 500, body: internal }))).toEqual([])
  })
})

describe('the drift report', () => {
  it('groups by kind, location and path with count, first and last seen; coverage counts documented operations seen', async () => {
    const log = createDriftLog({
      documented: () => contract.operations.map((operation) => operation.operationId),
      credentialHeaders: () => []
    })
    for (const startedAt of ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:05.000Z']) {
      const item = { ...exchange({ body: validateBody({ extra: 1 }) }), startedAt }
      log.record(item, await checkExchange(item, contract, { appIdHeader: 'x-svc-app-id', keyFor }))
    }
    const report = log.report()
    expect(report.coverage.seen).toBe(1)
    expect(report.coverage.documented).toBe(contract.operations.length)
    expect(report.coverage.unseen).not.toContain('validateLicense')
    expect(report.operations).toHaveLength(1)
    expect(report.operations[0]).toMatchObject({ operationId: 'validateLicense', method: 'POST', calls: 2 })
    expect(report.operations[0]?.findings).toEqual([
      expect.objectContaining({
        kind: 'UNKNOWN_FIELD',
        path: '$.extra',
        count: 2,
        firstAt: '2026-01-01T00:00:00.000Z',
        lastAt: '2026-01-01T00:00:05.000Z',
        example: expect.objectContaining({ value: 1, status: 200 })
      })
    ])
    log.clear()
    expect(log.report().operations).toEqual([])
  })

  it('keeps no credential: echoed request secrets and secret-looking values are redacted in JSON and Markdown', async () => {
    const log = createDriftLog({
      documented: () => contract.operations.map((operation) => operation.operationId),
      credentialHeaders: () => ['x-svc-plugin-key', 'x-svc-plugin-secret']
    })
    const token = await licenseToken({ aud: 'elsewhere' })
    const body = validateBody({
      echo: { secret: SECRET, key: PLUGIN_KEY, plain: `the secret was ${SECRET}` },
      license_token: token,
      token_copy: token,
      // An opaque value (no secret's shape) under a secret-named field the emulator never answers.
      claim_token: 'opaque-claim-value-0123456789'
    })
    const item = exchange({ body })
    log.record(item, await checkExchange(item, contract, { appIdHeader: 'x-svc-app-id', keyFor }))
    const json = JSON.stringify(log.report())
    const markdown = driftMarkdown(log.report(), { upstreamUrl: null, generatedAt: 'now', emulatorVersion: 'test' })
    expect(json).toContain('UNKNOWN_FIELD')
    for (const text of [json, markdown]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(PLUGIN_KEY)
      expect(text).not.toContain(token)
      expect(text).not.toContain(token.split('.')[2])
      expect(text).not.toContain('opaque-claim-value-0123456789')
    }
  })
})

describe("the upstream's keys", () => {
  it('are cached by kid and fetched again for an unknown kid', async () => {
    let fetches = 0
    const rotated = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
    const rotatedJwk = { ...(await exportJWK(rotated.publicKey)), kid: 'upstream-2', alg: 'EdDSA' }
    let keys: JWK[] = [publicJwk]
    let now = 0
    const lookup = upstreamKeys(
      async () => {
        fetches += 1
        return { keys }
      },
      () => now
    )
    expect(await lookup('upstream-1')).not.toBeNull()
    expect(await lookup('upstream-1')).not.toBeNull()
    expect(fetches).toBe(1)
    keys = [publicJwk, rotatedJwk]
    now = 10_000
    expect(await lookup('upstream-2')).not.toBeNull()
    expect(fetches).toBe(2)
    // A forged kid right after: no new fetch within the interval, and no key.
    expect(await lookup('forged')).toBeNull()
    expect(fetches).toBe(2)
  })
})
