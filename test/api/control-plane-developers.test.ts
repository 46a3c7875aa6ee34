import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { CREDENTIALS_BASE, expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// POST /_emulator/developers and POST /_emulator/developers/:id/session.
describe('control plane: developers and sessions', () => {
  const base = Date.parse('2033-01-01T00:00:00.000Z')
  const clock = createClock(() => base)
  const emulator = useEmulator({ clock })

  it('creates a developer: 201 with id, email, name and role (developer by default)', async () => {
    const created = await emulator.control('POST', '/developers', { email: 'ada@example.test', name: 'Ada' })
    expect(created.status).toBe(201)
    expect(created.body.ok).toBe(true)
    expect(created.body.developer).toMatchObject({
      id: expect.stringMatching(/^dev_/),
      email: 'ada@example.test',
      name: 'Ada',
      role: 'developer'
    })
    const listed = await emulator.control('GET', '/developers')
    expect(listed.body.developers.map((d: { id: string }) => d.id)).toContain(created.body.developer.id)
  })

  it('creates an admin developer when asked', async () => {
    const created = await emulator.control('POST', '/developers', { email: 'root@example.test', role: 'admin' })
    expect(created.status).toBe(201)
    expect(created.body.developer.role).toBe('admin')
    expect(created.body.developer.name).toBeNull()
  })

  it('answers 409 DEVELOPER_EXISTS for a duplicate email, whatever its letter case', async () => {
    expect((await emulator.control('POST', '/developers', { email: 'dup@example.test' })).status).toBe(201)
    expectError(await emulator.control('POST', '/developers', { email: 'dup@example.test' }), 409, 'DEVELOPER_EXISTS')
    expectError(
      await emulator.control('POST', '/developers', { email: 'DUP@Example.Test', role: 'admin' }),
      409,
      'DEVELOPER_EXISTS'
    )
    const listed = await emulator.control('GET', '/developers')
    expect(
      listed.body.developers.filter((d: { email: string }) => d.email.toLowerCase() === 'dup@example.test')
    ).toHaveLength(1)
  })

  it('answers 400 VALIDATION_ERROR for a missing or malformed email, a bad role or an unknown field', async () => {
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: 42 },
      { email: 'x@example.test', role: 'root' },
      { email: 'y@example.test', isAdmin: true }
    ]) {
      expectError(await emulator.control('POST', '/developers', body), 400, 'VALIDATION_ERROR')
    }
  })

  it('mints a session token for the management API, expiring after ttlS on the emulator clock', async () => {
    const created = await emulator.control('POST', '/developers', { email: 'session@example.test' })
    const session = await emulator.control('POST', `/developers/${created.body.developer.id}/session`, { ttlS: 3600 })
    expect(session.status).toBe(200)
    expect(session.body).toEqual({ ok: true, token: expect.any(String), expiresAt: '2033-01-01T01:00:00.000Z' })
    expect(session.body.token.split('.')).toHaveLength(3)
    expect((await emulator.request('GET', CREDENTIALS_BASE, { token: session.body.token })).status).toBe(200)
  })

  it('mints a 12-hour session by default, also with no body at all', async () => {
    const created = await emulator.control('POST', '/developers', { email: 'default@example.test' })
    const session = await emulator.request('POST', `/_emulator/developers/${created.body.developer.id}/session`, {
      headers: { 'x-emulator-token': emulator.adminToken }
    })
    expect(session.status).toBe(200)
    expect(session.body.expiresAt).toBe('2033-01-01T12:00:00.000Z')
  })

  it('answers 404 DEVELOPER_NOT_FOUND for a session of an unknown developer', async () => {
    expectError(await emulator.control('POST', '/developers/dev_doesNotExist/session', {}), 404, 'DEVELOPER_NOT_FOUND')
  })

  it('answers 400 VALIDATION_ERROR for a bad ttlS', async () => {
    const created = await emulator.control('POST', '/developers', { email: 'ttl@example.test' })
    for (const ttlS of [0, -5, 1.5, '60', 31 * 24 * 60 * 60]) {
      expectError(
        await emulator.control('POST', `/developers/${created.body.developer.id}/session`, { ttlS }),
        400,
        'VALIDATION_ERROR'
      )
    }
  })
})
