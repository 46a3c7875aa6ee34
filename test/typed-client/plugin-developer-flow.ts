// The plugin developer's flow through a client generated from the served /openapi.json:
// openapi-typescript's types (./openapi.d.ts, generated beside this file by
// test/api/typed-client.test.ts) and openapi-fetch. Type-checked with tsc --strict before it runs:
// a document change that breaks generated clients fails here. Every call's auth goes through the
// generated security schemes' headers, as a client's would.
import createClient from 'openapi-fetch'

import type { paths } from './openapi'

export interface FlowResult {
  verified: boolean
  activated: boolean
  valid: boolean
  code: string
  deactivated: boolean
  revealedAppId: string
}

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: no data`)
  return value
}

export async function runPluginDeveloperFlow(baseUrl: string, adminToken: string): Promise<FlowResult> {
  const client = createClient<paths>({ baseUrl })
  const admin = { 'x-emulator-token': adminToken }

  const developer = must(
    (
      await client.POST('/_emulator/developers', {
        headers: admin,
        body: { email: 'typed@example.test', name: 'Typed' }
      })
    ).data,
    'developer'
  )
  const session = must(
    (
      await client.POST('/_emulator/developers/{id}/session', {
        headers: admin,
        params: { path: { id: developer.developer.id } }
      })
    ).data,
    'session'
  )
  const product = must(
    (
      await client.POST('/_emulator/products', {
        headers: admin,
        body: { developerId: developer.developer.id, name: 'Typed Synth' }
      })
    ).data,
    'product'
  )
  const bearer = { authorization: `Bearer ${session.token}` }
  const productId = product.product.id

  // No body: requestBody is optional here, so the generated type does not force `body: {}`.
  const created = await client.POST('/api/developer/plugin-keys/products/{productId}', {
    headers: bearer,
    params: { path: { productId } }
  })
  const reveal = must(created.data, 'credential').one_time_reveal
  if (!reveal) throw new Error('a new credential comes with its one-time reveal')

  const revealed = await client.POST('/api/developer/plugin-keys/products/{productId}/reveal-secret', {
    headers: bearer,
    params: { path: { productId } }
  })
  const revealedAppId = must(revealed.data, 'reveal').one_time_reveal.appId

  const verify = await client.POST('/api/plugin-connections/verify', {
    body: { productId, appId: reveal.appId, pluginKey: reveal.pluginKey, pluginSecret: reveal.pluginSecret }
  })
  // A refused verification is typed too: its reason is declared on the 401.
  if (verify.error) throw new Error(`verify failed: ${verify.error.error} ${verify.error.reason ?? ''}`)

  const customer = must(
    (await client.POST('/_emulator/customers', { headers: admin, body: { email: 'buyer@example.test' } })).data,
    'customer'
  )
  const purchase = must(
    (
      await client.POST('/_emulator/purchases', {
        headers: admin,
        body: { customerId: customer.customer.id, productId }
      })
    ).data,
    'purchase'
  )
  const licenseKey = purchase.license.key

  const plugin = {
    'x-svc-app-id': reveal.appId,
    'x-svc-plugin-key': reveal.pluginKey,
    'x-svc-plugin-secret': reveal.pluginSecret
  }
  const activate = await client.POST('/api/license/v1/activate', {
    headers: plugin,
    body: { license_key: licenseKey, instance_id: 'typed-machine' }
  })
  const validate = await client.POST('/api/license/v1/validate', {
    headers: plugin,
    body: { license_key: licenseKey, instance_id: 'typed-machine' }
  })
  const deactivate = await client.POST('/api/license/v1/deactivate', {
    headers: plugin,
    body: { license_key: licenseKey, instance_id: 'typed-machine' }
  })
  const validation = must(validate.data, 'validate')

  return {
    verified: must(verify.data, 'verify').verified,
    activated: must(activate.data, 'activate').activated,
    valid: validation.valid,
    code: validation.code,
    deactivated: must(deactivate.data, 'deactivate').deactivated,
    revealedAppId
  }
}
