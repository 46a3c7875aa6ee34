import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, purchase } from '../support/commerce'
import { databaseFileBytes } from '../support/database'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// docs/api.md "Request inspector": an entry keeps each license token its bodies carried as its
// decoded header and claims; the signature, and so the token, stays out of everything it stores or answers.

const segmentJson = (token: string, index: number): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8'))

describe('license tokens in the request inspector', () => {
  const emu = useEmulator()
  let credential: PluginCredential
  let licenseKey: string

  beforeAll(async () => {
    credential = await productWithCredential(emu, 'Token Synth')
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, credential.productId, { maxActivations: 2 })).license.key
  })

  it('answers the header and claims of the token an activate and a validate returned, and never the token', async () => {
    await emu.control('DELETE', '/requests')
    const plugin = pluginClient(emu, credential)
    const activated = await plugin.activate(licenseKey, 'token-mac')
    const validated = await plugin.validate(licenseKey, 'token-mac', 'nonce-decoded')
    const tokens = [String(activated.body.license_token), String(validated.body.license_token)]
    for (const token of tokens) expect(token.split('.')).toHaveLength(3)

    emu.app.core.requests.flush()
    const listed = await emu.control('GET', '/requests?surface=license-v1')
    const ids = (listed.body.requests as { id: number; path: string }[]).map((row) => row.id).reverse()
    expect(ids).toHaveLength(2)
    const entries = await Promise.all(ids.map((id) => emu.control('GET', `/requests/${id}`)))
    const kids = ((await emu.request('GET', '/.well-known/jwks.json')).body.keys as { kid: string }[]).map(
      (key) => key.kid
    )
    entries.forEach((answer, index) => {
      expect(answer.status).toBe(200)
      const token = tokens[index] as string
      expect(answer.body.entry.response.licenseTokens).toEqual([
        { field: 'license_token', header: segmentJson(token, 0), claims: segmentJson(token, 1) }
      ])
      expect(answer.body.entry.request.licenseTokens).toBeUndefined()
    })
    const validateClaims = entries[1]?.body.entry.response.licenseTokens[0].claims
    const header = entries[1]?.body.entry.response.licenseTokens[0].header
    expect(header).toEqual({ alg: 'EdDSA', kid: header.kid, typ: 'license+jwt' })
    expect(kids).toContain(header.kid)
    expect(validateClaims).toMatchObject({
      aud: credential.appId,
      nonce: 'nonce-decoded',
      instance_id: 'token-mac',
      product_id: credential.productId,
      license: { max_activations: 2, activation_count: 1 }
    })
    expect(typeof validateClaims.exp).toBe('number')

    // The canary: neither a token nor its signature segment in the entries, the HAR, or the file and its WAL.
    const har = await emu.control('GET', '/requests/har?surface=license-v1')
    expect(har.status).toBe(200)
    const places = {
      entries: entries.map((answer) => answer.text).join('\n'),
      har: har.text,
      database: databaseFileBytes(emu.databasePath).toString('latin1')
    }
    for (const token of tokens) {
      for (const [place, text] of Object.entries(places)) {
        expect(text.includes(token), `a license token in the ${place}`).toBe(false)
        expect(text.includes(token.split('.')[2] as string), `a signature in the ${place}`).toBe(false)
      }
    }
  })

  it('documents licenseTokens in the OpenAPI document', async () => {
    const document = (await emu.request('GET', '/openapi.json')).text
    expect(document).toContain('"licenseTokens"')
    expect(document).toContain('"DecodedLicenseToken"')
  })
})
