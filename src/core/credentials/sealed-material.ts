import type { Store } from '../store/store'
import type { SecretBox } from '../crypto/secret-box'
import { isLegacySealed } from '../crypto/secret-box'

/**
 * Re-seals legacy (v1) secrets, which name no key, under the current runtime key when it opens
 * them, so that every sealed value records the key that sealed it. Values another key sealed stay
 * as they are (unrecoverable here). Runs at start and after a scenario import.
 */
export function upgradeLegacySealedMaterial(store: Store, secretBox: SecretBox | null): number {
  if (!secretBox) return 0
  const legacy = store.db.prepare("SELECT id, sealed_material FROM product_credentials WHERE sealed_material LIKE 'v1:%'").all() as Array<{
    id: string
    sealed_material: string
  }>
  const update = store.db.prepare('UPDATE product_credentials SET sealed_material = ? WHERE id = ?')
  let upgraded = 0
  store.db.transaction(() => {
    for (const row of legacy) {
      if (!isLegacySealed(row.sealed_material)) continue
      const opened = secretBox.open(row.sealed_material)
      if (opened === null) continue
      update.run(secretBox.seal(opened), row.id)
      upgraded += 1
    }
  })()
  return upgraded
}
