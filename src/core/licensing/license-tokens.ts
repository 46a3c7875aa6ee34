import { randomUUID } from 'node:crypto'

import { TOKEN_ISSUER } from '../../shared/contract/licensing'
import type { Clock } from '../clock/clock'
import { createJwtSigner } from '../crypto/jwt-signer'
import type { SigningKeyRing } from '../crypto/signing-keys'
import type { Activation, License } from './license-repository'

export const LICENSE_TOKEN_TYPE = 'license+jwt' as const

export interface LicenseTokenInput {
  license: License
  activation: Activation | null
  appId: string
  nonce: string | null
  /** The license's effective expiry (subscription period end for subscriptions), kept apart from the token's `exp`. */
  licenseExpiresAt: string | null
  activationCount: number
}

/**
 * Signed license tokens: EdDSA JWS with `kid` and `typ: license+jwt`, `aud` = App ID, `sub` = license id.
 * The token lives `ttlS` seconds on the emulator clock, whatever the license's own expiry.
 */
export function createLicenseTokens(keys: SigningKeyRing, clock: Clock, ttlS: number) {
  const signJwt = createJwtSigner(keys.get('license'), LICENSE_TOKEN_TYPE)
  return {
    async sign(input: LicenseTokenInput): Promise<string> {
      const nowS = Math.floor(clock.now().getTime() / 1000)
      const { license, activation } = input
      const claims: Record<string, unknown> = {
        product_id: license.productId,
        license: {
          kind: license.kind,
          status: license.status,
          expires_at: input.licenseExpiresAt,
          max_activations: license.maxActivations,
          activation_count: input.activationCount
        }
      }
      if (activation) {
        claims.instance_id = activation.instanceId
        claims.activation_id = activation.id
      }
      if (input.nonce !== null) claims.nonce = input.nonce
      return signJwt(claims, {
        iss: TOKEN_ISSUER,
        aud: input.appId,
        sub: license.id,
        jti: randomUUID(),
        iat: nowS,
        nbf: nowS,
        exp: nowS + ttlS
      })
    }
  }
}

export type LicenseTokens = ReturnType<typeof createLicenseTokens>
