import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { SUBSCRIPTION_ACTIONS } from '../../src/shared/contract/subscriptions'
import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'

// `availableActions` on the control plane's subscription answer is what the UI offers: it must be
// exactly the set of actions the server then accepts (200), the rest answering 409.
describe('a subscription answer lists the actions the server accepts', () => {
  let emu: TestEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => emu.close())

  const loadPreset = async () => expect((await emu.control('POST', '/presets/subscription-lifecycle')).status).toBe(200)
  const standingOf = (id: string) => emu.control('GET', `/subscriptions/${id}`)

  // The subscription-lifecycle preset has one subscription per state (docs/api.md section 6).
  const expected: Record<string, { state: string; actions: string[] }> = {
    sub_demo_1: {
      state: 'active, renewing',
      actions: ['renew-now', 'cancel', 'resume', 'payment-fails', 'payment-succeeds']
    },
    sub_demo_2: { state: 'active, set to cancel', actions: ['renew-now', 'cancel', 'resume', 'payment-succeeds'] },
    sub_demo_3: { state: 'past_due', actions: ['renew-now', 'payment-fails', 'payment-succeeds'] },
    sub_demo_4: { state: 'canceled', actions: ['renew-now'] },
    sub_demo_5: { state: 'expired', actions: ['renew-now'] }
  }

  for (const [id, { state, actions }] of Object.entries(expected)) {
    it(`${id} (${state}): lists ${actions.join(', ')}, and exactly those answer 200`, async () => {
      await loadPreset()
      const read = await standingOf(id)
      expect(read.status).toBe(200)
      expect(read.body.availableActions).toEqual(actions)
      for (const action of SUBSCRIPTION_ACTIONS) {
        await loadPreset()
        const acted = await emu.control('POST', `/subscriptions/${id}/${action}`)
        expect({ action, status: acted.status }).toEqual({ action, status: actions.includes(action) ? 200 : 409 })
        if (acted.status === 409) expect(acted.body.error).toBe('SUBSCRIPTION_STATE_CONFLICT')
      }
    })
  }

  it('offers cancel again once set to cancel: the repeat answers 200 and changes nothing', async () => {
    await loadPreset()
    const first = await emu.control('POST', '/subscriptions/sub_demo_1/cancel')
    expect(first.status).toBe(200)
    expect(first.body.standing).toMatchObject({ state: 'active', cancelAtPeriodEnd: true, renewsAt: null })
    expect(first.body.availableActions).toContain('cancel')
    expect(first.body.availableActions).not.toContain('payment-fails')

    const repeat = await emu.control('POST', '/subscriptions/sub_demo_1/cancel')
    expect(repeat.status).toBe(200)
    expect(repeat.body.subscription).toEqual(first.body.subscription)
    expect(repeat.body.availableActions).toEqual(first.body.availableActions)
  })
})
