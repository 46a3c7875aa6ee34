import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { getLibrary, libraryTokenOf } from '../support/commerce'
import { startEmulator, useEmulator, withEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

const ciScenario = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'resources', 'scenarios', 'ci.json'), 'utf8')
) as Record<string, any>
const SUBSCRIPTION_KEY = 'CI002-SUBSC-RIPTI-ON000-00002'
const credential: PluginCredential = {
  productId: ciScenario.products[0].id,
  appId: ciScenario.products[0].appId,
  pluginKey: ciScenario.credentials[0].pluginKey,
  pluginSecret: ciScenario.credentials[0].pluginSecret
}

// docs/upstream.md "Record, replay, reproduce", step 5: a subscription license recorded through the
// proxy keeps its subscription in the made scenario, so the imported license answers the same
// subscription_status and lapses with its subscription as on the platform (the ci scenario).
describe('making a scenario from a recording of a subscription license', () => {
  let platform: TestEmulator
  const proxy = useEmulator()

  beforeAll(async () => {
    platform = await startEmulator()
    expect((await platform.control('PUT', '/state', ciScenario)).status).toBe(200)
    await proxy.control('PUT', '/upstream', { url: platform.baseUrl })
  })

  afterAll(async () => {
    await platform.close()
  })

  /** Records `calls` through the proxy; returns the recording's id and each call's answer. */
  async function record(name: string, calls: (() => Promise<{ status: number; body: any }>)[]) {
    const started = await proxy.control('POST', '/recordings', { name })
    const id = started.body.recording.id as string
    const answers = []
    for (const call of calls) answers.push(await call())
    for (let i = 0; i < 100; i++) {
      const recording = (await proxy.control('GET', `/recordings/${id}`)).body.recording
      if (recording.exchanges.length >= calls.length) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await proxy.control('POST', `/recordings/${id}/stop`)
    return { id, answers }
  }

  async function makeScenario(recordingId: string) {
    const made = await proxy.control('POST', `/recordings/${recordingId}/scenario`, {
      pluginKey: credential.pluginKey,
      pluginSecret: credential.pluginSecret
    })
    expect(made.status, made.text).toBe(200)
    const scenario = made.body.scenario as Record<string, any>
    const license = scenario.licenses.find((row: any) => row.key === SUBSCRIPTION_KEY)
    const subscription = scenario.subscriptions.find((row: any) => row.id === license?.subscriptionId)
    return { made: made.body, license, subscription, notes: made.body.notes as { field: string; note: string }[] }
  }

  /** Fails the subscription's payment and moves the clock past the grace period, as QA does. */
  async function lapse(emu: TestEmulator, subscriptionId: string) {
    expect((await emu.control('POST', `/subscriptions/${subscriptionId}/payment-fails`)).status).toBe(200)
    expect((await emu.control('PUT', '/clock', { offsetS: 8 * 86_400 })).status).toBe(200)
  }

  it('makes the subscription from the license answer alone, and the imported license lapses with it', async () => {
    const plugin = pluginClient(proxy, credential)
    const { id, answers } = await record('subscription, licensing only', [
      () => plugin.activate(SUBSCRIPTION_KEY, 'machine-1'),
      () => plugin.validate(SUBSCRIPTION_KEY, 'machine-1', 'nonce-1')
    ])
    expect(answers.map((answer) => answer.status)).toEqual([201, 200])
    expect(answers[0]?.body.license.subscription_status).toBe('active')

    const { made, license, subscription, notes } = await makeScenario(id)
    expect(license.subscriptionId).toEqual(expect.any(String))
    expect(subscription).toMatchObject({
      productId: credential.productId,
      customerId: license.customerId,
      status: 'active',
      // The recorded answer's expires_at: the end of the subscription's paid period.
      currentPeriodEnd: answers[0]?.body.license.expires_at
    })
    const fields = notes.map((note) => note.field)
    expect(fields).toContain(`subscriptions[${subscription.id}]`)
    expect(fields).toContain(`subscriptions[${subscription.id}].plan`)

    await withEmulator(async (fresh) => {
      expect((await fresh.control('PUT', '/state', made)).status).toBe(200)
      const activated = await pluginClient(fresh, credential).activate(SUBSCRIPTION_KEY, 'machine-1')
      expect(activated.status).toBe(201)
      expect(activated.body.license.subscription_status).toBe('active')
      expect(activated.body.license.expires_at).toBe(answers[0]?.body.license.expires_at)
      await lapse(fresh, subscription.id)
      const validated = await pluginClient(fresh, credential).validate(SUBSCRIPTION_KEY, 'machine-1')
      expect(validated.body.code).toBe('EXPIRED')
      expect(validated.body.license.subscription_status).toBe('expired')
    })
  })

  it("links the license to the library's subscription when the library answer was recorded", async () => {
    const libraryToken = await libraryTokenOf(platform, ciScenario.customers[0].id)
    const { id, answers } = await record('subscription with the library', [
      () => pluginClient(proxy, credential).validate(SUBSCRIPTION_KEY, 'machine-2', 'nonce-2'),
      () => getLibrary(proxy, libraryToken)
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])

    const { made, license, subscription, notes } = await makeScenario(id)
    expect(made.scenario.subscriptions).toHaveLength(1)
    // The library names the subscription: its id, plan and period are the platform's.
    expect(subscription).toMatchObject({ id: 'sub_demo', plan: 'monthly', status: 'active' })
    expect(subscription.currentPeriodEnd).toBe(answers[1]?.body.subscriptions[0].current_period_end)
    expect(notes.map((note) => note.field)).toContain(`licenses[${license.id}].subscriptionId`)

    await withEmulator(async (fresh) => {
      expect((await fresh.control('PUT', '/state', made)).status).toBe(200)
      const validated = await pluginClient(fresh, credential).validate(SUBSCRIPTION_KEY, 'machine-2')
      expect(validated.body.license.subscription_status).toBe('active')
      await lapse(fresh, 'sub_demo')
      expect((await pluginClient(fresh, credential).validate(SUBSCRIPTION_KEY, 'machine-2')).body.code).toBe('EXPIRED')
    })
  })

  it('keeps a past_due subscription past_due, with the grace end the platform answered', async () => {
    expect((await platform.control('POST', '/subscriptions/sub_demo/payment-fails')).status).toBe(200)
    const { id, answers } = await record('subscription past due', [
      () => pluginClient(proxy, credential).validate(SUBSCRIPTION_KEY, 'machine-3', 'nonce-3')
    ])
    const recorded = answers[0]?.body.license
    expect(recorded).toMatchObject({ subscription_status: 'past_due', grace_until: expect.any(String) })

    const { made, subscription, notes } = await makeScenario(id)
    expect(subscription).toMatchObject({ status: 'past_due', paymentFailedAt: expect.any(String) })
    expect(notes.map((note) => note.field)).toContain(`subscriptions[${subscription.id}].paymentFailedAt`)

    await withEmulator(async (fresh) => {
      expect((await fresh.control('PUT', '/state', made)).status).toBe(200)
      const validated = await pluginClient(fresh, credential).validate(SUBSCRIPTION_KEY, 'machine-3')
      expect(validated.body.code).toBe(answers[0]?.body.code)
      expect(validated.body.license).toMatchObject({
        subscription_status: 'past_due',
        grace_until: recorded.grace_until
      })
      expect((await fresh.control('PUT', '/clock', { offsetS: 8 * 86_400 })).status).toBe(200)
      expect((await pluginClient(fresh, credential).validate(SUBSCRIPTION_KEY, 'machine-3')).body.code).toBe('EXPIRED')
    })
  })
})
