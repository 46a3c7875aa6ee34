import { Type } from 'typebox'

import { Timestamp } from './common'

const CredentialField = (description: string) => Type.String({ minLength: 1, maxLength: 512, description })

/** The four values a plugin holds and sends to verify (docs/api.md section 3). */
export const VerifyConnectionBody = Type.Object(
  {
    productId: CredentialField('The product ID (not the App ID).'),
    appId: CredentialField('The App ID.'),
    pluginKey: CredentialField('The plugin key.'),
    pluginSecret: CredentialField('The plugin secret.')
  },
  { additionalProperties: false }
)

export const VerifiedConnectionResponse = Type.Object({
  ok: Type.Literal(true),
  verified: Type.Literal(true),
  connection: Type.Object({
    productId: Type.String(),
    appId: Type.String(),
    status: Type.Literal('verified'),
    verifiedAt: Timestamp
  })
})
