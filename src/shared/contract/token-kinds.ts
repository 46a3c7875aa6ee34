/**
 * The kinds of credential a request can present, as one table (docs/api.md, "Tokens and
 * scopes"). Every route declares the kinds it takes in its options (`config: { tokens }`); the
 * server enforces them in one place. The names are stable identifiers: they double as the
 * OpenAPI security scheme names.
 */
export const TOKEN_KINDS = [
  'developerJwt',
  'customerJwt',
  'libraryToken',
  'vendorLibraryToken',
  'downloadToken',
  'adminToken',
  'productCredential'
] as const
export type TokenKind = (typeof TOKEN_KINDS)[number]

/** How a kind travels on a request. */
export interface TokenTransport {
  /** `Authorization: Bearer <value>`. */
  bearer: boolean
  /** Header names (`svc` stands for the configured header prefix). */
  headers: readonly string[]
  /** Query parameter names. */
  query: readonly string[]
  /** JSON body field names (POST). */
  body: readonly string[]
}

export interface TokenKindInfo {
  /** The kind in a sentence: "a developer session token". */
  label: string
  /** Who it speaks for. */
  speaksFor: string
  /** Where it comes from. */
  issuedBy: string
  /** How long it lives. */
  lifetime: string
  transport: TokenTransport
}

/** Library token query and body names, one set on every route that takes one (docs/api.md section 8). */
export const LIBRARY_TOKEN_NAMES = ['token', 'library_token', 'libraryToken'] as const
/** The library's download token travels under its own name too, where the interface lists it. */
export const DOWNLOAD_TOKEN_NAMES = [...LIBRARY_TOKEN_NAMES, 'download_token'] as const

const JWT_BEARER = { bearer: true, headers: [], query: [], body: [] } as const

export const TOKEN_KIND_INFO: Readonly<Record<TokenKind, TokenKindInfo>> = {
  developerJwt: {
    label: 'a developer session token',
    speaksFor: 'a developer: their own products (an admin: every product)',
    issuedBy: 'POST /_emulator/developers/:id/session',
    lifetime: '12 hours unless ttlS says otherwise',
    transport: JWT_BEARER
  },
  customerJwt: {
    label: 'a customer session token',
    speaksFor: 'a signed-in customer user',
    issuedBy: 'POST /_emulator/customers/:id/session',
    lifetime: '12 hours unless ttlS says otherwise',
    transport: JWT_BEARER
  },
  libraryToken: {
    label: 'a library token',
    speaksFor: 'a customer: their whole library',
    issuedBy: 'POST /_emulator/customers/:id/library-token, or library-token with a library token',
    lifetime: '24 hours',
    transport: { bearer: true, headers: [], query: LIBRARY_TOKEN_NAMES, body: LIBRARY_TOKEN_NAMES }
  },
  vendorLibraryToken: {
    label: 'a vendor library token',
    speaksFor: "a customer, narrowed to one vendor's products (the developer of the plugin that asked for it)",
    issuedBy: 'library-token called with the product credential headers',
    lifetime: '24 hours',
    transport: { bearer: true, headers: [], query: LIBRARY_TOKEN_NAMES, body: LIBRARY_TOKEN_NAMES }
  },
  downloadToken: {
    label: 'a download token',
    speaksFor: 'the customer (and vendor) of the library read that handed it out: downloads and library reads only',
    issuedBy: 'the `download_token` of a library answer, in every download URL',
    lifetime: '1 hour; never renewed by using it',
    transport: { bearer: true, headers: [], query: DOWNLOAD_TOKEN_NAMES, body: [] }
  },
  adminToken: {
    label: 'the admin token',
    speaksFor: 'whoever runs the emulator: the control plane',
    issuedBy: 'serve --admin-token, or generated at start',
    lifetime: 'the life of the process',
    transport: { bearer: false, headers: ['x-emulator-token'], query: [], body: [] }
  },
  productCredential: {
    label: 'a product credential',
    speaksFor: 'a product (and so its developer, the vendor)',
    issuedBy: 'the management API (create, ensure, rotate)',
    lifetime: 'until rotated or revoked',
    transport: {
      bearer: true,
      headers: ['x-svc-app-id', 'x-svc-plugin-key', 'x-svc-plugin-secret', 'x-svc-api-key'],
      query: [],
      body: []
    }
  }
}

/** "a library token, a vendor library token or a download token". */
export function describeTokenKinds(kinds: readonly TokenKind[]): string {
  const labels = kinds.map((kind) => TOKEN_KIND_INFO[kind].label)
  if (labels.length <= 1) return labels[0] ?? 'no token'
  return `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`
}
