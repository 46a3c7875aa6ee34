import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { credentialPath, CREDENTIALS_BASE, expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// An expired developer JWT: 401 TOKEN_EXPIRED, judged on the emulator clock (moved, never waited for).
describe('expired developer JWT', () => {
  const clock = createClock()
  const emulator = useEmulator({ clock })

  it('is accepted within its lifetime and answers 401 TOKEN_EXPIRED after it', async () => {
    clock.setOffsetMs(0)
    const developer = await emulator.createDeveloper()
    const product = await emulator.createProduct(developer.id)
    // A minute of lifetime: long enough that a loaded machine cannot cross it between calls.
    const session = await emulator.control('POST', `/developers/${developer.id}/session`, { ttlS: 60 })
    expect(session.status).toBe(200)
    const token = session.body.token as string

    expect((await emulator.request('GET', CREDENTIALS_BASE, { token })).status).toBe(200)

    clock.setOffsetMs(120_000)
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token }), 401, 'TOKEN_EXPIRED')
    expectError(await emulator.request('POST', credentialPath(product.id), { token, body: {} }), 401, 'TOKEN_EXPIRED')
    expectError(
      await emulator.request('POST', credentialPath(product.id, 'ensure'), { token, body: {} }),
      401,
      'TOKEN_EXPIRED'
    )
    expect((await emulator.control('GET', `/products/${product.id}/credentials`)).body.credentials).toEqual([])

    // Back in time it is valid again: expiry is read from the emulator clock, not the OS clock.
    clock.setOffsetMs(0)
    expect((await emulator.request('GET', CREDENTIALS_BASE, { token })).status).toBe(200)
  })

  it('reports expiresAt on the emulator clock', async () => {
    clock.setOffsetMs(24 * 60 * 60 * 1000)
    const developer = await emulator.createDeveloper()
    const session = await emulator.control('POST', `/developers/${developer.id}/session`, { ttlS: 600 })
    const expiresAt = Date.parse(session.body.expiresAt as string)
    // A day ahead of the OS clock, give or take the ten minutes of lifetime.
    expect(expiresAt - Date.now()).toBeGreaterThan(24 * 60 * 60 * 1000)
    clock.setOffsetMs(24 * 60 * 60 * 1000 + 601_000)
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token: session.body.token }), 401, 'TOKEN_EXPIRED')
  })
})
