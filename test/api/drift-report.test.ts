import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { RequestSummary } from '../../src/core/inspector/types'
import { DRIFT_FINDING_KINDS, driftSeverityOf, entryDistance } from '../../src/shared/contract/drift'
import type { ExchangeMark } from '../../src/shared/contract/drift'
import { createCustomer, purchase } from '../support/commerce'
import { startDriftDouble } from '../support/drift-double'
import type { DriftDouble } from '../support/drift-double'
import { useEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

// docs/upstream.md, "The drift report": every upstream answer is held to the emulator's own
// contract. A second emulator stands in for the platform (the control run: no drift); a double in
// front of it drifts one way at a time (exactly one finding each).

const NONCE = 'nonce-drift-7'

/** A plugin's validate through the proxy, over plain fetch: a drifting answer is what is under test. */
async function validateThrough(proxy: TestEmulator, credential: PluginCredential, licenseKey: string) {
  const response = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-svc-app-id': credential.appId,
      'x-svc-plugin-key': credential.pluginKey,
      'x-svc-plugin-secret': credential.pluginSecret
    },
    body: JSON.stringify({ license_key: licenseKey, instance_id: 'machine-1', nonce: NONCE })
  })
  return { status: response.status, text: await response.text(), source: response.headers.get('x-emulator-source') }
}

async function driftOf(proxy: TestEmulator) {
  const report = await proxy.control('GET', '/drift')
  expect(report.status).toBe(200)
  return report.body as {
    coverage: { seen: number; documented: number }
    operations: { operationId: string; calls: number; findings: Record<string, unknown>[] }[]
  }
}

async function platformWithLicense(platform: TestEmulator) {
  const credential = await productWithCredential(platform, 'Drift Synth')
  const customer = await createCustomer(platform)
  const bought = await purchase(platform, customer.id, credential.productId)
  const licenseKey = bought.license.key
  return { credential, licenseKey }
}

describe('the control run: a second emulator as the upstream', () => {
  const platform = useEmulator()
  const proxy = useEmulator(() => ({ upstream: { url: platform.baseUrl } }))

  it('has an empty report after a plugin flow, and counts the operations seen', async () => {
    const { credential, licenseKey } = await platformWithLicense(platform)
    const headers = {
      'content-type': 'application/json',
      'x-svc-app-id': credential.appId,
      'x-svc-plugin-key': credential.pluginKey,
      'x-svc-plugin-secret': credential.pluginSecret
    }
    const post = (path: string, body: unknown) =>
      fetch(`${proxy.baseUrl}/api/license/v1/${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    expect((await post('activate', { license_key: licenseKey, instance_id: 'machine-1', nonce: NONCE })).status).toBe(
      201
    )
    const validated = await validateThrough(proxy, credential, licenseKey)
    expect(validated.status).toBe(200)
    expect(validated.source).toBe('upstream')
    expect((await post('validate', { license_key: 'NO-SUCH-KEY' })).status).toBe(200)
    expect((await post('deactivate', { license_key: licenseKey, instance_id: 'machine-1' })).status).toBe(200)
    expect(
      (
        await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"license_key":"X"}'
        })
      ).status
    ).toBe(401)
    expect((await fetch(`${proxy.baseUrl}/.well-known/jwks.json`)).status).toBe(200)

    const report = await driftOf(proxy)
    expect(report.operations.flatMap((operation) => operation.findings)).toEqual([])
    const calls = Object.fromEntries(report.operations.map((operation) => [operation.operationId, operation.calls]))
    expect(calls).toEqual({ activateLicense: 1, validateLicense: 3, deactivateLicense: 1, getJwks: 1 })
    expect(report.coverage.seen).toBe(4)
    expect(report.coverage.documented).toBeGreaterThan(20)

    const markdown = await fetch(`${proxy.baseUrl}/_emulator/drift?format=markdown`, {
      headers: { 'x-emulator-token': proxy.adminToken }
    })
    expect(markdown.status).toBe(200)
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/)
    const text = await markdown.text()
    expect(text).toContain('# Drift report')
    expect(text).toContain('Coverage: 4 of')
    expect(text).toContain('Findings: 0')
  })
})

describe('a drifting upstream (the mutating double in front of a second emulator)', () => {
  const platform = useEmulator()
  let double: DriftDouble
  beforeAll(async () => {
    double = await startDriftDouble(platform.baseUrl)
  })
  afterAll(async () => {
    await double.close()
  })
  const proxy = useEmulator(() => ({ upstream: { url: double.baseUrl } }))
  let credential: PluginCredential
  let licenseKey: string
  const seenTexts: string[] = []
  const tokens: string[] = []

  beforeAll(async () => {
    ;({ credential, licenseKey } = await platformWithLicense(platform))
    // Activated on the platform itself: each validate through the proxy then carries a license token.
    const activated = await pluginClient(platform, credential).activate(licenseKey, 'machine-1')
    expect(activated.status).toBe(201)
  })

  it('answers as the emulator with no mutation: no finding', async () => {
    double.mutation = null
    const validated = await validateThrough(proxy, credential, licenseKey)
    expect(validated.status).toBe(200)
    expect(JSON.parse(validated.text).valid).toBe(true)
    tokens.push(String(JSON.parse(validated.text).license_token))
    expect((await driftOf(proxy)).operations.flatMap((operation) => operation.findings)).toEqual([])
  })

  it.each(DRIFT_FINDING_KINDS.map((kind) => [kind]))('%s: exactly one finding, with its severity', async (kind) => {
    expect((await proxy.control('DELETE', '/drift')).body).toEqual({ ok: true, cleared: true })
    double.mutation = kind
    const answer = await validateThrough(proxy, credential, licenseKey)
    // The upstream's answer is passed on as it is, drift and all.
    expect(answer.source).toBe('upstream')
    const match = /"license_token":"([^"]+)"/.exec(answer.text)
    if (match?.[1]) tokens.push(match[1])

    const report = await driftOf(proxy)
    const findings = report.operations.flatMap((operation) => operation.findings)
    expect(findings).toHaveLength(1)
    const status =
      kind === 'UNDOCUMENTED_STATUS' ? 202 : kind === 'UNKNOWN_ERROR_CODE' ? 401 : kind === 'MISSING_HEADER' ? 429 : 200
    expect(findings[0]).toMatchObject({
      kind,
      severity: driftSeverityOf(kind, status),
      count: 1,
      example: expect.objectContaining({ status })
    })
    expect(report.operations.find((operation) => operation.findings.length > 0)?.operationId).toBe('validateLicense')

    // The inspector's entry of that exchange lists the same finding.
    const listed = await proxy.control('GET', '/requests?path=/api/license/v1/validate&limit=1')
    const entryId = listed.body.requests[0].id as number
    const entryDrift = await proxy.control('GET', `/drift/requests/${entryId}`)
    expect(entryDrift.status).toBe(200)
    expect(entryDrift.body.drift.findings.map((finding: { kind: string }) => finding.kind)).toEqual([kind])
    const flagged = await proxy.control('GET', '/drift/requests')
    expect(flagged.body.exchanges).toHaveLength(1)

    const markdown = await fetch(`${proxy.baseUrl}/_emulator/drift?format=markdown`, {
      headers: { 'x-emulator-token': proxy.adminToken }
    })
    const text = await markdown.text()
    expect(text).toContain(kind)
    seenTexts.push(JSON.stringify(report), JSON.stringify(entryDrift.body), JSON.stringify(flagged.body), text)
  })

  it('keeps every credential out of the report, JSON and Markdown alike', () => {
    expect(seenTexts.length).toBe(DRIFT_FINDING_KINDS.length * 4)
    // The UNKNOWN_FIELD mutation echoed the plugin secret back in the upstream's answer.
    expect(seenTexts.join('\n')).toContain('upstream_only')
    const canaries = [
      credential.pluginSecret,
      credential.pluginKey,
      ...tokens,
      ...tokens.map((token) => token.split('.')[2] as string)
    ]
    expect(canaries.length).toBeGreaterThan(4)
    for (const text of seenTexts) for (const canary of canaries) expect(text).not.toContain(canary)
    // What the request sent as a credential is hidden whole where echoed, not previewed by its shape.
    const secret = credential.pluginSecret
    expect(seenTexts.join('\n')).toContain('"echoed":"[hidden]"')
    for (const text of seenTexts) expect(text).not.toContain(`${secret.slice(0, 8)}...${secret.slice(-4)}`)
  })

  it('fetched the upstream JWKS through the forwarding connection, once per new kid', () => {
    const jwksFetches = double.calls.filter((path) => path === '/.well-known/jwks.json').length
    expect(jwksFetches).toBeGreaterThanOrEqual(1)
    expect(jwksFetches).toBeLessThanOrEqual(3)
  })

  it("pairs an inspector entry with its own exchange only: a drifted answer's clean neighbours carry no drift", async () => {
    await proxy.control('DELETE', '/drift')
    double.mutation = 'NOT_JSON'
    expect((await validateThrough(proxy, credential, licenseKey)).status).toBe(200)
    double.mutation = null
    // Well within the 2 s the pairing once allowed, and more than the 10 ms that make two alike requests indistinguishable.
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (let i = 0; i < 3; i++) expect((await validateThrough(proxy, credential, licenseKey)).status).toBe(200)

    const listed = await proxy.control('GET', '/requests?path=/api/license/v1/validate&limit=4')
    const entries = listed.body.requests as RequestSummary[]
    expect(entries.map((entry) => [entry.answeredBy, entry.status])).toEqual(Array(4).fill(['upstream', 200]))
    const [drifted, ...clean] = [...entries].reverse() as [RequestSummary, ...RequestSummary[]]
    const flagged = (await proxy.control('GET', '/drift/requests')).body.exchanges as ExchangeMark[]
    expect(flagged).toHaveLength(1)
    // The Requests screen marks an entry when a flagged exchange is within entryDistance of it.
    const marks = (entry: RequestSummary) => flagged.filter((exchange) => entryDistance(entry, exchange) !== null)
    for (const entry of clean) {
      const answer = await proxy.control('GET', `/drift/requests/${entry.id}`)
      expect(answer.status).toBe(200)
      expect(answer.body.drift).toBeNull()
      expect(marks(entry)).toEqual([])
    }
    const own = await proxy.control('GET', `/drift/requests/${drifted.id}`)
    expect(own.body.drift.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['NOT_JSON'])
    expect(marks(drifted)).toEqual([expect.objectContaining({ findings: 1, errors: 1 })])
  })

  it('pairs an entry a fault rule held back with its own exchange: both read the arrival the same way', async () => {
    await proxy.control('DELETE', '/drift')
    const rules = [{ route: '/api/license/v1/validate', kind: 'latency', ms: 300 }]
    expect((await proxy.control('PUT', '/faults', { rules })).status).toBe(200)
    double.mutation = 'NOT_JSON'
    try {
      expect((await validateThrough(proxy, credential, licenseKey)).status).toBe(200)
    } finally {
      double.mutation = null
      await proxy.control('DELETE', '/faults')
    }
    const listed = await proxy.control('GET', '/requests?path=/api/license/v1/validate&limit=1')
    const entry = listed.body.requests[0] as RequestSummary
    // Forwarded only once the rule let it go, 300 ms after it arrived: the inspector's time is the arrival.
    expect(entry.fault?.kind).toBe('latency')
    const flagged = (await proxy.control('GET', '/drift/requests')).body.exchanges as ExchangeMark[]
    expect(flagged).toHaveLength(1)
    expect(entryDistance(entry, flagged[0] as ExchangeMark)).not.toBeNull()
    const own = await proxy.control('GET', `/drift/requests/${entry.id}`)
    expect(own.body.drift.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['NOT_JSON'])
  })

  it('clears on DELETE and refuses a bad format as VALIDATION_ERROR', async () => {
    await proxy.control('DELETE', '/drift')
    const report = await driftOf(proxy)
    expect(report.operations).toEqual([])
    const bad = await proxy.control('GET', '/drift?format=pdf')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('VALIDATION_ERROR')
  })
})

describe('an error answer with members no schema names (a bare HTTP upstream)', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl } }))

  it('reports each unnamed member of the envelope as UNKNOWN_FIELD, and no documented detail key', async () => {
    upstream.answer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ok: false,
          error: 'EXPIRED',
          message: 'This license has expired.',
          // A documented detail key: no finding.
          reason: 'EXPIRED_AT_PERIOD_END',
          foo: 1,
          license: { id: 'x' }
        })
      )
    })
    const answer = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ license_key: 'LK-1' })
    })
    expect(answer.status).toBe(403)
    expect(answer.headers.get('x-emulator-source')).toBe('upstream')
    const report = await driftOf(proxy)
    const findings = report.operations.flatMap((operation) => operation.findings)
    expect(findings.map((finding) => [finding.kind, finding.severity, finding.path])).toEqual([
      ['UNKNOWN_FIELD', 'warning', '$.foo'],
      ['UNKNOWN_FIELD', 'warning', '$.license']
    ])
  })
})
