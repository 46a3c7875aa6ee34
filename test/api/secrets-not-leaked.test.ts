import { beforeAll, describe, expect, it } from 'vitest'

import { ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import type { Material } from '../support/credentials'
import { databaseFileBytes } from '../support/database'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

/**
 * A scripted session, then a search for every full key and secret it handed out: nowhere in the
 * database file (WAL included), nowhere in the log, and in no response but those that reveal.
 */
describe('secrets stay out of the database, the log and other responses', () => {
  const materials: Material[] = []
  const revealing: HttpResult[] = []
  const others: HttpResult[] = []
  const tokens: string[] = []
  let bytesWhileRunning: Buffer
  let bytesAfterClose: Buffer
  let exported: HttpResult

  const emulator = useEmulator()
  beforeAll(async () => {
    const owned = await ownedProduct(emulator)
    const admin = await ownedProduct(emulator, { role: 'admin' })
    tokens.push(owned.developer.token, admin.developer.token)
    const { api, product } = owned
    const keep = (result: HttpResult, reveals: boolean): HttpResult => {
      ;(reveals ? revealing : others).push(result)
      return result
    }
    const collect = (result: HttpResult): void => {
      const reveal = result.body?.one_time_reveal as Material | undefined
      if (reveal)
        materials.push({ appId: reveal.appId, pluginKey: reveal.pluginKey, pluginSecret: reveal.pluginSecret })
    }

    const created = keep(await api.create(product.id, { reason: 'first' }), true)
    collect(created)
    keep(await api.act(product.id, 'ensure'), false) // existing: previews only
    collect(keep(await api.act(product.id, 'reveal-secret', { reason: 'installer build' }), true))
    const first = materials[0] as Material
    // A reason and metadata with a pasted secret and key, as people do.
    keep(
      await api.act(product.id, 'reveal-secret', {
        reason: `oops pasted ${first.pluginSecret} and ${first.pluginKey}`,
        metadata: {
          note: `secret=${first.pluginSecret}`,
          pluginSecret: first.pluginSecret,
          nested: [{ key: first.pluginKey }]
        }
      }),
      true
    )
    collect(
      keep(await api.act(product.id, 'rotate-key', { reason: `rotating because ${first.pluginSecret} leaked` }), true)
    )
    const second = materials[materials.length - 1] as Material
    keep(await verifyConnection(emulator, verifyBody(product.id, second)), false)
    keep(
      await verifyConnection(emulator, { ...verifyBody(product.id, second), pluginSecret: `${second.pluginSecret}x` }),
      false
    )
    keep(await verifyConnection(emulator, verifyBody(product.id, first)), false) // revoked
    keep(
      await verifyConnection(emulator, { ...verifyBody(product.id, second), pluginSecret: first.pluginSecret }),
      false
    )
    collect(keep(await api.act(product.id, 'rotate-secret', { reason: 'routine' }), true))
    keep(await api.create(product.id, { reason: `again ${second.pluginSecret}` }), false) // 409
    // A secret in a query string, and a plugin key where a JWT belongs.
    keep(
      await emulator.request('GET', `/api/developer/plugin-keys/products?productId=${second.pluginKey}`, {
        token: owned.developer.token
      }),
      false
    )
    keep(await emulator.request('GET', '/api/developer/plugin-keys/products', { token: second.pluginKey }), false)
    keep(await api.list(), false)
    keep(await api.list(product.id), false)
    keep(await api.get(product.id), false)
    keep(await admin.api.list(), false)
    keep(
      await api.act(product.id, 'revoke', {
        reason: `revoking ${second.pluginSecret}`,
        metadata: { secret: second.pluginSecret }
      }),
      false
    )
    keep(await api.act(product.id, 'revoke'), false)
    keep(await api.get(product.id), false)
    keep(await emulator.control('GET', `/products/${product.id}/audit`), false)
    keep(await emulator.control('GET', `/products/${product.id}/credentials`), false)
    keep(await emulator.control('GET', `/products/${product.id}/connection`), false)
    keep(await emulator.control('GET', '/developers'), false)
    collect(keep(await api.act(product.id, 'ensure', { reason: 'fresh start' }), true)) // created
    expect(materials.length).toBe(5)
    // The whole state as a scenario, the audit trail and the request log included.
    emulator.app.core.requests.flush()
    exported = keep(await emulator.control('GET', '/state?includeRequests=1'), false)

    bytesWhileRunning = databaseFileBytes(emulator.databasePath)
    await emulator.app.close()
    bytesAfterClose = databaseFileBytes(emulator.databasePath)
  })

  const secretValues = (): string[] => materials.flatMap((m) => [m.pluginKey, m.pluginSecret])

  it('handed out well-formed material: four credentials, the reveal repeating the first', () => {
    const values = secretValues()
    expect(new Set(values).size).toBe(8)
    expect(materials[1]).toEqual(materials[0])
    for (const value of values) expect(value).toMatch(/^(?:pk|sk)_[A-Za-z0-9]{22,}$/)
  })

  it('keeps no full key or secret in the database file or its WAL', () => {
    expect(bytesWhileRunning.length).toBeGreaterThan(0)
    expect(bytesAfterClose.length).toBeGreaterThan(0)
    for (const value of secretValues()) {
      const random = value.slice(3) // also without the pk_/sk_ prefix
      for (const bytes of [bytesWhileRunning, bytesAfterClose]) {
        expect(bytes.includes(value), `${value.slice(0, 6)}... in the database`).toBe(false)
        expect(bytes.includes(random), `${value.slice(0, 6)}... (unprefixed) in the database`).toBe(false)
        expect(bytes.includes(Buffer.from(value, 'utf16le'))).toBe(false)
      }
    }
    // What the reason did keep: a preview.
    expect(bytesAfterClose.includes(`${materials[0]?.pluginSecret.slice(0, 8)}...`)).toBe(true)
  })

  it('writes no key, secret, developer JWT or admin token to the log', () => {
    const log = emulator.logOutput()
    expect(log).toContain('request completed')
    for (const value of [...secretValues(), ...tokens, emulator.adminToken]) {
      expect(log.includes(value), `${value.slice(0, 6)}... in the log`).toBe(false)
    }
    for (const token of tokens) expect(log.includes(token.split('.')[2] as string)).toBe(false)
  })

  it('shows full material only in create, ensure-created, rotate and reveal responses', () => {
    expect(revealing.every((r) => r.status >= 200 && r.status < 300)).toBe(true)
    for (const result of others) {
      for (const value of secretValues()) {
        expect(
          result.text.includes(value),
          `${value.slice(0, 6)}... in a ${result.status} response: ${result.text.slice(0, 120)}`
        ).toBe(false)
      }
    }
  })

  it('exports no key, secret, developer JWT or admin token in a scenario, the audit trail and the request log included', () => {
    expect(exported.status).toBe(200)
    expect(exported.body.state.credentialAudit.length).toBeGreaterThan(5)
    expect(exported.body.state.requests.length).toBeGreaterThan(5)
    for (const value of [...secretValues(), ...tokens, emulator.adminToken]) {
      expect(exported.text.includes(value), `${value.slice(0, 6)}... in the export`).toBe(false)
    }
    for (const token of tokens) expect(exported.text.includes(token.split('.')[2] as string)).toBe(false)
  })

  it('keeps the pasted secrets out of the audit trail, with previews instead', () => {
    const audit = others.find((r) => Array.isArray(r.body?.entries))
    expect(audit).toBeDefined()
    const entries = audit?.body.entries as Array<{ action: string; reason: string | null; metadata: unknown }>
    const pasted = entries.find((e) => e.reason?.startsWith('oops pasted'))
    expect(pasted?.reason).toContain(`${materials[0]?.pluginSecret.slice(0, 8)}...`)
    expect(JSON.stringify(pasted?.metadata)).toContain(`${materials[0]?.pluginKey.slice(0, 8)}...`)
  })
})
