import { describe, expect, it } from 'vitest'

import { createCustomer, purchase } from '../support/commerce'
import { startEmulator, useEmulator } from '../support/emulator'
import { openEventStream } from '../support/event-stream'
import type { StreamEvent } from '../support/event-stream'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// GET /_emulator/events (docs/api.md section 6): every change to state, whoever made it.

const emu = useEmulator()

type Change = { kind: string; entity?: string; id?: string | null; cause?: string }
const changesOf = (events: StreamEvent[]): Change[] =>
  events.flatMap((event) => (event.data as { changes: Change[] }).changes)
const has = (predicate: (change: Change) => boolean) => (events: StreamEvent[]) => changesOf(events).some(predicate)

describe('the change feed', () => {
  it('refuses a client without the admin token', async () => {
    const refused = await openEventStream(emu, '/_emulator/events', {})
    expect(refused.response.status).toBe(401)
    const wrong = await openEventStream(emu, '/_emulator/events?token=nope', {})
    expect(wrong.response.status).toBe(401)
  })

  it('announces control-plane writes with the entity and its id, and the clock, faults and settings', async () => {
    const stream = await openEventStream(emu, `/_emulator/events?token=${emu.adminToken}`, {})
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream')
    const developer = await emu.createDeveloper()
    await stream.until(
      has((change) => change.kind === 'entity' && change.entity === 'developer' && change.id === developer.id)
    )
    await emu.control('PUT', '/clock', { advanceS: 60 })
    await stream.until(has((change) => change.kind === 'clock'))
    await emu.control('PUT', '/faults', { rules: [{ route: '/api/**', kind: 'latency', ms: 1 }] })
    await stream.until(has((change) => change.kind === 'faults'))
    await emu.control('PUT', '/settings', { strict: true })
    await stream.until(has((change) => change.kind === 'settings'))
    await emu.control('PUT', '/settings', { strict: false })
    await emu.control('DELETE', '/faults')
    expect(stream.events.every((event) => event.event === 'change')).toBe(true)
    stream.close()
  })

  it('announces what a management call and a licensing call change', async () => {
    const stream = await openEventStream(emu, '/_emulator/events')
    const credential = await productWithCredential(emu, 'Feed Synth')
    await stream.until(has((change) => change.entity === 'credential'))
    const customer = await createCustomer(emu)
    const bought = await purchase(emu, customer.id, credential.productId)
    await stream.until(has((change) => change.entity === 'license' && change.id === bought.license.id))
    const activated = await pluginClient(emu, credential).activate(bought.license.key, 'feed-machine')
    expect(activated.status).toBe(201)
    await stream.until(has((change) => change.entity === 'activation'))
    stream.close()
  })

  it('announces a reset, a preset and an import as one "everything" change each', async () => {
    const stream = await openEventStream(emu, '/_emulator/events')
    await emu.control('POST', '/presets/full-library')
    await stream.until(has((change) => change.kind === 'everything' && change.cause === 'preset'))
    // The preset's thousands of rows are not announced one by one.
    expect(changesOf(stream.events).filter((change) => change.kind === 'entity')).toEqual([])
    const state = (await emu.control('GET', '/state')).body.state
    await emu.control('PUT', '/state', state)
    await stream.until(has((change) => change.cause === 'import'))
    await emu.control('POST', '/reset')
    await stream.until(has((change) => change.cause === 'reset'))
    stream.close()
  })

  it('ends open streams when the server closes', async () => {
    const own = await startEmulator()
    const stream = await openEventStream(own, '/_emulator/events')
    await own.close()
    await expect(stream.until(() => false)).rejects.toThrow()
  })
})
