import { isApiError } from './errors'
import type { HttpClient } from './http'
import type {
  ActionNote,
  CredentialList,
  CurrentCredential,
  EnsuredCredential,
  IssuedCredential,
  RevealedCredential,
  RevokedCredential,
  RotatedCredential
} from './types'

/** The developer's session for the management API, minted through the control plane. */
export interface DeveloperTokenSource {
  /** A current developer JWT (minted when missing or about to expire). */
  token(): Promise<string>
  /** Forget the cached token, so the next `token()` mints a fresh one. */
  invalidate(): void
}

const SESSION_PROBLEMS = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN', 'AUTH_REQUIRED'])

/**
 * Product credential management (docs/api.md section 2), called exactly as a developer
 * dashboard calls it: `Authorization: Bearer <developer JWT>`. A token that expired (the
 * emulator clock may have been moved) is replaced once and the call retried.
 */
export function createManagementApi(http: HttpClient, session: DeveloperTokenSource) {
  const base = '/api/developer/plugin-keys/products'

  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    query?: Record<string, string | undefined>
  ): Promise<T> {
    const attempt = async () =>
      http.json<T>({ method, path, body, query, headers: { authorization: `Bearer ${await session.token()}` } })
    try {
      return await attempt()
    } catch (error) {
      if (isApiError(error) && error.status === 401 && SESSION_PROBLEMS.has(error.code)) {
        session.invalidate()
        return attempt()
      }
      throw error
    }
  }
  const note = (value: ActionNote | undefined) => {
    const body: ActionNote = {}
    if (value?.reason && value.reason.trim() !== '') body.reason = value.reason.trim()
    if (value?.metadata) body.metadata = value.metadata
    return body
  }
  const product = (productId: string) => `${base}/${encodeURIComponent(productId)}`

  return {
    list: (productId?: string) => call<CredentialList>('GET', base, undefined, { productId }),
    get: (productId: string) => call<CurrentCredential>('GET', product(productId)),
    create: (productId: string, action?: ActionNote) =>
      call<IssuedCredential>('POST', product(productId), note(action)),
    ensure: (productId: string, action?: ActionNote) =>
      call<EnsuredCredential>('POST', `${product(productId)}/ensure`, note(action)),
    revealSecret: (productId: string, action?: ActionNote) =>
      call<RevealedCredential>('POST', `${product(productId)}/reveal-secret`, note(action)),
    rotateKey: (productId: string, action?: ActionNote) =>
      call<RotatedCredential>('POST', `${product(productId)}/rotate-key`, note(action)),
    rotateSecret: (productId: string, action?: ActionNote) =>
      call<RotatedCredential>('POST', `${product(productId)}/rotate-secret`, note(action)),
    revoke: (productId: string, action?: ActionNote) =>
      call<RevokedCredential>('POST', `${product(productId)}/revoke`, note(action))
  }
}

export type ManagementApi = ReturnType<typeof createManagementApi>
