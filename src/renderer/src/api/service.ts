import type { Static } from 'typebox'

import type { JwksResponse, PublicKeyResponse } from '../../../shared/schemas/licensing'
import type { Exchange, HttpClient } from './http'
import type {
  ActivateInput,
  ClaimResult,
  CredentialValues,
  DeactivateInput,
  LibraryPayload,
  ValidateInput,
  WebviewPayload
} from './types'

/** The headers a plugin sends to /api/license/v1 (docs/api.md section 5), for a header prefix. */
export function credentialHeaders(
  prefix: string,
  values: Pick<CredentialValues, 'appId' | 'pluginKey' | 'pluginSecret'>
): Record<string, string> {
  const p = prefix.toLowerCase()
  return {
    [`x-${p}-app-id`]: values.appId,
    [`x-${p}-plugin-key`]: values.pluginKey,
    [`x-${p}-plugin-secret`]: values.pluginSecret
  }
}

function withoutEmpty<T extends object>(value: T): Partial<T> {
  const out: Partial<T> = {}
  for (const [key, entry] of Object.entries(value) as [keyof T, T[keyof T]][]) {
    if (entry !== undefined && entry !== null && entry !== '') out[key] = entry
  }
  return out
}

/**
 * The service API as a plugin and a customer's library page call it. Plugin calls answer the
 * whole exchange (request and response), because the connection tester shows both.
 */
export function createServiceApi(http: HttpClient) {
  return {
    verifyConnection: (values: CredentialValues): Promise<Exchange> =>
      http.exchange({ method: 'POST', path: '/api/plugin-connections/verify', body: values }),

    activate: (prefix: string, values: CredentialValues, body: ActivateInput): Promise<Exchange> =>
      http.exchange({
        method: 'POST',
        path: '/api/license/v1/activate',
        headers: credentialHeaders(prefix, values),
        body: withoutEmpty(body)
      }),
    validate: (prefix: string, values: CredentialValues, body: ValidateInput): Promise<Exchange> =>
      http.exchange({
        method: 'POST',
        path: '/api/license/v1/validate',
        headers: credentialHeaders(prefix, values),
        body: withoutEmpty(body)
      }),
    deactivate: (prefix: string, values: CredentialValues, body: DeactivateInput): Promise<Exchange> =>
      http.exchange({
        method: 'POST',
        path: '/api/license/v1/deactivate',
        headers: credentialHeaders(prefix, values),
        body
      }),

    /** A recorded request sent again as is (the inspector's "Send again"), with the headers given. */
    resend: (request: { method: string; path: string; headers: Record<string, string>; body?: unknown }) =>
      http.exchange(request),

    /** The signing public key as a C++ client pins it (PEM and raw hex). */
    publicKey: () => http.json<Static<typeof PublicKeyResponse>>({ method: 'GET', path: '/api/license/v1/public-key' }),
    jwks: async () =>
      (await http.json<Static<typeof JwksResponse>>({ method: 'GET', path: '/.well-known/jwks.json' })).keys,

    library: (libraryToken: string, options: { instanceId?: string; storefront?: string } = {}) =>
      http.json<LibraryPayload>({
        method: 'GET',
        path: '/api/library',
        headers: { authorization: `Bearer ${libraryToken}` },
        query: { instance_id: options.instanceId, storefront: options.storefront }
      }),
    webviewLibrary: (libraryToken: string, options: { instanceId?: string; productId?: string } = {}) =>
      http.json<WebviewPayload>({
        method: 'GET',
        path: '/api/license/v1/webview-library',
        headers: { authorization: `Bearer ${libraryToken}` },
        query: { instance_id: options.instanceId, productId: options.productId }
      }),
    claim: (userJwt: string, claimToken: string) =>
      http.json<ClaimResult>({
        method: 'POST',
        path: '/api/library/claim',
        headers: { authorization: `Bearer ${userJwt}` },
        body: { claim: claimToken }
      })
  }
}

export type ServiceApi = ReturnType<typeof createServiceApi>
