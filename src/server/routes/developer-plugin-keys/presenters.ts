import type { CredentialMaterial } from '../../../core/credentials/credential-material'

/** The `one_time_reveal` object of docs/api.md section 2, `one_time_reveal`. */
export function oneTimeReveal(material: CredentialMaterial) {
  return {
    appId: material.appId,
    pluginKey: material.pluginKey,
    pluginSecret: material.pluginSecret,
    secret_shown_once: true
  }
}

/** reveal-secret's material: the 2.2 fields plus the `productKey` / `ProductSecret` aliases. */
export function revealedMaterial(material: CredentialMaterial) {
  return {
    ...oneTimeReveal(material),
    productKey: material.pluginKey,
    ProductSecret: material.pluginSecret
  }
}
