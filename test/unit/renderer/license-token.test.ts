import { base64url, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import type { Jwk } from '../../../src/renderer/src/api/types'
import { inspectLicenseToken } from '../../../src/renderer/src/tokens/license-token'

const NOW_S = 1_800_000_000
let privateKey: CryptoKey
let jwk: Jwk

async function sign(
  claims: Record<string, unknown>,
  options: { typ?: string; kid?: string; exp?: number; aud?: string } = {}
) {
  return new SignJWT({ instance_id: 'box-1', ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? 'k1', typ: options.typ ?? 'license+jwt' })
    .setIssuer('plugin-license-emulator')
    .setAudience(options.aud ?? 'app_Demo')
    .setSubject('lic_1')
    .setIssuedAt(NOW_S - 10)
    .setExpirationTime(options.exp ?? NOW_S + 3600)
    .sign(privateKey)
}

const expectations = () => ({
  jwks: [jwk],
  appId: 'app_Demo',
  nowMs: NOW_S * 1000,
  licenseId: 'lic_1',
  instanceId: 'box-1'
})

beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  privateKey = pair.privateKey
  const exported = await exportJWK(pair.publicKey)
  jwk = { kty: 'OKP', crv: 'Ed25519', x: exported.x as string, kid: 'k1', alg: 'EdDSA', use: 'sig' }
})

const outcome = (report: Awaited<ReturnType<typeof inspectLicenseToken>>, id: string) =>
  report.checks.find((check) => check.id === id)?.outcome

describe('license token verification in the renderer', () => {
  it('passes a token signed by a published key, addressed to the App ID, echoing the nonce', async () => {
    const report = await inspectLicenseToken(await sign({ nonce: 'n-1' }), { ...expectations(), nonce: 'n-1' })
    expect(report.valid).toBe(true)
    expect(report.signatureValid).toBe(true)
    expect(report.header).toMatchObject({ alg: 'EdDSA', kid: 'k1', typ: 'license+jwt' })
    expect(report.claims).toMatchObject({ aud: 'app_Demo', sub: 'lic_1', nonce: 'n-1' })
    expect(report.checks.map((check) => check.id)).toEqual([
      'format',
      'alg',
      'typ',
      'kid',
      'signature',
      'iss',
      'aud',
      'exp',
      'nonce',
      'sub',
      'instance'
    ])
    expect(report.checks.find((check) => check.id === 'exp')?.detail).toContain('valid for another 60 min')
  })

  it('fails a tampered token on its signature', async () => {
    const token = await sign({})
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as Record<string, unknown>
    const forged = base64url.encode(JSON.stringify({ ...claims, sub: 'lic_other' }))
    const report = await inspectLicenseToken(`${header}.${forged}.${signature}`, {
      ...expectations(),
      licenseId: undefined
    })
    expect(report.valid).toBe(false)
    expect(outcome(report, 'signature')).toBe('fail')
  })

  it('fails a token for another App ID, an unknown key, or the wrong type', async () => {
    expect(outcome(await inspectLicenseToken(await sign({}, { aud: 'app_Other' }), expectations()), 'aud')).toBe('fail')
    const unknown = await inspectLicenseToken(await sign({}, { kid: 'nope' }), expectations())
    expect(outcome(unknown, 'kid')).toBe('fail')
    expect(unknown.signatureValid).toBe(false)
    expect(outcome(await inspectLicenseToken(await sign({}, { typ: 'JWT' }), expectations()), 'typ')).toBe('fail')
  })

  it('judges expiry on the emulator clock, not the system clock', async () => {
    const token = await sign({}, { exp: NOW_S + 60 })
    expect(outcome(await inspectLicenseToken(token, expectations()), 'exp')).toBe('pass')
    const later = await inspectLicenseToken(token, { ...expectations(), nowMs: (NOW_S + 3600) * 1000 })
    expect(outcome(later, 'exp')).toBe('fail')
    expect(later.valid).toBe(false)
  })

  it('notices a nonce that was not echoed, and a token bound to another instance', async () => {
    expect(
      outcome(await inspectLicenseToken(await sign({ nonce: 'stale' }), { ...expectations(), nonce: 'fresh' }), 'nonce')
    ).toBe('fail')
    expect(outcome(await inspectLicenseToken(await sign({ instance_id: 'box-2' }), expectations()), 'instance')).toBe(
      'fail'
    )
  })

  it('reports garbage as malformed instead of throwing', async () => {
    const report = await inspectLicenseToken('not.a.token', expectations())
    expect(report.valid).toBe(false)
    expect(report.checks).toHaveLength(1)
    expect(outcome(report, 'format')).toBe('fail')
  })
})
