import { describe, expect, it } from 'vitest'

import { licensingSuite } from '../support/licensing-suite'

interface JudgedLicense {
  id: string
  key: string
  status: string
  state: string
  expiresAt: string | null
  maxActivations: number
}

// Issue 36: the support desk's daily case (free one seat, change the limit, set an expiry) over
// the control plane, and licenses answered with how they stand now rather than as stored.
describe('the control plane as a support desk uses it', () => {
  const suite = licensingSuite('2031-03-03T10:00:00.000Z', ['Desk Synth', 'Desk Drums'])

  it('lists each license with its standing now: a trial past its end reads TRIAL_EXPIRED while stored active', async () => {
    const trial = await suite.buy('trial', { expiresAt: '2031-03-10T10:00:00.000Z' })
    const listed = async () =>
      (
        await suite.emu.control<{ licenses: JudgedLicense[] }>('GET', `/licenses?productId=${suite.product.productId}`)
      ).body.licenses.find((license) => license.id === trial.license.id)
    expect((await listed())?.state).toBe('VALID')
    suite.clock.setNow(new Date('2031-03-11T10:00:00.000Z'))
    const after = await listed()
    expect(after?.status).toBe('active')
    expect(after?.state).toBe('TRIAL_EXPIRED')
    const ofCustomer = await suite.emu.control<{ licenses: JudgedLicense[] }>(
      'GET',
      `/customers/${suite.customerId}/licenses`
    )
    expect(ofCustomer.body.licenses.find((license) => license.id === trial.license.id)?.state).toBe('TRIAL_EXPIRED')
    suite.clock.setNow(new Date('2031-03-03T10:00:00.000Z'))
  })

  it('frees one seat by instance ID, as the plugin would, and says when that instance holds none', async () => {
    const bought = await suite.buy('perpetual', { maxActivations: 2 })
    expect((await suite.plugin().activate(bought.license.key, 'old-laptop')).status).toBe(201)
    expect((await suite.plugin().activate(bought.license.key, 'new-studio')).status).toBe(201)
    expect((await suite.plugin().activate(bought.license.key, 'third-box')).status).toBe(409)

    const freed = await suite.emu.control<{
      license: JudgedLicense
      activation: { instanceId: string; deactivatedAt: string }
    }>('POST', `/licenses/${bought.license.id}/deactivate`, { instanceId: 'old-laptop' })
    expect(freed.status, JSON.stringify(freed.body)).toBe(200)
    expect(freed.body.activation.instanceId).toBe('old-laptop')
    expect(freed.body.activation.deactivatedAt).toBe('2031-03-03T10:00:00.000Z')
    expect((await suite.plugin().activate(bought.license.key, 'third-box')).status).toBe(201)
    expect((await suite.plugin().validate(bought.license.key, 'old-laptop')).body.code).toBe('NOT_ACTIVATED')

    const again = await suite.emu.control<{ error: string }>('POST', `/licenses/${bought.license.id}/deactivate`, {
      instanceId: 'old-laptop'
    })
    expect(again.status).toBe(404)
    expect(again.body.error).toBe('NOT_ACTIVATED')
    const unknown = await suite.emu.control<{ error: string }>('POST', '/licenses/lic_nope/deactivate', {
      instanceId: 'old-laptop'
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toBe('LICENSE_NOT_FOUND')
    const empty = await suite.emu.control<{ error: string }>('POST', `/licenses/${bought.license.id}/deactivate`, {})
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('VALIDATION_ERROR')
  })

  it('changes the activation limit and sets the expiry to a date, answering the standing after', async () => {
    const bought = await suite.buy('perpetual', { maxActivations: 1 })
    const patch = (body: Record<string, unknown>) =>
      suite.emu.control<{ license: JudgedLicense }>('PATCH', `/licenses/${bought.license.id}`, body)
    const limit = await patch({ maxActivations: 4 })
    expect(limit.body.license.maxActivations).toBe(4)
    const past = await patch({ expiresAt: '2031-03-01T00:00:00Z' })
    expect(past.body.license.state).toBe('EXPIRED')
    const future = await patch({ expiresAt: '2031-12-31T00:00:00Z' })
    expect(future.body.license.state).toBe('VALID')
    expect(future.body.license.expiresAt).toBe('2031-12-31T00:00:00Z')
  })
})

describe('the claim link page says whether the link is valid', () => {
  const suite = licensingSuite('2031-04-04T10:00:00.000Z', ['Claim Page Synth', 'Claim Page Drums'])

  const page = async (query: string) => {
    const answer = await fetch(`${suite.emu.baseUrl}/api/library/claim${query}`, { headers: { accept: 'text/html' } })
    expect(answer.status).toBe(200)
    return answer.text()
  }

  it('valid, used, refunded or unknown, and never repeating the claim value', async () => {
    const order = await suite.emu.control<{ claimToken: string; order: { id: string } }>('POST', '/reseller-orders', {
      productId: suite.product.productId
    })
    const token = order.body.claimToken
    const valid = await page(`?claim=${encodeURIComponent(token)}`)
    expect(valid).toContain('data-claim-state="claimable"')
    expect(valid).not.toContain(token)
    expect(await page('?claim=clm_NotAClaimTokenAtAll000000')).toContain('This claim link is not valid')
    expect(await page('')).toContain('data-claim-state="unknown"')

    const session = await suite.emu.control<{ token: string }>('POST', `/customers/${suite.customerId}/session`)
    const claimed = await suite.emu.request('POST', '/api/library/claim', {
      token: session.body.token,
      body: { claim: token }
    })
    expect(claimed.status).toBe(200)
    expect(await page(`?claim_token=${encodeURIComponent(token)}`)).toContain('data-claim-state="claimed"')

    const other = await suite.emu.control<{ claimToken: string; order: { id: string } }>('POST', '/reseller-orders', {
      productId: suite.product.productId
    })
    expect((await suite.emu.control('POST', `/orders/${other.body.order.id}/refund`, {})).status).toBe(200)
    expect(await page(`?claim=${encodeURIComponent(other.body.claimToken)}`)).toContain('data-claim-state="reversed"')
  })
})
