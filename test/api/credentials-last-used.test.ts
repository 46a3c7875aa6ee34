import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// lastUsedAt: set by a successful verification, on the emulator clock; a failed one leaves it alone.
describe('lastUsedAt of a product credential', () => {
  // A frozen base time, moved only by the test: every timestamp below is exact.
  const base = Date.parse('2031-03-04T05:06:07.000Z')
  const clock = createClock(() => base)
  const emulator = useEmulator({ clock })

  it('is null until used, then the time of the last successful verification', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    expect(issued.credential.lastUsedAt).toBeNull()

    const first = await verifyConnection(emulator, verifyBody(product.id, issued.material))
    expect(first.status).toBe(200)
    expect(first.body.connection.verifiedAt).toBe('2031-03-04T05:06:07.000Z')
    expect((await api.get(product.id)).body.credential.lastUsedAt).toBe('2031-03-04T05:06:07.000Z')

    clock.setOffsetMs(60 * 60 * 1000)
    expect((await verifyConnection(emulator, verifyBody(product.id, issued.material))).status).toBe(200)
    expect((await api.get(product.id)).body.credential.lastUsedAt).toBe('2031-03-04T06:06:07.000Z')

    clock.setOffsetMs(2 * 60 * 60 * 1000)
    const failed = await verifyConnection(emulator, {
      ...verifyBody(product.id, issued.material),
      pluginSecret: 'sk_wrongwrongwrongwrongwrong'
    })
    expect(failed.status).toBe(401)
    expect((await api.get(product.id)).body.credential.lastUsedAt).toBe('2031-03-04T06:06:07.000Z')
  })
})
