import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createCustomer, purchase } from '../support/commerce'
import { expectError, managementClient } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// /api/license/v1/* authenticate by x-svc-app-id, x-svc-plugin-key, x-svc-plugin-secret (docs/api.md
// section 5); compatibility: the key as x-svc-api-key or as Bearer. Anything else: 401 PRODUCT_CREDENTIAL_INVALID.
describe('/api/license/v1/*: the product credential headers', () => {
  const base = Date.parse('2034-02-03T04:05:06.000Z')
  const clock = createClock(() => base)
  let credential: PluginCredential & { developer: { id: string; token: string } }
  let licenseKey: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    credential = await productWithCredential(emu, 'Header Harmonizer')
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, credential.productId, { maxActivations: 10 })).license.key
  })

  const validate = (headers: Record<string, string>) =>
    emu.request('POST', '/api/license/v1/validate', { headers, body: { license_key: licenseKey } })
  const full = () => pluginClient(emu, credential).headers

  it('the three headers are enough', async () => {
    const ok = await validate(full())
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body).toMatchObject({ ok: true, valid: true, code: 'VALID' })
  })

  it.each(['x-svc-app-id', 'x-svc-plugin-key', 'x-svc-plugin-secret'])(
    'without %s: 401 PRODUCT_CREDENTIAL_INVALID on every licensing route',
    async (missing) => {
      const headers = Object.fromEntries(Object.entries(full()).filter(([name]) => name !== missing))
      expectError(await validate(headers), 401, 'PRODUCT_CREDENTIAL_INVALID')
      expectError(
        await emu.request('POST', '/api/license/v1/activate', {
          headers,
          body: { license_key: licenseKey, instance_id: 'no-headers' }
        }),
        401,
        'PRODUCT_CREDENTIAL_INVALID'
      )
      expectError(
        await emu.request('POST', '/api/license/v1/deactivate', {
          headers,
          body: { license_key: licenseKey, instance_id: 'no-headers' }
        }),
        401,
        'PRODUCT_CREDENTIAL_INVALID'
      )
    }
  )

  it('no headers at all, or empty ones: 401 PRODUCT_CREDENTIAL_INVALID', async () => {
    expectError(await validate({}), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(
      await validate({ 'x-svc-app-id': ' ', 'x-svc-plugin-key': ' ', 'x-svc-plugin-secret': ' ' }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
  })

  it.each<[string, () => Record<string, string>]>([
    ['a wrong secret', () => ({ 'x-svc-plugin-secret': 'sk_wrongwrongwrongwrongwrong00' })],
    ['an unknown key', () => ({ 'x-svc-plugin-key': 'pk_unknownunknownunknown0000' })],
    ['an App ID of another product', () => ({ 'x-svc-app-id': 'app_someotherappid0000' })],
    ['the key in the secret slot', () => ({ 'x-svc-plugin-secret': credential.pluginKey })],
    ['the secret in the key slot', () => ({ 'x-svc-plugin-key': credential.pluginSecret })]
  ])('%s: 401 PRODUCT_CREDENTIAL_INVALID', async (_label, override) => {
    expectError(await validate({ ...full(), ...override() }), 401, 'PRODUCT_CREDENTIAL_INVALID')
  })

  it('compatibility: the plugin key as x-svc-api-key', async () => {
    const ok = await validate({
      'x-svc-app-id': credential.appId,
      'x-svc-api-key': credential.pluginKey,
      'x-svc-plugin-secret': credential.pluginSecret
    })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.code).toBe('VALID')
  })

  it('compatibility: the plugin key as a Bearer value', async () => {
    const ok = await validate({
      'x-svc-app-id': credential.appId,
      authorization: `Bearer ${credential.pluginKey}`,
      'x-svc-plugin-secret': credential.pluginSecret
    })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.code).toBe('VALID')
    const activated = await emu.request('POST', '/api/license/v1/activate', {
      headers: {
        'x-svc-app-id': credential.appId,
        authorization: `Bearer ${credential.pluginKey}`,
        'x-svc-plugin-secret': credential.pluginSecret
      },
      body: { license_key: licenseKey, instance_id: 'bearer-machine' }
    })
    expect(activated.status, activated.text).toBe(201)
  })

  it('a compatibility form still needs the App ID and the secret', async () => {
    expectError(
      await validate({ 'x-svc-api-key': credential.pluginKey, 'x-svc-plugin-secret': credential.pluginSecret }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
    expectError(
      await validate({ authorization: `Bearer ${credential.pluginKey}`, 'x-svc-app-id': credential.appId }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
    // A Bearer value that is not a plugin key is no key at all.
    expectError(
      await validate({
        authorization: `Bearer ${credential.developer.token}`,
        'x-svc-app-id': credential.appId,
        'x-svc-plugin-secret': credential.pluginSecret
      }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
  })

  it("a successful call sets the credential's lastUsedAt to the emulator's now; a refused call does not", async () => {
    const own = await productWithCredential(emu, 'Last Used Limiter')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, own.productId)).license.key
    const api = managementClient(emu, own.developer.token)
    expect((await api.get(own.productId)).body.credential.lastUsedAt).toBeNull()

    clock.setOffsetMs(90 * 60 * 1000)
    try {
      expect((await pluginClient(emu, own).validate(key)).status).toBe(200)
      expect((await api.get(own.productId)).body.credential.lastUsedAt).toBe('2034-02-03T05:35:06.000Z')

      clock.setOffsetMs(3 * 60 * 60 * 1000)
      expect((await pluginClient(emu, own).activate(key, 'later-machine')).status).toBe(201)
      expect((await api.get(own.productId)).body.credential.lastUsedAt).toBe('2034-02-03T07:05:06.000Z')

      clock.setOffsetMs(5 * 60 * 60 * 1000)
      expect(
        (await pluginClient(emu, { ...own, pluginSecret: 'sk_wrongwrongwrongwrongwrong00' }).validate(key)).status
      ).toBe(401)
      expect((await api.get(own.productId)).body.credential.lastUsedAt).toBe('2034-02-03T07:05:06.000Z')
    } finally {
      clock.setOffsetMs(0)
    }
  })
})

describe('/api/license/v1/*: rotated and revoked credentials', () => {
  const emu = useEmulator()

  it('after rotate-key the old credential is refused and the new one works, with the same App ID', async () => {
    const credential = await productWithCredential(emu, 'Rotated Resonator')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, credential.productId)).license.key
    expect((await pluginClient(emu, credential).validate(key)).status).toBe(200)

    const rotated = await managementClient(emu, credential.developer.token).act(credential.productId, 'rotate-key')
    expect(rotated.status, rotated.text).toBe(201)
    const fresh = {
      ...credential,
      pluginKey: rotated.body.one_time_reveal.pluginKey,
      pluginSecret: rotated.body.one_time_reveal.pluginSecret
    }
    expect(rotated.body.one_time_reveal.appId).toBe(credential.appId)

    expectError(await pluginClient(emu, credential).validate(key), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(await pluginClient(emu, credential).activate(key, 'old-package'), 401, 'PRODUCT_CREDENTIAL_INVALID')
    // Old key with new secret, new key with old secret: neither.
    expectError(
      await pluginClient(emu, { ...credential, pluginSecret: fresh.pluginSecret }).validate(key),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
    expectError(
      await pluginClient(emu, { ...fresh, pluginSecret: credential.pluginSecret }).validate(key),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
    const ok = await pluginClient(emu, fresh).validate(key)
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.code).toBe('VALID')
  })

  it('after rotate-secret the old credential is refused', async () => {
    const credential = await productWithCredential(emu, 'Secret Shifter')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, credential.productId)).license.key
    const rotated = await managementClient(emu, credential.developer.token).act(credential.productId, 'rotate-secret')
    expect(rotated.status).toBe(201)
    expectError(await pluginClient(emu, credential).validate(key), 401, 'PRODUCT_CREDENTIAL_INVALID')
    const fresh = {
      ...credential,
      pluginKey: rotated.body.one_time_reveal.pluginKey,
      pluginSecret: rotated.body.one_time_reveal.pluginSecret
    }
    expect((await pluginClient(emu, fresh).validate(key)).status).toBe(200)
  })

  it('after revoke every licensing route refuses the credential', async () => {
    const credential = await productWithCredential(emu, 'Revoked Rompler')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, credential.productId)).license.key
    const plugin = pluginClient(emu, credential)
    expect((await plugin.activate(key, 'before-revoke')).status).toBe(201)
    const revoked = await managementClient(emu, credential.developer.token).act(credential.productId, 'revoke')
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked).toBe(true)
    expectError(await plugin.validate(key), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(await plugin.activate(key, 'after-revoke'), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(await plugin.deactivate(key, 'before-revoke'), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(await plugin.call('library-token', { license_key: key }), 401, 'PRODUCT_CREDENTIAL_INVALID')
    expectError(await plugin.call('webview-library', { license_key: key }), 401, 'PRODUCT_CREDENTIAL_INVALID')
  })
})

describe('/api/license/v1/*: a custom header prefix', () => {
  const emu = useEmulator({ headerPrefix: 'acme' })

  it('takes x-acme-* headers and no longer the x-svc-* ones', async () => {
    const credential = await productWithCredential(emu, 'Acme Autopan')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, credential.productId)).license.key

    const acme = pluginClient(emu, credential, 'acme')
    expect(Object.keys(acme.headers).sort()).toEqual(['x-acme-app-id', 'x-acme-plugin-key', 'x-acme-plugin-secret'])
    const activated = await acme.activate(key, 'acme-machine')
    expect(activated.status, activated.text).toBe(201)
    expect((await acme.validate(key, 'acme-machine')).body.code).toBe('VALID')

    expectError(await pluginClient(emu, credential, 'svc').validate(key), 401, 'PRODUCT_CREDENTIAL_INVALID')

    // The compatibility form follows the prefix too.
    const apiKey = await emu.request('POST', '/api/license/v1/validate', {
      headers: {
        'x-acme-app-id': credential.appId,
        'x-acme-api-key': credential.pluginKey,
        'x-acme-plugin-secret': credential.pluginSecret
      },
      body: { license_key: key }
    })
    expect(apiKey.status, apiKey.text).toBe(200)
    const svcApiKey = await emu.request('POST', '/api/license/v1/validate', {
      headers: {
        'x-acme-app-id': credential.appId,
        'x-svc-api-key': credential.pluginKey,
        'x-acme-plugin-secret': credential.pluginSecret
      },
      body: { license_key: key }
    })
    expectError(svcApiKey, 401, 'PRODUCT_CREDENTIAL_INVALID')
  })

  it('header names are case-insensitive, as HTTP says', async () => {
    const credential = await productWithCredential(emu, 'Case Chorus')
    const customer = await createCustomer(emu)
    const key = (await purchase(emu, customer.id, credential.productId)).license.key
    const ok = await emu.request('POST', '/api/license/v1/validate', {
      headers: {
        'X-ACME-App-Id': credential.appId,
        'X-Acme-Plugin-Key': credential.pluginKey,
        'X-Acme-Plugin-Secret': credential.pluginSecret
      },
      body: { license_key: key }
    })
    expect(ok.status, ok.text).toBe(200)
  })
})
