import type { HttpResult, TestEmulator } from './emulator'

export interface PluginCredential {
  productId: string
  appId: string
  pluginKey: string
  pluginSecret: string
}

/** What a plugin does: calls /api/license/v1/* with the three product credential headers. */
export function pluginClient(emu: TestEmulator, credential: PluginCredential, prefix = 'svc') {
  const headers = {
    [`x-${prefix}-app-id`]: credential.appId,
    [`x-${prefix}-plugin-key`]: credential.pluginKey,
    [`x-${prefix}-plugin-secret`]: credential.pluginSecret
  }
  const call = (path: string, body: unknown): Promise<HttpResult> =>
    emu.request('POST', `/api/license/v1/${path}`, { body, headers })
  return {
    headers,
    activate: (licenseKey: string, instanceId: string, extra: Record<string, string> = {}) =>
      call('activate', { license_key: licenseKey, instance_id: instanceId, ...extra }),
    validate: (licenseKey: string, instanceId?: string, nonce?: string) =>
      call('validate', {
        license_key: licenseKey,
        ...(instanceId ? { instance_id: instanceId } : {}),
        ...(nonce ? { nonce } : {})
      }),
    deactivate: (licenseKey: string, instanceId: string) =>
      call('deactivate', { license_key: licenseKey, instance_id: instanceId }),
    call
  }
}

/** A developer, a product and its first credential, as a plugin developer starts. */
export async function productWithCredential(
  emu: TestEmulator,
  name = 'Test Synth'
): Promise<PluginCredential & { developer: { id: string; token: string } }> {
  const developer = await emu.createDeveloper()
  const product = await emu.createProduct(developer.id, name)
  const created = await emu.request('POST', `/api/developer/plugin-keys/products/${product.id}`, {
    token: developer.token
  })
  if (created.status !== 201) throw new Error(`credential not created: ${created.text}`)
  const reveal = created.body.one_time_reveal
  return {
    developer,
    productId: product.id,
    appId: reveal.appId,
    pluginKey: reveal.pluginKey,
    pluginSecret: reveal.pluginSecret
  }
}
