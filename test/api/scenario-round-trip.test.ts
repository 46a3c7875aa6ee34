import { describe, expect, it } from 'vitest'

import { createCustomer, purchase } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// Scenario = the whole state (docs/api.md section 6): data, audit trail, connection records,
// clock, fault rules, settings, and the request log on request.

const emu = useEmulator()

const DAY_S = 24 * 60 * 60

describe('a scenario reproduces the state it captured', () => {
  it('export, reset, import, export gives the same document, and licensing answers the same at the moved clock', async () => {
    const credential = await productWithCredential(emu, 'Lapsing Synth')
    const verified = await emu.request('POST', '/api/plugin-connections/verify', {
      body: {
        productId: credential.productId,
        appId: credential.appId,
        pluginKey: credential.pluginKey,
        pluginSecret: credential.pluginSecret
      }
    })
    expect(verified.status).toBe(200)
    const customer = await createCustomer(emu)
    const trial = await purchase(emu, customer.id, credential.productId, { kind: 'trial' })
    const subscription = await purchase(emu, customer.id, credential.productId, { kind: 'subscription' })
    expect((await emu.control('POST', `/subscriptions/${subscription.subscription?.id}/cancel`)).status).toBe(200)
    const plugin = pluginClient(emu, credential)
    expect((await plugin.activate(subscription.license.key, 'rt-machine')).status).toBe(201)

    expect((await emu.control('PUT', '/clock', { offsetS: 60 * DAY_S })).status).toBe(200)
    expect(
      (await emu.control('PUT', '/faults', { rules: [{ route: '/api/downloads/**', kind: 'latency', ms: 250 }] }))
        .status
    ).toBe(200)
    expect((await emu.control('PUT', '/settings', { subscriptionGraceDays: 3 })).status).toBe(200)

    const answersBefore = [
      (await plugin.validate(trial.license.key)).body.code,
      (await plugin.validate(subscription.license.key, 'rt-machine')).body.code
    ]
    expect(answersBefore).not.toContain('VALID')

    const exported = await emu.control('GET', '/state?includeRequests=1')
    expect(exported.status).toBe(200)
    const document = exported.body.state
    expect(document.version).toBe(2)
    expect(document.clock).toEqual({ offsetS: 60 * DAY_S })
    expect(document.settings).toMatchObject({ subscriptionGraceDays: 3, headerPrefix: 'svc', strict: false })
    expect(document.faults).toEqual([expect.objectContaining({ route: '/api/downloads/**', kind: 'latency', ms: 250 })])
    expect(document.connectionStatuses).toEqual([
      expect.objectContaining({ productId: credential.productId, lastStatus: 'verified' })
    ])
    expect(document.credentialAudit.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(['create', 'verify'])
    )
    expect(document.requests.length).toBeGreaterThan(0)
    // Secrets never reach an export, the request log included.
    expect(exported.text).not.toContain(credential.pluginKey)
    expect(exported.text).not.toContain(credential.pluginSecret)
    expect(exported.text).not.toContain(emu.adminToken)

    expect((await emu.control('POST', '/reset')).status).toBe(200)
    const afterReset = await emu.control('GET', '/state')
    expect(afterReset.body.state.clock).toEqual({ offsetS: 0 })
    expect(afterReset.body.state.faults).toEqual([])
    expect(afterReset.body.state.products).toEqual([])

    const imported = await emu.control('PUT', '/state', document)
    expect(imported.status).toBe(200)
    expect(imported.body.imported).toMatchObject({
      credentialAudit: document.credentialAudit.length,
      connectionStatuses: 1
    })
    // Before any new request is logged: the same document, byte for byte.
    const again = await emu.control('GET', '/state?includeRequests=1')
    expect(again.text).toBe(exported.text)

    const answersAfter = [
      (await plugin.validate(trial.license.key)).body.code,
      (await plugin.validate(subscription.license.key, 'rt-machine')).body.code
    ]
    expect(answersAfter).toEqual(answersBefore)
  })

  it('imports a version 1 file (data only): the clock goes back to the system time and the fault rules go', async () => {
    await emu.control('PUT', '/clock', { offsetS: 5 * DAY_S })
    await emu.control('PUT', '/faults', { rules: [{ route: '/api/**', kind: 'latency', ms: 10 }] })
    const v1 = {
      format: 'plugin-license-emulator/scenario',
      version: 1,
      developers: [{ id: 'dev_v1', email: 'v1@example.test', createdAt: '2026-01-01T00:00:00Z' }]
    }
    const imported = await emu.control('PUT', '/state', v1)
    expect(imported.status).toBe(200)
    const state = (await emu.control('GET', '/state')).body.state
    expect(state.version).toBe(2)
    expect(state.developers).toHaveLength(1)
    expect(state.clock).toEqual({ offsetS: 0 })
    expect(state.faults).toEqual([])
  })

  it('refuses a bad fault rule or clock in a scenario with the path, and changes nothing', async () => {
    const before = (await emu.control('GET', '/state')).text
    const badRule = await emu.control('PUT', '/state', {
      format: 'plugin-license-emulator/scenario',
      version: 2,
      faults: [{ route: '/api/**', kind: 'latency', status: 500 }]
    })
    expect(badRule.status).toBe(400)
    expect(badRule.body.message).toContain('/faults/0/status')
    const bothClocks = await emu.control('PUT', '/state', {
      format: 'plugin-license-emulator/scenario',
      version: 2,
      clock: { offsetS: 1, now: '2026-01-01T00:00:00Z' }
    })
    expect(bothClocks.status).toBe(400)
    expect(bothClocks.body.message).toContain('/clock')
    expect((await emu.control('GET', '/state')).text).toBe(before)
  })

  it('a preset load replaces the request log, the clock and the fault rules, as it says', async () => {
    await emu.request('GET', '/.well-known/jwks.json')
    await emu.control('PUT', '/clock', { offsetS: DAY_S })
    await emu.control('PUT', '/faults', { rules: [{ route: '/api/**', kind: 'latency', ms: 10 }] })
    expect((await emu.control('POST', '/presets/full-library')).status).toBe(200)
    emu.app.core.requests.flush()
    expect((await emu.control('GET', '/requests')).body.requests).toEqual([])
    expect((await emu.control('GET', '/clock')).body.offsetS).toBe(0)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
  })
})
