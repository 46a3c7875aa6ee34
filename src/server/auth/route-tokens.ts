import type { TokenKind } from '../../shared/contract/token-kinds'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The token kinds this route takes (docs/api.md, "Tokens and scopes"); `[]` for a public
     * route. Every route declares it; the token-auth plugin enforces it in one place.
     */
    tokens?: readonly TokenKind[]
    /** The admin token may also come as `?token=` (a browser EventSource cannot send headers). */
    adminTokenInQuery?: boolean
  }
}

/** Declarations shared by whole surfaces, so each route's line reads as what it takes. */
export const NO_TOKEN: readonly TokenKind[] = []
export const ADMIN_TOKEN: readonly TokenKind[] = ['adminToken']
export const DEVELOPER_JWT: readonly TokenKind[] = ['developerJwt']
export const PRODUCT_CREDENTIAL: readonly TokenKind[] = ['productCredential']
/** The library read: GET /api/library (the interface lists download_token there). */
export const LIBRARY_READ: readonly TokenKind[] = ['libraryToken', 'vendorLibraryToken', 'downloadToken']
/** Downloads: the download token, or a library token of the same customer. */
export const DOWNLOAD: readonly TokenKind[] = ['downloadToken', 'libraryToken', 'vendorLibraryToken']
/** library-token and webview-library: a library token, or plugin context (the product credential). */
export const LIBRARY_CONTEXT: readonly TokenKind[] = ['libraryToken', 'vendorLibraryToken', 'productCredential']
/** A signed-in user: the claim. */
export const SIGNED_IN_USER: readonly TokenKind[] = ['customerJwt', 'developerJwt']
