import { createLocalJWKSet, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { MAGIC_KEYS } from '../../src/core/licensing/magic-keys'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// Magic keys answer each licensing code with nothing set up but a product credential.

let credential: PluginCredential
const emu = useEmulator()
beforeAll(async () => {
  credential = await productWithCredential(emu, 'Magic Synth')
})

const expectedStatus: Record<string, number> = {
  NOT_FOUND: 404,
  SUSPENDED: 403,
  EXPIRED: 403,
  REVOKED: 403,
  NOT_ACTIVATED: 404,
  PRODUCT_SCOPE_MISMATCH: 403,
  TOO_MANY_ACTIVATIONS: 409,
  TRIAL_EXPIRED: 403
}

describe('magic license keys', () => {
  it.each(Object.entries(MAGIC_KEYS))('%s validates as %s, whatever the instance', async (key, code) => {
    const plugin = pluginClient(emu, credential)
    for (const instance of [undefined, 'any-machine']) {
      const result = await plugin.validate(key.toLowerCase(), instance)
      expect(result.status).toBe(200)
      expect(result.body.code).toBe(code)
      expect(result.body.valid).toBe(code === 'VALID')
      expect(result.body.license_token === undefined).toBe(code !== 'VALID')
    }
  })

  it.each(Object.entries(MAGIC_KEYS).filter(([, code]) => code !== 'VALID'))(
    '%s fails activation with %s',
    async (key, code) => {
      const result = await pluginClient(emu, credential).activate(key, 'machine-1')
      expect(result.status).toBe(expectedStatus[code])
      expect(result.body).toMatchObject({ ok: false, error: code })
    }
  )

  it('MAGIC-VALID activates, deactivates and gives a verifiable token for the calling product, storing nothing', async () => {
    const plugin = pluginClient(emu, credential)
    const activated = await plugin.activate('MAGIC-VALID', 'machine-1', { nonce: 'n-magic' })
    expect(activated.status).toBe(201)
    const jwks = createLocalJWKSet((await emu.request('GET', '/.well-known/jwks.json')).body as never)
    const { payload } = await jwtVerify(activated.body.license_token, jwks, { audience: credential.appId })
    expect(payload.nonce).toBe('n-magic')
    expect(payload.product_id).toBe(credential.productId)
    expect((await plugin.deactivate('MAGIC-VALID', 'machine-1')).status).toBe(200)
    const state = (await emu.control('GET', '/state')).body.state
    expect(state.licenses).toEqual([])
    expect(state.activations).toEqual([])
  })

  it('still needs a valid product credential', async () => {
    const result = await pluginClient(emu, { ...credential, pluginSecret: 'sk_wrong000000000000000000' }).validate(
      'MAGIC-VALID'
    )
    expect(result.status).toBe(401)
    expect(result.body.error).toBe('PRODUCT_CREDENTIAL_INVALID')
  })
})

describe('validate with more live machines than the limit', () => {
  it('answers TOO_MANY_ACTIVATIONS after the limit is lowered below the live count', async () => {
    const customer = (await emu.control('POST', '/customers', { email: 'limit@example.test' })).body.customer
    const purchase = await emu.control('POST', '/purchases', {
      customerId: customer.id,
      productId: credential.productId,
      maxActivations: 2
    })
    const plugin = pluginClient(emu, credential)
    await plugin.activate(purchase.body.license.key, 'one')
    await plugin.activate(purchase.body.license.key, 'two')
    expect((await plugin.validate(purchase.body.license.key, 'one')).body.code).toBe('VALID')
    await emu.control('PATCH', `/licenses/${purchase.body.license.id}`, { maxActivations: 1 })
    expect((await plugin.validate(purchase.body.license.key, 'one')).body.code).toBe('TOO_MANY_ACTIVATIONS')
    await plugin.deactivate(purchase.body.license.key, 'two')
    expect((await plugin.validate(purchase.body.license.key, 'one')).body.code).toBe('VALID')
  })
})

describe('GET /_emulator/licenses', () => {
  it('lists licenses of one product, newest first, and honours the limit', async () => {
    const other = await productWithCredential(emu, 'Other Synth')
    const customer = (await emu.control('POST', '/customers', { email: 'lister@example.test' })).body.customer
    const first = await emu.control('POST', '/purchases', { customerId: customer.id, productId: other.productId })
    const second = await emu.control('POST', '/purchases', {
      customerId: customer.id,
      productId: other.productId,
      kind: 'trial'
    })
    const listed = await emu.control('GET', `/licenses?productId=${other.productId}`)
    expect(listed.body.licenses.map((l: { id: string }) => l.id)).toEqual([
      second.body.license.id,
      first.body.license.id
    ])
    expect((await emu.control('GET', `/licenses?productId=${other.productId}&limit=1`)).body.licenses).toHaveLength(1)
    expect((await emu.control('GET', '/licenses?productId=prod_nothing')).body.licenses).toEqual([])
    expect((await emu.control('GET', '/licenses?limit=0')).status).toBe(400)
  })
})
