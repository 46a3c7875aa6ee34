import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, libraryTokenOf, purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator, withEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// Unknown names are ignored, not refused (docs/api.md section 8): the exchange is marked in the
// request inspector with a warning per ignored name; a 400 for a missing field names a close one;
// the control plane refuses them.
describe('unknown query parameters and body fields', () => {
  let product: Awaited<ReturnType<typeof productWithCredential>>
  let token: string
  let licenseKey: string

  const emu = useEmulator()
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Tolerant Tape')
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, product.productId)).license.key
    token = await libraryTokenOf(emu, customer.id)
  })

  /** The inspector's entry of the newest request to `pathStart`. */
  async function lastEntry(pathStart: string): Promise<Record<string, any>> {
    emu.app.core.requests.flush()
    const listed = await emu.control('GET', '/requests?limit=50')
    const summary = (listed.body.requests as { id: number; path: string }[]).find((e) => e.path.startsWith(pathStart))
    expect(summary, pathStart).toBeDefined()
    const entry = await emu.control('GET', `/requests/${summary?.id}`)
    expect(entry.status).toBe(200)
    return entry.body.entry
  }

  it('GET /api/library with a cache buster and utm tags answers 200 and the inspector names each ignored parameter', async () => {
    const result = await emu.request('GET', `/api/library?token=${token}&_=123&utm_source=mail&utm_campaign=spring`)
    expect(result.status, result.text).toBe(200)
    const entry = await lastEntry('/api/library?')
    expect(entry.request.warnings).toEqual([
      'Ignored unknown query parameter "_".',
      'Ignored unknown query parameter "utm_source".',
      'Ignored unknown query parameter "utm_campaign".'
    ])
  })

  it('an unknown body field on validate is ignored; the inspector still shows the body as sent', async () => {
    const result = await pluginClient(emu, product).call('validate', {
      license_key: licenseKey,
      client_build: 'nightly'
    })
    expect(result.status, result.text).toBe(200)
    expect(result.body.ok).toBe(true)
    const entry = await lastEntry('/api/license/v1/validate')
    expect(entry.request.warnings).toEqual(['Ignored unknown body field "client_build".'])
    expect(entry.request.body.client_build).toBe('nightly')
  })

  it('a well-formed request carries no warnings', async () => {
    expect((await emu.request('GET', '/api/library', { token })).status).toBe(200)
    const entry = await lastEntry('/api/library')
    expect(entry.request.warnings).toBeUndefined()
  })

  it.each([
    ['licence_key', 'a spelling'],
    ['licenseKey', 'another case'],
    ['license-key', 'another separator']
  ])('a missing license_key with %s sent (%s) says "did you mean `license_key`?"', async (sent) => {
    const result: HttpResult = await pluginClient(emu, product).call('validate', { [sent]: licenseKey })
    expectError(result, 400, 'VALIDATION_ERROR')
    expect(result.body.message).toContain('did you mean `license_key`?')
    expect(result.body.message).toContain(sent)
  })

  it('license_key sent in the query to a body-only endpoint says to send it in the body, not "did you mean license_key"', async () => {
    const { headers } = pluginClient(emu, product)
    const result: HttpResult = await emu.request('POST', `/api/license/v1/validate?license_key=${licenseKey}`, {
      body: {},
      headers
    })
    expectError(result, 400, 'VALIDATION_ERROR')
    expect(result.body.message).toBe(
      'Missing required field "license_key" in the body: it came in the query, which this endpoint does not read; send it in the body.'
    )
  })

  it('a missing field with no close ignored name keeps the plain message', async () => {
    const result = await pluginClient(emu, product).call('validate', { something_else: 'x' })
    expectError(result, 400, 'VALIDATION_ERROR')
    expect(result.body.message).toBe('Missing required field "license_key" in the body.')
  })

  it('an invalid value of a known field stays 400, whatever else is sent', async () => {
    const result = await emu.request(
      'GET',
      `/api/library?token=${token}&instance_id=${'i'.repeat(300)}&utm_source=mail`
    )
    expectError(result, 400, 'VALIDATION_ERROR')
  })

  it('the control plane stays strict: an unknown field in a document is named in a 400', async () => {
    const customer = await emu.control('POST', '/customers', { email: 'strict@example.test', nmae: 'Typo' })
    expectError(customer, 400, 'VALIDATION_ERROR')
    expect(customer.body.message).toContain('nmae')
    const faults = await emu.control('PUT', '/faults', {
      rules: [{ route: '/api/library', kind: 'latency', ms: 10, propability: 0.5 }]
    })
    expectError(faults, 400, 'VALIDATION_ERROR')
  })
})

describe('claim: a misspelt claim token name', () => {
  it('answers 400 LIBRARY_CLAIM_FAILED naming the field it meant', async () => {
    await withEmulator(async (emu) => {
      const customer = await createCustomer(emu)
      const session = (await emu.control('POST', `/customers/${customer.id}/session`)).body.token as string
      const result = await emu.request('POST', '/api/library/claim', { token: session, body: { claimToken: 'abc' } })
      expectError(result, 400, 'LIBRARY_CLAIM_FAILED')
      expect(result.body.reason).toBe('INVALID_CLAIM_TOKEN')
      expect(result.body.message).toContain('did you mean `claim_token`?')
      const plain = await emu.request('POST', '/api/library/claim', { token: session, body: {} })
      expect(plain.body.message).toBe('Send the claim token as `claim` or `claim_token`.')
    })
  })
})
