import { describe, expect, it } from 'vitest'

import { ownedProduct } from '../support/credentials'
import type { OwnedProduct } from '../support/credentials'
import { countActiveCredentials } from '../support/database'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

// At most one active credential per product, whatever the interleaving (docs/api.md section 2).
describe('concurrent create / ensure / rotate-key on one product', () => {
  const emulator = useEmulator()

  const storm = (owned: OwnedProduct): Promise<Array<{ op: string; result: HttpResult }>> =>
    Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const op = (['create', 'ensure', 'rotate-key'] as const)[i % 3] as 'create' | 'ensure' | 'rotate-key'
        const result =
          op === 'create' ? await owned.api.create(owned.product.id) : await owned.api.act(owned.product.id, op)
        return { op, result }
      })
    )

  const ALLOWED: Record<string, Array<[number, string | undefined]>> = {
    create: [
      [201, undefined],
      [409, 'ACTIVE_CREDENTIAL_EXISTS']
    ],
    ensure: [
      [200, undefined],
      [201, undefined]
    ],
    'rotate-key': [
      [201, undefined],
      [404, 'PRODUCT_CREDENTIAL_NOT_FOUND']
    ]
  }

  it.each(['with no credential yet', 'with an active credential already'])(
    'ends with exactly one active credential (%s)',
    async (start) => {
      const owned = await ownedProduct(emulator)
      if (start !== 'with no credential yet') expect((await owned.api.create(owned.product.id)).status).toBe(201)

      const outcomes = await storm(owned)
      for (const { op, result } of outcomes) {
        const allowed = ALLOWED[op] ?? []
        expect(
          allowed.some(
            ([status, code]) => status === result.status && (code === undefined || result.body.error === code)
          ),
          `${op} answered ${result.status} ${result.text.slice(0, 200)}`
        ).toBe(true)
      }

      const listed = await owned.api.list(owned.product.id)
      const active = listed.body.credentials.filter((c: { status: string }) => c.status === 'active')
      expect(active).toHaveLength(1)
      expect(countActiveCredentials(emulator.databasePath, owned.product.id)).toBe(1)

      // Every issued credential (201 answers) is in the list, and all but the active one are revoked.
      const issuedIds = outcomes
        .filter(({ result }) => result.status === 201)
        .map(({ result }) => result.body.credential.id as string)
      expect(new Set(issuedIds).size).toBe(issuedIds.length)
      expect(listed.body.count).toBe(issuedIds.length + (start === 'with no credential yet' ? 0 : 1))
      expect(issuedIds).toContain(active[0].id)
    }
  )
})
