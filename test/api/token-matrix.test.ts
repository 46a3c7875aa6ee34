import { decodeJwt } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { TOKEN_KIND_INFO, TOKEN_KINDS } from '../../src/shared/contract/token-kinds'
import type { TokenKind } from '../../src/shared/contract/token-kinds'
import { resellerOrder } from '../support/commerce'
import { useEmulator, withEmulator } from '../support/emulator'
import type { HttpResult, TestEmulator } from '../support/emulator'
import type { PluginCredential } from '../support/plugin-client'
import {
  buildTokenWorld,
  otherCustomerTokens,
  otherVendorTokens,
  presentedHeaders,
  validTokens
} from '../support/token-world'
import type { Presented, TokenSet, TokenWorld } from '../support/token-world'

// docs/api.md, "Tokens and scopes": every token kind (valid, expired, another vendor's, another
// customer's) against every authenticated route, generated from the server's own route table
// (each route's config.tokens). A route without a row here fails the first test.

const routeTable = await withEmulator(async (emu) => emu.app.routeTokens.map((route) => ({ ...route })))
// A HEAD route beside its GET twin shares the GET's declaration and checks (and answers no body to
// read an error code from): the GET's row covers both.
const authenticated = routeTable.filter(
  (route) =>
    route.tokens.length > 0 &&
    !(route.method === 'HEAD' && routeTable.some((twin) => twin.method === 'GET' && twin.url === route.url))
)

type Variant = 'valid' | 'expired' | 'otherVendor' | 'otherCustomer'
interface Expected {
  status: number | readonly number[]
  error?: string
}
interface Context {
  world: TokenWorld
  scratch: PluginCredential
  emu: TestEmulator
}
interface Row {
  request(
    context: Context,
    token: Presented,
    variant: Variant
  ): Promise<{ path: string; body?: unknown }> | { path: string; body?: unknown }
  /** A valid token of an accepted kind. */
  ok: Expected
  /** Another vendor's / customer's token of an accepted kind (default: as `ok`). */
  otherVendor?: Expected
  otherCustomer?: Expected
  /** Further checks on an accepted answer. */
  check?(result: HttpResult, token: Presented, variant: Variant, context: Context): void
}

const MANAGEMENT = '/api/developer/plugin-keys/products'
const productNotFound: Expected = { status: 404, error: 'PRODUCT_NOT_FOUND' }
const entitlementRequired: Expected = { status: 403, error: 'ENTITLEMENT_REQUIRED' }
const scopeMismatch: Expected = { status: 403, error: 'PRODUCT_SCOPE_MISMATCH' }

/** The product ids a library (or web view) answer lists. */
const listedProducts = (result: HttpResult): string[] =>
  (result.body.products as Array<{ product_id: string }>).map((p) => p.product_id).sort()

function checkLibraryScope(result: HttpResult, token: Presented, variant: Variant, { world }: Context): void {
  const x = world.vendorX.product.productId
  const y = world.vendorY.product.productId
  const expected =
    variant === 'otherCustomer'
      ? [world.vendorX.second.productId]
      : variant === 'otherVendor'
        ? [y]
        : token.kind === 'libraryToken' || (token.kind === 'downloadToken' && variant === 'valid')
          ? [x, y].sort()
          : [x]
  expect(listedProducts(result), `${token.kind} ${variant}`).toEqual(expected)
}

const libraryContextRow = (method: 'GET' | 'POST', path: string): Row => ({
  request: ({ world }) =>
    method === 'GET'
      ? { path: `${path}?license_key=${encodeURIComponent(world.buyer.licenseX)}` }
      : { path, body: { license_key: world.buyer.licenseX } },
  ok: { status: 200 },
  otherVendor: { status: [200, 403] },
  check(result, token, variant, context) {
    if (variant === 'otherVendor' && token.kind === 'productCredential')
      expect(result.body.error).toBe(scopeMismatch.error)
    if (result.status !== 200) return
    if (path.endsWith('library-token')) {
      // Plugin context mints a vendor token; a vendor token mints one of the same vendor; never wider.
      const minted = decodeJwt(result.body.library_token as string)
      const vendor =
        token.kind === 'libraryToken'
          ? undefined
          : variant === 'otherVendor'
            ? context.world.vendorY.developer.id
            : variant === 'otherCustomer'
              ? context.world.vendorX.developer.id
              : context.world.vendorX.developer.id
      expect(minted.vendor, `${token.kind} ${variant}`).toBe(vendor)
      expect(minted.scope).toBe('library')
    } else if (token.kind !== 'productCredential') {
      checkLibraryScope(result, token, variant, context)
    }
  }
})

const SERVICE_ROWS: Record<string, Row> = {
  [`GET ${MANAGEMENT}`]: { request: () => ({ path: MANAGEMENT }), ok: { status: 200 } },
  [`GET ${MANAGEMENT}/:productId`]: {
    request: ({ world }) => ({ path: `${MANAGEMENT}/${world.vendorX.product.productId}` }),
    ok: { status: 200 },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId`]: {
    request: ({ world }) => ({ path: `${MANAGEMENT}/${world.vendorX.product.productId}`, body: {} }),
    ok: { status: 409, error: 'ACTIVE_CREDENTIAL_EXISTS' },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId/ensure`]: {
    request: ({ world }) => ({ path: `${MANAGEMENT}/${world.vendorX.product.productId}/ensure`, body: {} }),
    ok: { status: 200 },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId/reveal-secret`]: {
    request: ({ world }) => ({ path: `${MANAGEMENT}/${world.vendorX.product.productId}/reveal-secret`, body: {} }),
    ok: { status: 200 },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId/rotate-key`]: {
    request: ({ scratch }) => ({ path: `${MANAGEMENT}/${scratch.productId}/rotate-key`, body: {} }),
    ok: { status: 201 },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId/rotate-secret`]: {
    request: ({ scratch }) => ({ path: `${MANAGEMENT}/${scratch.productId}/rotate-secret`, body: {} }),
    ok: { status: 201 },
    otherVendor: productNotFound
  },
  [`POST ${MANAGEMENT}/:productId/revoke`]: {
    request: ({ scratch }) => ({ path: `${MANAGEMENT}/${scratch.productId}/revoke`, body: {} }),
    ok: { status: 200 },
    otherVendor: productNotFound
  },
  'GET /api/library': { request: () => ({ path: '/api/library' }), ok: { status: 200 }, check: checkLibraryScope },
  'POST /api/library/claim': {
    // A product the claimant owns already, so the claim changes no library the other rows read.
    request: async ({ emu, world }, _token, variant) => {
      const product = variant === 'otherCustomer' ? world.vendorX.second : world.vendorX.product
      return { path: '/api/library/claim', body: { claim: (await resellerOrder(emu, product.productId)).claimToken } }
    },
    ok: { status: 200 }
  },
  'GET /api/license/v1/library-token': libraryContextRow('GET', '/api/license/v1/library-token'),
  'POST /api/license/v1/library-token': libraryContextRow('POST', '/api/license/v1/library-token'),
  'GET /api/license/v1/webview-library': libraryContextRow('GET', '/api/license/v1/webview-library'),
  'POST /api/license/v1/webview-library': libraryContextRow('POST', '/api/license/v1/webview-library'),
  'POST /api/license/v1/activate': {
    request: ({ world }) => ({
      path: '/api/license/v1/activate',
      body: { license_key: world.buyer.licenseX, instance_id: 'matrix-device' }
    }),
    ok: { status: [200, 201] },
    otherVendor: scopeMismatch
  },
  'POST /api/license/v1/validate': {
    request: ({ world }) => ({ path: '/api/license/v1/validate', body: { license_key: world.buyer.licenseX } }),
    ok: { status: 200 },
    otherVendor: { status: 200 },
    check: (result, _token, variant) =>
      expect(result.body.code).toBe(variant === 'otherVendor' ? 'PRODUCT_SCOPE_MISMATCH' : 'VALID')
  },
  'POST /api/license/v1/deactivate': {
    request: ({ world }) => ({
      path: '/api/license/v1/deactivate',
      body: { license_key: world.buyer.licenseX, instance_id: 'matrix-device' }
    }),
    ok: { status: 200 },
    otherVendor: scopeMismatch
  },
  'GET /api/downloads/:fileId': {
    request: ({ world }) => ({ path: `/api/downloads/${world.vendorX.fileId}` }),
    ok: { status: 200 },
    otherVendor: entitlementRequired,
    otherCustomer: entitlementRequired
  }
}

/** Control-plane routes: the admin token only. A valid one is let through (the answer is then the route's own). */
const CONTROL_PLANE_ROUTES = [
  'GET /_emulator/developers',
  'POST /_emulator/developers',
  'POST /_emulator/developers/:id/session',
  'GET /_emulator/products',
  'POST /_emulator/products',
  'POST /_emulator/products/:id/legacy-credential',
  'GET /_emulator/products/:id/credentials',
  'GET /_emulator/products/:id/audit',
  'GET /_emulator/products/:id/connection',
  'GET /_emulator/products/:id/files',
  'POST /_emulator/products/:id/files',
  'GET /_emulator/customers',
  'POST /_emulator/customers',
  'POST /_emulator/customers/:id/session',
  'POST /_emulator/customers/:id/library-token',
  'GET /_emulator/customers/:id/licenses',
  'POST /_emulator/purchases',
  'POST /_emulator/reseller-orders',
  'GET /_emulator/reseller-orders',
  'GET /_emulator/licenses',
  'GET /_emulator/licenses/:id',
  'PATCH /_emulator/licenses/:id',
  'POST /_emulator/orders/:id/refund',
  'POST /_emulator/orders/:id/chargeback',
  'GET /_emulator/subscriptions/:id',
  'POST /_emulator/subscriptions/:id/renew-now',
  'POST /_emulator/subscriptions/:id/cancel',
  'POST /_emulator/subscriptions/:id/resume',
  'POST /_emulator/subscriptions/:id/payment-fails',
  'POST /_emulator/subscriptions/:id/payment-succeeds',
  'GET /_emulator/faults',
  'PUT /_emulator/faults',
  'DELETE /_emulator/faults',
  'DELETE /_emulator/faults/:id',
  'GET /_emulator/clock',
  'PUT /_emulator/clock',
  'GET /_emulator/info',
  'GET /_emulator/settings',
  'PUT /_emulator/settings',
  'GET /_emulator/requests',
  'DELETE /_emulator/requests',
  'GET /_emulator/requests/stream',
  'GET /_emulator/events',
  'GET /_emulator/requests/:id',
  'GET /_emulator/state',
  'PUT /_emulator/state',
  'POST /_emulator/reset',
  'GET /_emulator/presets',
  'POST /_emulator/presets/:name',
  'POST /_emulator/licenses/:id/deactivate',
  'POST /_emulator/state/preview',
  'GET /_emulator/requests/har',
  'GET /_emulator/upstream',
  'PUT /_emulator/upstream',
  'GET /_emulator/drift',
  'DELETE /_emulator/drift',
  'GET /_emulator/drift/requests',
  'GET /_emulator/drift/requests/:id',
  'POST /_emulator/recordings',
  'GET /_emulator/recordings',
  'GET /_emulator/recordings/:id',
  'DELETE /_emulator/recordings/:id',
  'POST /_emulator/recordings/:id/stop',
  'POST /_emulator/recordings/:id/scenario',
  'GET /_emulator/replay',
  'PUT /_emulator/replay'
]

const LIBRARY_KINDS: readonly TokenKind[] = ['libraryToken', 'vendorLibraryToken', 'downloadToken']

/** The refusal docs/api.md states for a kind a route does not take. */
function refusal(tokens: readonly TokenKind[], kind: TokenKind): Expected {
  if (tokens.length === 1 && tokens[0] === 'adminToken') return { status: 401, error: 'AUTH_REQUIRED' }
  if (tokens.some((t) => LIBRARY_KINDS.includes(t))) return { status: 401, error: 'LIBRARY_TOKEN_INVALID' }
  if (tokens.length === 1 && tokens[0] === 'productCredential')
    return { status: 401, error: 'PRODUCT_CREDENTIAL_INVALID' }
  if (kind === 'productCredential' && !tokens.includes('customerJwt'))
    return { status: 403, error: 'PRODUCT_CREDENTIAL_NOT_ACCEPTED' }
  if (kind === 'adminToken') return { status: 401, error: 'AUTH_REQUIRED' }
  return { status: 401, error: 'INVALID_TOKEN' }
}

/** The answer to an expired token of an accepted kind. */
function expiredAnswer(tokens: readonly TokenKind[]): Expected {
  return tokens.some((t) => LIBRARY_KINDS.includes(t))
    ? { status: 401, error: 'LIBRARY_TOKEN_INVALID' }
    : { status: 401, error: 'TOKEN_EXPIRED' }
}

function expectOutcome(result: HttpResult, expected: Expected, what: string): void {
  const statuses = [expected.status].flat()
  expect(statuses, `${what}: ${result.status} ${result.text.slice(0, 300)}`).toContain(result.status)
  if (expected.error) expect(result.body?.error, what).toBe(expected.error)
}

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`

describe('token kinds against every authenticated route (generated from the route table)', () => {
  const clock = createClock(() => Date.parse('2034-03-04T05:06:07.000Z'))
  let context: Context
  const sets: Partial<Record<Variant, TokenSet>> = {}

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    const world = await buildTokenWorld(emu)
    const scratchOwner = world.vendorX.developer
    const scratchProduct = await emu.createProduct(scratchOwner.id, 'Scratch Chorus')
    const made = await emu.request('POST', `${MANAGEMENT}/${scratchProduct.id}`, { token: scratchOwner.token })
    const reveal = made.body.one_time_reveal
    context = {
      world,
      emu,
      scratch: {
        productId: scratchProduct.id,
        appId: reveal.appId,
        pluginKey: reveal.pluginKey,
        pluginSecret: reveal.pluginSecret
      }
    }
    sets.expired = await validTokens(emu, world)
    sets.valid = await validTokens(emu, world)
    sets.otherVendor = await otherVendorTokens(emu, world)
    sets.otherCustomer = await otherCustomerTokens(emu, world)
  })

  it('every authenticated route has a row, and every row a route', () => {
    const rows = new Set([...Object.keys(SERVICE_ROWS), ...CONTROL_PLANE_ROUTES])
    const missing = authenticated.map(key).filter((k) => !rows.has(k))
    expect(missing, 'routes with no row in the token matrix').toEqual([])
    const stale = [...rows].filter((k) => !authenticated.some((route) => key(route) === k))
    expect(stale, 'rows naming no authenticated route').toEqual([])
    // Every kind appears on at least one route.
    for (const kind of TOKEN_KINDS)
      expect(
        authenticated.some((route) => route.tokens.includes(kind)),
        kind
      ).toBe(true)
  })

  async function send(
    method: string,
    row: Row | undefined,
    url: string,
    token: Presented,
    variant: Variant
  ): Promise<HttpResult> {
    const target = row
      ? await row.request(context, token, variant)
      : { path: url.replace(/:[A-Za-z]+/g, 'x'), body: ['GET', 'DELETE', 'HEAD'].includes(method) ? undefined : {} }
    // The request stream would never end when let in: a filter that fails validation answers first.
    const path = url === '/_emulator/requests/stream' ? `${target.path}?status=bogus` : target.path
    if (url === '/_emulator/events') return openOrRefuse(path, presentedHeaders(token))
    return emu.request(method, path, {
      headers: presentedHeaders(token),
      ...(target.body === undefined ? {} : { body: target.body })
    })
  }

  /** The change feed has no filter to fail: a stream that opens is closed at once, a refusal read whole. */
  async function openOrRefuse(path: string, headers: Record<string, string>): Promise<HttpResult> {
    const controller = new AbortController()
    const response = await fetch(`${emu.baseUrl}${path}`, { headers, signal: controller.signal })
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort()
      return { status: response.status, headers: response.headers, body: {}, text: '' }
    }
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      body: JSON.parse(text) as Record<string, unknown>,
      text
    }
  }

  const serviceRoutes = authenticated.filter((route) => !route.url.startsWith('/_emulator'))
  const controlRoutes = authenticated.filter((route) => route.url.startsWith('/_emulator'))

  for (const route of serviceRoutes) {
    it(`${key(route)} takes ${route.tokens.join(', ')}`, async () => {
      const row = SERVICE_ROWS[key(route)]
      expect(row, `a row for ${key(route)}`).toBeDefined()
      if (!row) return
      for (const variant of ['valid', 'otherVendor', 'otherCustomer'] as const) {
        for (const kind of TOKEN_KINDS) {
          const token = sets[variant]?.[kind]
          if (!token) continue
          const what = `${key(route)} with ${variant} ${kind}`
          const result = await send(route.method, row, route.url, token, variant)
          if (!route.tokens.includes(kind)) {
            expectOutcome(result, refusal(route.tokens, kind), what)
            // The message names the kind received, when it travels where this route reads tokens.
            if (token.bearer && result.body?.error !== 'PRODUCT_CREDENTIAL_NOT_ACCEPTED' && kind !== 'adminToken') {
              expect(result.body.message, what).toContain(TOKEN_KIND_INFO[kind].label)
            }
            continue
          }
          expectOutcome(result, variant === 'valid' ? row.ok : (row[variant] ?? row.ok), what)
          if (result.status < 300 || row.check) row.check?.(result, token, variant, context)
        }
      }
      // Expired: every kind that expires, a day and an hour later.
      await emu.control('PUT', '/clock', { offsetS: 25 * 60 * 60 })
      try {
        for (const kind of TOKEN_KINDS) {
          const token = sets.expired?.[kind]
          if (!token || kind === 'adminToken' || kind === 'productCredential') continue
          const result = await send(route.method, row, route.url, token, 'expired')
          const expected = route.tokens.includes(kind) ? expiredAnswer(route.tokens) : refusal(route.tokens, kind)
          expectOutcome(result, expected, `${key(route)} with expired ${kind}`)
        }
      } finally {
        await emu.control('PUT', '/clock', { offsetS: 0 })
      }
    })
  }

  for (const route of controlRoutes) {
    it(`${key(route)} takes the admin token only`, async () => {
      expect(route.tokens).toEqual(['adminToken'])
      for (const kind of TOKEN_KINDS) {
        const token = sets.valid?.[kind] as Presented
        const result = await send(route.method, undefined, route.url, token, 'valid')
        if (kind === 'adminToken')
          expect([401, 403], `${key(route)}: ${result.text.slice(0, 200)}`).not.toContain(result.status)
        else expectOutcome(result, refusal(route.tokens, kind), `${key(route)} with ${kind}`)
      }
    })
  }
})
