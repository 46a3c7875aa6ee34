import type { SecretBox } from '../crypto/secret-box'
import type { CredentialRepository } from './credential-repository'

/**
 * Records the current runtime key as the sealer of every sealed secret that has no key id yet
 * and that this key opens: values sealed before key ids were kept, and those of a scenario
 * document that carries sealed material without its key id. Values it cannot open keep no
 * key id and so count as sealed under another runtime key.
 */
export function labelSealedByCurrentKey(rows: CredentialRepository, secretBox: SecretBox | null): void {
  if (!secretBox) return
  for (const row of rows.unlabelledSealed()) {
    if (row.sealed_material !== null && secretBox.open(row.sealed_material) !== null)
      rows.labelSealed(row.id, secretBox.keyId)
  }
}
