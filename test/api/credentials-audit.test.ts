import { describe, expect, it } from 'vitest'

import { issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import type { CredentialAction } from '../support/credentials'
import { useEmulator } from '../support/emulator'

interface AuditEntry {
  action: string
  outcome: string
  actorKind: string
  actorId: string | null
  credentialId: string | null
  reason: string | null
  metadata: unknown
  at: string
}

// reason and metadata, optional on every management POST, land in the audit trail (GET /_emulator/products/:id/audit).
describe('audit trail of management actions', () => {
  const emulator = useEmulator()

  const auditOf = async (productId: string): Promise<AuditEntry[]> => {
    const audit = await emulator.control('GET', `/products/${productId}/audit`)
    expect(audit.status).toBe(200)
    expect(audit.body.ok).toBe(true)
    return audit.body.entries as AuditEntry[]
  }

  it('records create with its reason, metadata, actor and time', async () => {
    const { api, product, developer } = await ownedProduct(emulator)
    const metadata = { ticket: 'QA-17', build: { number: 42, channel: 'beta' }, tags: ['a', 'b'] }
    const issued = await issueCredential(api, product.id, { reason: 'first release', metadata })
    const [entry] = await auditOf(product.id)
    expect(entry).toMatchObject({
      action: 'create',
      outcome: 'success',
      actorKind: 'developer',
      actorId: developer.id,
      credentialId: issued.credential.id,
      reason: 'first release',
      metadata
    })
    expect(Number.isNaN(Date.parse(entry?.at ?? ''))).toBe(false)
  })

  it.each([
    ['reveal-secret', 'reveal-secret'],
    ['rotate-key', 'rotate-key'],
    ['rotate-secret', 'rotate-secret'],
    ['revoke', 'revoke']
  ] as const)('records %s with its reason and metadata', async (action: CredentialAction, recorded: string) => {
    const { api, product, developer } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    const metadata = { step: action, attempt: 1 }
    const result = await api.act(product.id, action, { reason: `why ${action}`, metadata })
    expect(result.status).toBeLessThan(300)
    const [latest] = await auditOf(product.id)
    expect(latest).toMatchObject({
      action: recorded,
      outcome: 'success',
      actorId: developer.id,
      reason: `why ${action}`,
      metadata
    })
  })

  it('records an ensure that created, with its reason and metadata', async () => {
    const { api, product } = await ownedProduct(emulator)
    const ensured = await api.act(product.id, 'ensure', {
      reason: 'package generator',
      metadata: { generator: 'cmake' }
    })
    expect(ensured.status).toBe(201)
    const [entry] = await auditOf(product.id)
    expect(entry).toMatchObject({
      action: 'ensure',
      outcome: 'success',
      credentialId: ensured.body.credential.id,
      reason: 'package generator',
      metadata: { generator: 'cmake' }
    })
  })

  it('keeps the reason of a rotation or revocation on the credential it ended', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await api.act(product.id, 'rotate-key', { reason: 'contractor left' })
    const listed = await api.list(product.id)
    const previous = listed.body.credentials.find((c: { id: string }) => c.id === issued.credential.id)
    expect(previous.revokedReason).toBe('contractor left')
    expect(previous.revocationCause).toBe('rotate-key')
  })

  it('records every verification as a plugin action, with the failure reason', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await verifyConnection(emulator, verifyBody(product.id, issued.material))
    await verifyConnection(emulator, {
      ...verifyBody(product.id, issued.material),
      pluginSecret: 'sk_0000000000000000000000000000'
    })
    const [failed, succeeded] = await auditOf(product.id)
    expect(succeeded).toMatchObject({
      action: 'verify',
      outcome: 'success',
      actorKind: 'plugin',
      actorId: null,
      credentialId: issued.credential.id
    })
    expect(failed).toMatchObject({
      action: 'verify',
      outcome: 'failure',
      actorKind: 'plugin',
      reason: 'SECRET_MISMATCH'
    })
  })

  it('lists entries newest first, one per recorded action', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    await api.act(product.id, 'reveal-secret')
    await api.act(product.id, 'rotate-secret')
    await api.act(product.id, 'revoke')
    const entries = await auditOf(product.id)
    expect(entries.map((e) => e.action)).toEqual(['revoke', 'rotate-secret', 'reveal-secret', 'create'])
  })
})
