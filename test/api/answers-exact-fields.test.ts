import { describe, expect, it } from 'vitest'

import { ActivateResponse, DeactivateResponse, ValidateResponse } from '../../src/shared/schemas/licensing'
import { VerifiedConnectionResponse } from '../../src/shared/schemas/plugin-connections'
import { HealthResponse } from '../../src/shared/schemas/server-info'
import { licensingSuite } from '../support/licensing-suite'

// The answers written with JSON.stringify instead of their schema's serializer
// (src/server/plugins/plain-json-serializer.ts): fast-json-stringify dropped any field its schema
// does not name and wrote the rest in the schema's order; these must carry no other field and keep
// that order, so they read as before. Checked on real answers, nested objects included.

/** The parts of a JSON schema the walk reads. */
interface SchemaNode {
  anyOf?: SchemaNode[]
  oneOf?: SchemaNode[]
  items?: SchemaNode
  properties?: Record<string, SchemaNode>
}

/**
 * Where `value` differs from what the schema's serializer would write: each field the schema does
 * not name, and each object whose fields are out of the schema's order (objects only; arrays
 * walked item by item).
 */
function unlikeSchema(schemaObject: object, value: unknown, at = ''): string[] {
  const schema = schemaObject as SchemaNode
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) {
    const fits = variants.map((variant) => unlikeSchema(variant, value, at))
    return fits.find((found) => found.length === 0) ?? fits[0] ?? []
  }
  const { items, properties } = schema
  if (Array.isArray(value) && items) return value.flatMap((item, i) => unlikeSchema(items, item, `${at}/${i}`))
  if (value === null || typeof value !== 'object' || !properties) return []
  const keys = Object.keys(value)
  const inSchemaOrder = Object.keys(properties).filter((key) => keys.includes(key))
  const declaredKeys = keys.filter((key) => key in properties)
  const order = declaredKeys.join() === inSchemaOrder.join() ? [] : [`${at || '/'} (order: ${declaredKeys.join(', ')})`]
  return order.concat(
    Object.entries(value).flatMap(([key, inner]) => {
      const declared = properties[key]
      return declared ? unlikeSchema(declared, inner, `${at}/${key}`) : [`${at}/${key}`]
    })
  )
}

describe('answers written with JSON.stringify carry only the fields their schema names, in its order', () => {
  const suite = licensingSuite('2036-08-08T08:00:00.000Z', ['Exact Arp', 'Exact Other'])
  const { buy, plugin } = suite

  it('health, verify, activate, validate (valid and not) and deactivate', async () => {
    const health = await suite.emu.request('GET', '/_emulator/health')
    expect(health.status).toBe(200)
    expect(unlikeSchema(HealthResponse, health.body)).toEqual([])

    const { productId, appId, pluginKey, pluginSecret } = suite.product
    const verified = await suite.emu.request('POST', '/api/plugin-connections/verify', {
      body: { productId, appId, pluginKey, pluginSecret }
    })
    expect(verified.status, verified.text).toBe(200)
    expect(Object.keys(verified.body.connection)).toHaveLength(4)
    expect(unlikeSchema(VerifiedConnectionResponse, verified.body)).toEqual([])

    const bought = await buy('perpetual', { maxActivations: 2 })
    const activated = await plugin().activate(bought.license.key, 'exact-1', { platform: 'linux' })
    expect(activated.status, activated.text).toBe(201)
    expect(activated.body.activation.platform).toBe('linux')
    expect(unlikeSchema(ActivateResponse, activated.body)).toEqual([])

    const valid = await plugin().validate(bought.license.key, 'exact-1', 'nonce-1234567890')
    expect(valid.body).toMatchObject({ valid: true, code: 'VALID', license_token: expect.any(String) })
    expect(unlikeSchema(ValidateResponse, valid.body)).toEqual([])
    const elsewhere = await plugin().validate(bought.license.key, 'not-activated-here')
    expect(elsewhere.body.valid).toBe(false)
    expect(unlikeSchema(ValidateResponse, elsewhere.body)).toEqual([])

    const deactivated = await plugin().deactivate(bought.license.key, 'exact-1')
    expect(deactivated.status, deactivated.text).toBe(200)
    expect(deactivated.body.activation.deactivated_at).toEqual(expect.any(String))
    expect(unlikeSchema(DeactivateResponse, deactivated.body)).toEqual([])
  })

  it('an error answer lists its keys in the envelope schema order, as fast-json-stringify wrote them', async () => {
    const { productId, appId, pluginKey } = suite.product
    const failed = await suite.emu.request('POST', '/api/plugin-connections/verify', {
      body: { productId, appId, pluginKey, pluginSecret: 'not-the-secret-0123456789' }
    })
    expect(failed.status).toBe(401)
    expect(Object.keys(failed.body)).toEqual(['ok', 'error', 'message', 'reason', 'verified'])
    const refused = await plugin().call('validate', { license_key: 7 })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body)).toEqual(['ok', 'error', 'message', 'details'])
  })

  it('the check finds a field the schema does not name, nested too, and fields out of order', () => {
    expect(unlikeSchema(ValidateResponse, { ok: true, valid: true, code: 'VALID', message: 'm', extra: 1 })).toEqual([
      '/extra'
    ])
    expect(
      unlikeSchema(DeactivateResponse, { ok: true, license: { id: 'l', secret: 's' }, activation: { id: 'a' } })
    ).toEqual(['/license/secret'])
    expect(unlikeSchema(DeactivateResponse, { deactivated: true, ok: true })).toEqual(['/ (order: deactivated, ok)'])
  })
})
