import { describe, expect, it } from 'vitest'

import { licensingSuite } from '../support/licensing-suite'

// The licensing calls keep a license's row between requests (core/licensing/licensing-service.ts)
// until a data table other than a leaf one is written; its activations are read on every call.
// Each step validates a few times (the row is kept), changes the license through another surface
// (the control plane, a refund, a scenario, a plugin) and validates again straight away.
describe('licensing answers: never older than the last change to the license', () => {
  const suite = licensingSuite('2031-07-07T07:00:00.000Z', ['Fresh License Synth', 'Fresh License Drums'])

  const validate = async (key: string, instanceId?: string) => {
    const answer = await suite.plugin().validate(key, instanceId)
    expect(answer.status, answer.text).toBe(200)
    return answer.body
  }
  const validateTwice = async (key: string, instanceId?: string) => {
    await validate(key, instanceId)
    return validate(key, instanceId)
  }

  it('a suspension, a lowered limit and a reinstatement show on the very next validate', async () => {
    const bought = await suite.buy('perpetual', { maxActivations: 3 })
    expect((await suite.plugin().activate(bought.license.key, 'studio-a')).status).toBe(201)
    expect((await suite.plugin().activate(bought.license.key, 'studio-b')).status).toBe(201)
    expect((await validateTwice(bought.license.key, 'studio-a')).code).toBe('VALID')

    const patch = (body: Record<string, unknown>) => suite.emu.control('PATCH', `/licenses/${bought.license.id}`, body)
    expect((await patch({ status: 'suspended' })).status).toBe(200)
    expect((await validate(bought.license.key, 'studio-a')).code).toBe('SUSPENDED')

    expect((await patch({ status: 'active', maxActivations: 1 })).status).toBe(200)
    const over = await validate(bought.license.key, 'studio-a')
    expect(over.code).toBe('TOO_MANY_ACTIVATIONS')
    expect(over.license.max_activations).toBe(1)

    expect((await patch({ maxActivations: 5 })).status).toBe(200)
    const back = await validate(bought.license.key, 'studio-a')
    expect(back.code).toBe('VALID')
    expect(back.license.max_activations).toBe(5)
  })

  it('activations are counted fresh while the license row is kept', async () => {
    const bought = await suite.buy('perpetual', { maxActivations: 5 })
    expect((await suite.plugin().activate(bought.license.key, 'studio-a')).status).toBe(201)
    expect((await validateTwice(bought.license.key, 'studio-a')).license.activation_count).toBe(1)

    expect((await suite.plugin().activate(bought.license.key, 'studio-b')).status).toBe(201)
    expect((await validate(bought.license.key, 'studio-a')).license.activation_count).toBe(2)
    expect((await suite.plugin().deactivate(bought.license.key, 'studio-a')).status).toBe(200)
    const after = await validate(bought.license.key, 'studio-a')
    expect(after.code).toBe('NOT_ACTIVATED')
    expect(after.license.activation_count).toBe(1)
  })

  it('a refund revokes at once, and a scenario that drops the license makes its key unknown', async () => {
    const refunded = await suite.buy('perpetual')
    const dropped = await suite.buy('perpetual')
    expect((await validateTwice(refunded.license.key)).code).toBe('VALID')
    expect((await validateTwice(dropped.license.key)).code).toBe('VALID')

    expect((await suite.emu.control('POST', `/orders/${refunded.order.id}/refund`, {})).status).toBe(200)
    expect((await validate(refunded.license.key)).code).toBe('REVOKED')

    const exported = await suite.emu.control('GET', '/state')
    const state = exported.body.state as { licenses: Array<{ id: string }> }
    state.licenses = state.licenses.filter((license) => license.id !== dropped.license.id)
    expect((await suite.emu.control('PUT', '/state', state)).status).toBe(200)
    expect((await validate(dropped.license.key)).code).toBe('NOT_FOUND')
  })
})
