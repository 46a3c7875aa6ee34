import { beforeEach, describe, expect, it, vi } from 'vitest'

import type { FetchLike } from '../../../src/renderer/src/api/http'
import type { CredentialRecord, Developer, Product, RequestSummary } from '../../../src/renderer/src/api/types'
import { useConnection } from '../../../src/renderer/src/stores/connection'
import { forgetSessions, selectActingDeveloper, useDevelopers } from '../../../src/renderer/src/stores/developers'
import { useLibrary } from '../../../src/renderer/src/stores/library'
import {
  currentCredentialByProduct,
  selectVisibleProducts,
  useProducts
} from '../../../src/renderer/src/stores/products'
import {
  hasChosenFilters,
  matchesFilters,
  MAX_ROWS,
  mergeEntries,
  useRequests,
  WITHOUT_UI_CALLS
} from '../../../src/renderer/src/stores/requests'
import { useSettings } from '../../../src/renderer/src/stores/settings'
import { useTester } from '../../../src/renderer/src/stores/tester'

// ---- A fake emulator: routes by "METHOD /path", records every call ---------------------------

interface Call {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string>
  body: unknown
}
interface Answer {
  status?: number
  body: unknown
}
/** A handler may answer later (a Promise), to hold one call back while another overtakes it. */
type Handler = (call: Call) => Answer | Promise<Answer>

function fakeEmulator(routes: Record<string, Handler>) {
  const calls: Call[] = []
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input)
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null
    }
    calls.push(call)
    const handler = routes[`${call.method} ${call.path}`]
    const answer = handler
      ? await handler(call)
      : { status: 404, body: { ok: false, error: 'NOT_FOUND', message: `No route ${call.method} ${call.path}` } }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' }
    })
  }
  return { fetch, calls, count: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key).length }
}

const INFO = {
  ok: true,
  version: '0.1.0',
  baseUrl: 'http://127.0.0.1:4747',
  databasePath: '/tmp/x.db',
  hasRuntimeKey: true,
  credentialHeaders: { appId: 'x-svc-app-id', pluginKey: 'x-svc-plugin-key', pluginSecret: 'x-svc-plugin-secret' },
  settings: { headerPrefix: 'svc', strict: false },
  counts: {
    developers: 0,
    products: 0,
    credentials: 0,
    activeCredentials: 0,
    customers: 0,
    licenses: 0,
    activations: 0,
    requests: 0
  }
}
const CLOCK = { ok: true, now: '2026-01-01T00:00:00.000Z', offsetS: 3600, systemNow: '2026-01-01T00:00:00.000Z' }
const FAR = '2999-01-01T00:00:00.000Z'

const developer = (id: string, role: Developer['role'] = 'developer'): Developer => ({
  id,
  email: `${id}@x.test`,
  name: id,
  role,
  createdAt: '2026-01-01T00:00:00.000Z'
})
const product = (id: string, developerId: string): Product => ({
  id,
  developerId,
  name: id,
  appId: `app_${id}`,
  storefrontSlug: null,
  createdAt: '2026-01-01T00:00:00.000Z'
})
const credential = (productId: string, patch: Partial<CredentialRecord> = {}): CredentialRecord => ({
  id: `cred_${productId}`,
  productId,
  appId: `app_${productId}`,
  pluginKeyPreview: 'pk_abcde...wxyz',
  pluginSecretPreview: 'sk_abcde...wxyz',
  apiBaseUrl: 'http://127.0.0.1:4747',
  status: 'active',
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: null,
  lastUsedAt: null,
  hasRecoverableSecret: true,
  unrecoverableReason: null,
  rotatedFromId: null,
  replacedById: null,
  revokedAt: null,
  revokedReason: null,
  revocationCause: null,
  secretShownOnce: true,
  secretShownOnceAt: null,
  revealCount: 0,
  lastRevealedAt: null,
  ...patch
})

const base: Record<string, Handler> = {
  'GET /_emulator/info': () => ({ body: INFO }),
  'GET /_emulator/clock': () => ({ body: CLOCK })
}

async function connect(routes: Record<string, Handler>) {
  const server = fakeEmulator({ ...base, ...routes })
  await useConnection
    .getState()
    .connect({ baseUrl: 'http://127.0.0.1:4747', adminToken: 'admin-secret', fetch: server.fetch })
  return server
}

beforeEach(() => {
  forgetSessions()
  for (const store of [useConnection, useDevelopers, useProducts, useLibrary, useRequests, useSettings]) {
    ;(store as { setState: (state: unknown, replace: true) => void; getInitialState: () => unknown }).setState(
      store.getInitialState(),
      true
    )
  }
})

// ---- Connection -----------------------------------------------------------------------------

describe('connection store', () => {
  it('connects, reads the server info and the clock offset', async () => {
    const server = await connect({})
    const state = useConnection.getState()
    expect(state.phase).toBe('ready')
    expect(state.info.data?.settings.headerPrefix).toBe('svc')
    expect(state.clockOffsetMs).toBe(3_600_000)
    expect(server.calls[0]?.headers['x-emulator-token']).toBe('admin-secret')
  })

  it('asks for the token when the server refuses it, and reports a server that is gone', async () => {
    await connect({
      'GET /_emulator/info': () => ({
        status: 401,
        body: { ok: false, error: 'INVALID_TOKEN', message: 'The admin token does not match.' }
      })
    })
    expect(useConnection.getState().phase).toBe('needs-token')
    expect(useConnection.getState().error?.code).toBe('INVALID_TOKEN')

    await useConnection.getState().connect({
      baseUrl: 'http://127.0.0.1:1',
      adminToken: 'x',
      fetch: async () => {
        throw new TypeError('fetch failed')
      }
    })
    expect(useConnection.getState().phase).toBe('failed')
    expect(useConnection.getState().error?.code).toBe('NETWORK_ERROR')
  })

  it('bumps the data version after a preset, so screens reload', async () => {
    await connect({
      'POST /_emulator/presets/full-library': () => ({
        body: { ok: true, preset: 'full-library', imported: { licenses: 7 } }
      }),
      'GET /_emulator/faults': () => ({ body: { ok: true, rules: [] } })
    })
    const before = useConnection.getState().dataVersion
    expect(await useSettings.getState().loadPreset('full-library')).toEqual({ licenses: 7 })
    expect(useConnection.getState().dataVersion).toBe(before + 1)
  })
})

// ---- Developers and the management API --------------------------------------------------------

describe('developers store and the acting developer', () => {
  it('acts as the first developer unless one was chosen, and keeps a chosen one', async () => {
    await connect({
      'GET /_emulator/developers': () => ({
        body: { ok: true, developers: [developer('dev_a'), developer('dev_b', 'admin')] }
      })
    })
    await useDevelopers.getState().load()
    expect(useDevelopers.getState().actingId).toBe('dev_a')
    useDevelopers.getState().setActing('dev_b')
    await useDevelopers.getState().load()
    expect(selectActingDeveloper(useDevelopers.getState())?.role).toBe('admin')
  })

  it('falls back when the chosen developer is gone (after a reset)', async () => {
    useDevelopers.setState({ actingId: 'dev_gone' })
    await connect({ 'GET /_emulator/developers': () => ({ body: { ok: true, developers: [developer('dev_new')] } }) })
    await useDevelopers.getState().load()
    expect(useDevelopers.getState().actingId).toBe('dev_new')
  })

  it('calls the management API with a developer JWT, re-minting it once when it expired', async () => {
    let mints = 0
    let listCalls = 0
    const server = await connect({
      'POST /_emulator/developers/dev_a/session': () => ({
        body: { ok: true, token: `jwt-${++mints}`, expiresAt: FAR }
      }),
      'GET /_emulator/products': () => ({ body: { ok: true, products: [product('p1', 'dev_a')] } }),
      'GET /api/developer/plugin-keys/products': (call) => {
        listCalls++
        if (call.headers.authorization === 'Bearer jwt-1')
          return { status: 401, body: { ok: false, error: 'TOKEN_EXPIRED', message: 'expired' } }
        return { body: { ok: true, credentials: [credential('p1')], count: 1 } }
      }
    })
    useDevelopers.setState({ actingId: 'dev_a' })
    await useProducts.getState().load()
    expect(mints).toBe(2)
    expect(listCalls).toBe(2)
    expect(useProducts.getState().credentials.data).toHaveLength(1)
    // The admin token never goes to the service API.
    expect(
      server.calls.filter((c) => c.path.startsWith('/api/')).every((c) => c.headers['x-emulator-token'] === undefined)
    ).toBe(true)
  })

  it("waits for the developers list before the tester's reveal: a click while it loads acts as its first developer", async () => {
    // On a fresh browser the acting developer is known only once the list has loaded; a reveal
    // clicked before that answered NO_ACTING_DEVELOPER (seen under load in CI).
    await connect({
      'GET /_emulator/developers': () => ({ body: { ok: true, developers: [developer('dev_a')] } }),
      'POST /_emulator/developers/dev_a/session': () => ({ body: { ok: true, token: 'jwt', expiresAt: FAR } }),
      'POST /api/developer/plugin-keys/products/p1/reveal-secret': () => ({
        body: {
          ok: true,
          credential: credential('p1'),
          one_time_reveal: { appId: 'app_p1', pluginKey: 'pk_full', pluginSecret: 'sk_full', secret_shown_once: true }
        }
      })
    })
    expect(useDevelopers.getState().actingId).toBeNull()
    const loading = useDevelopers.getState().load()
    await useTester.getState().revealInto('p1', 'Product p1')
    await loading
    expect(useTester.getState().values).toMatchObject({
      productId: 'p1',
      pluginKey: 'pk_full',
      pluginSecret: 'sk_full'
    })
  })

  it('says to choose a developer when there is none', async () => {
    await connect({ 'GET /_emulator/products': () => ({ body: { ok: true, products: [] } }) })
    await useProducts.getState().load()
    expect(useProducts.getState().credentials.error?.code).toBe('NO_ACTING_DEVELOPER')
  })
})

// ---- Products and credentials -------------------------------------------------------------------

describe('products and credentials store', () => {
  const session: Record<string, Handler> = {
    'POST /_emulator/developers/dev_a/session': () => ({ body: { ok: true, token: 'jwt', expiresAt: FAR } })
  }
  const detailRoutes: Record<string, Handler> = {
    'GET /api/developer/plugin-keys/products': () => ({ body: { ok: true, credentials: [], count: 0 } }),
    'GET /api/developer/plugin-keys/products/p1': () => ({
      status: 404,
      body: { ok: false, error: 'PRODUCT_CREDENTIAL_NOT_FOUND', message: 'none' }
    }),
    'GET /_emulator/products/p1/audit': () => ({ body: { ok: true, entries: [] } }),
    'GET /_emulator/products/p1/connection': () => ({ body: { ok: true, connection: null } })
  }

  it('reads "never had a credential" as an empty record, not an error', async () => {
    await connect({ ...session, ...detailRoutes })
    useDevelopers.setState({ actingId: 'dev_a' })
    await useProducts.getState().loadDetail('p1')
    const detail = useProducts.getState().details.p1
    expect(detail?.current).toEqual({ status: 'ready', data: null, error: null })
    expect(detail?.connection.data).toBeNull()
  })

  it('holds the one-time reveal of a create until dismissed, and sends the reason', async () => {
    const server = await connect({
      ...session,
      ...detailRoutes,
      'POST /api/developer/plugin-keys/products/p1': () => ({
        status: 201,
        body: {
          ok: true,
          created: true,
          credential: credential('p1'),
          one_time_reveal: { appId: 'app_p1', pluginKey: 'pk_full', pluginSecret: 'sk_full', secret_shown_once: true }
        }
      })
    })
    useDevelopers.setState({ actingId: 'dev_a' })
    const outcome = await useProducts.getState().runAction('p1', 'create', 'first build')
    expect(outcome.kind).toBe('revealed')
    expect(useProducts.getState().revealed).toMatchObject({
      productId: 'p1',
      action: 'create',
      pluginKey: 'pk_full',
      pluginSecret: 'sk_full'
    })
    expect(
      server.calls.find((c) => c.method === 'POST' && c.path === '/api/developer/plugin-keys/products/p1')?.body
    ).toEqual({ reason: 'first build' })
    useProducts.getState().dismissRevealed()
    expect(useProducts.getState().revealed).toBeNull()
    expect(useProducts.getState().pending).toBeNull()
  })

  it('an ensure that finds an active credential reveals nothing; a failed action throws the ApiError', async () => {
    await connect({
      ...session,
      ...detailRoutes,
      'POST /api/developer/plugin-keys/products/p1/ensure': () => ({
        body: { ok: true, created: false, credential: credential('p1') }
      }),
      'POST /api/developer/plugin-keys/products/p1/reveal-secret': () => ({
        status: 409,
        body: {
          ok: false,
          error: 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE',
          message: 'Not recoverable.',
          recovery: { rotateKey: '/k', rotateSecret: '/s' }
        }
      })
    })
    useDevelopers.setState({ actingId: 'dev_a' })
    expect((await useProducts.getState().runAction('p1', 'ensure')).kind).toBe('existing')
    expect(useProducts.getState().revealed).toBeNull()
    await expect(useProducts.getState().runAction('p1', 'reveal-secret')).rejects.toMatchObject({
      code: 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE',
      details: { recovery: { rotateKey: '/k', rotateSecret: '/s' } }
    })
    expect(useProducts.getState().pending).toBeNull()
  })

  it("shows the products the server lists for the acting developer, and nothing of another developer's list", async () => {
    const all = [product('p1', 'dev_a'), product('p2', 'dev_b')]
    // The server decides who sees what (an admin sees everything): the store shows its answer as is.
    const server = await connect({
      'GET /_emulator/products': (call) => ({
        body: { ok: true, products: call.query.get('visibleTo') === 'dev_a' ? all.slice(0, 1) : all }
      })
    })
    useDevelopers.setState({ actingId: 'dev_a' })
    await useProducts.getState().loadVisible()
    const listings = server.calls.filter((call) => call.path === '/_emulator/products')
    expect(listings.map((call) => call.query.get('visibleTo'))).toEqual(['dev_a'])
    expect(selectVisibleProducts(useProducts.getState(), developer('dev_a'))?.map((p) => p.id)).toEqual(['p1'])
    // Until the list of the newly acting developer arrives, none is shown rather than the last one's.
    expect(selectVisibleProducts(useProducts.getState(), developer('dev_c', 'admin'))).toBeNull()
    useDevelopers.setState({ actingId: 'dev_c' })
    await useProducts.getState().loadVisible()
    expect(selectVisibleProducts(useProducts.getState(), developer('dev_c', 'admin'))?.map((p) => p.id)).toEqual([
      'p1',
      'p2'
    ])
  })

  it('takes the active credential of a product over its revoked ones', () => {
    const list = [
      credential('p1', { id: 'new', status: 'revoked', isActive: false }),
      credential('p1', { id: 'active' }),
      credential('p2', { id: 'only', status: 'revoked', isActive: false })
    ]
    const current = currentCredentialByProduct(list)
    expect(current.get('p1')?.id).toBe('active')
    expect(current.get('p2')?.id).toBe('only')
  })
})

// ---- Library ------------------------------------------------------------------------------------

describe('library store', () => {
  it('mints a library token for the chosen customer and re-mints it when it expired', async () => {
    let mints = 0
    const payload = {
      ok: true,
      products: [],
      subscriptions: [],
      licenses: [],
      orders: [],
      profile: { customer_id: 'cus_1' },
      download_token: 'dl'
    }
    const server = await connect({
      'POST /_emulator/customers/cus_1/library-token': () => ({
        body: { ok: true, libraryToken: `lib-${++mints}`, expiresAt: FAR }
      }),
      'GET /api/library': (call) =>
        call.headers.authorization === 'Bearer lib-1'
          ? { status: 401, body: { ok: false, error: 'LIBRARY_TOKEN_INVALID', message: 'expired' } }
          : { body: payload },
      'GET /api/license/v1/webview-library': () => ({ body: { ok: true, scope: 'library' } })
    })
    useLibrary.getState().setOptions({ instanceId: 'studio-mac' })
    await useLibrary.getState().selectCustomer('cus_1')
    expect(mints).toBe(2)
    expect(useLibrary.getState().library.data?.download_token).toBe('dl')
    expect(useLibrary.getState().webview.data?.scope).toBe('library')
    expect(
      server.calls
        .filter((c) => c.path === '/api/library')
        .at(-1)
        ?.query.get('instance_id')
    ).toBe('studio-mac')
  })

  it('shows the customer chosen last when an earlier choice answers after it', async () => {
    let releaseFirst = () => {}
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve))
    const payloadOf = (customerId: string) => ({
      ok: true,
      products: [],
      subscriptions: [],
      licenses: [],
      orders: [],
      profile: { customer_id: customerId },
      download_token: `dl-${customerId}`
    })
    await connect({
      'POST /_emulator/customers/cus_1/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_1', expiresAt: FAR }
      }),
      'POST /_emulator/customers/cus_2/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_2', expiresAt: FAR }
      }),
      'GET /api/library': async (call) => {
        const customerId = String(call.headers.authorization).replace('Bearer lib-', '')
        if (customerId === 'cus_1') await firstHeld
        return { body: payloadOf(customerId) }
      },
      'GET /api/license/v1/webview-library': (call) => ({
        body: { ok: true, scope: String(call.headers.authorization).replace('Bearer lib-', '') }
      })
    })
    const first = useLibrary.getState().selectCustomer('cus_1')
    // Let the first choice's token arrive and its library call start, held by the fake server.
    await vi.waitFor(() => expect(useLibrary.getState().libraryToken).toBe('lib-cus_1'))
    await useLibrary.getState().selectCustomer('cus_2')
    releaseFirst()
    await first

    const state = useLibrary.getState()
    expect(state.source).toEqual({ kind: 'customer', customerId: 'cus_2' })
    expect(state.libraryToken).toBe('lib-cus_2')
    expect(state.library).toMatchObject({ status: 'ready', data: { download_token: 'dl-cus_2' } })
    expect(state.webview).toMatchObject({ status: 'ready', data: { scope: 'cus_2' } })
  })

  it("keeps the later choice when the earlier one's token is minted after it", async () => {
    let releaseMint = () => {}
    const mintHeld = new Promise<void>((resolve) => (releaseMint = resolve))
    await connect({
      'POST /_emulator/customers/cus_1/library-token': async () => {
        await mintHeld
        return { body: { ok: true, libraryToken: 'lib-cus_1', expiresAt: FAR } }
      },
      'POST /_emulator/customers/cus_2/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_2', expiresAt: FAR }
      }),
      'GET /api/library': (call) => ({
        body: { ok: true, profile: { customer_id: String(call.headers.authorization).slice(11) } }
      }),
      'GET /api/license/v1/webview-library': () => ({ body: { ok: true, scope: 'library' } })
    })
    const first = useLibrary.getState().selectCustomer('cus_1')
    await useLibrary.getState().selectCustomer('cus_2')
    releaseMint()
    await first

    const state = useLibrary.getState()
    expect(state.libraryToken).toBe('lib-cus_2')
    expect(state.library.data?.profile.customer_id).toBe('cus_2')
  })

  it('draws the library before it asks for the web view payload, and fills that in after', async () => {
    let releaseLibrary = () => {}
    const libraryHeld = new Promise<void>((resolve) => (releaseLibrary = resolve))
    let releaseWebview = () => {}
    const webviewHeld = new Promise<void>((resolve) => (releaseWebview = resolve))
    const server = await connect({
      'POST /_emulator/customers/cus_1/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_1', expiresAt: FAR }
      }),
      'GET /api/library': async () => {
        await libraryHeld
        return { body: { ok: true, profile: { customer_id: 'cus_1' }, download_token: 'dl' } }
      },
      'GET /api/license/v1/webview-library': async () => {
        await webviewHeld
        return { body: { ok: true, scope: 'library' } }
      }
    })
    const selected = useLibrary.getState().selectCustomer('cus_1')
    await vi.waitFor(() => expect(server.count('GET /api/library')).toBe(1))
    // While the library is awaited, the server has only the library to answer.
    expect(server.count('GET /api/license/v1/webview-library')).toBe(0)
    releaseLibrary()
    await vi.waitFor(() => expect(useLibrary.getState().library.status).toBe('ready'))
    expect(useLibrary.getState().library.data?.download_token).toBe('dl')
    expect(useLibrary.getState().webview.status).toBe('loading')
    await vi.waitFor(() => expect(server.count('GET /api/license/v1/webview-library')).toBe(1))
    releaseWebview()
    await selected
    expect(useLibrary.getState().webview).toMatchObject({ status: 'ready', data: { scope: 'library' } })
  })

  it("drops an earlier choice's web view payload that arrives after a later choice", async () => {
    let releaseFirstWebview = () => {}
    const firstWebviewHeld = new Promise<void>((resolve) => (releaseFirstWebview = resolve))
    await connect({
      'POST /_emulator/customers/cus_1/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_1', expiresAt: FAR }
      }),
      'POST /_emulator/customers/cus_2/library-token': () => ({
        body: { ok: true, libraryToken: 'lib-cus_2', expiresAt: FAR }
      }),
      'GET /api/library': (call) => ({
        body: { ok: true, profile: { customer_id: String(call.headers.authorization).slice(11) } }
      }),
      'GET /api/license/v1/webview-library': async (call) => {
        const customerId = String(call.headers.authorization).slice(11)
        if (customerId === 'cus_1') await firstWebviewHeld
        return { body: { ok: true, scope: customerId } }
      }
    })
    const first = useLibrary.getState().selectCustomer('cus_1')
    await vi.waitFor(() => expect(useLibrary.getState().library.data?.profile.customer_id).toBe('cus_1'))
    await useLibrary.getState().selectCustomer('cus_2')
    releaseFirstWebview()
    await first

    const state = useLibrary.getState()
    expect(state.library.data?.profile.customer_id).toBe('cus_2')
    expect(state.webview).toMatchObject({ status: 'ready', data: { scope: 'cus_2' } })
  })

  it('does not re-mint a pasted token: it reports it', async () => {
    await connect({
      'GET /api/library': () => ({ status: 401, body: { ok: false, error: 'LIBRARY_TOKEN_INVALID', message: 'bad' } }),
      'GET /api/license/v1/webview-library': () => ({
        status: 401,
        body: { ok: false, error: 'LIBRARY_TOKEN_INVALID', message: 'bad' }
      })
    })
    await useLibrary.getState().openPastedToken('  pasted  ')
    expect(useLibrary.getState().libraryToken).toBe('pasted')
    expect(useLibrary.getState().library.error?.code).toBe('LIBRARY_TOKEN_INVALID')
  })
})

// ---- Request inspector ---------------------------------------------------------------------------

const summary = (id: number, patch: Partial<RequestSummary> = {}): RequestSummary => ({
  id,
  at: '2026-01-01T00:00:00.000Z',
  surface: 'license-v1',
  method: 'POST',
  path: '/api/license/v1/activate',
  status: 201,
  durationMs: 3,
  authKind: 'product-credential',
  productId: 'p1',
  source: 'client',
  errorCode: null,
  fault: null,
  answeredBy: 'emulator',
  upstreamStatus: null,
  upstreamMs: null,
  ...patch
})

describe('request inspector store', () => {
  it('matches the server filters: surface, method, product, exact status and class', () => {
    const entry = summary(1, { status: 404 })
    expect(matchesFilters(entry, {})).toBe(true)
    expect(matchesFilters(entry, { status: '4xx' })).toBe(true)
    expect(matchesFilters(entry, { status: '404' })).toBe(true)
    expect(matchesFilters(entry, { status: '2xx' })).toBe(false)
    expect(matchesFilters(entry, { method: 'post' })).toBe(true)
    expect(matchesFilters(entry, { surface: 'library' })).toBe(false)
    expect(matchesFilters(entry, { productId: 'p2' })).toBe(false)
    expect(matchesFilters(summary(2, { status: 0 }), { status: '0' })).toBe(true)
  })

  it("leaves out the UI's own calls by default, and shows them when asked", () => {
    const own = summary(1, { source: 'ui' })
    const tester = summary(2, { source: 'tester' })
    const defaults = useRequests.getInitialState().filters
    expect(defaults.source).toBe(WITHOUT_UI_CALLS)
    expect(hasChosenFilters(defaults)).toBe(false)
    expect(matchesFilters(own, defaults)).toBe(false)
    expect(matchesFilters(tester, defaults)).toBe(true)
    expect(matchesFilters(summary(3), defaults)).toBe(true)
    expect(matchesFilters(own, {})).toBe(true)
  })

  it('merges newest first, each id once, capped', () => {
    expect(
      mergeEntries([summary(1), summary(3)], [summary(2), summary(3, { status: 500 })]).map((e) => [e.id, e.status])
    ).toEqual([
      [3, 500],
      [2, 201],
      [1, 201]
    ])
    const many = Array.from({ length: MAX_ROWS + 10 }, (_, i) => summary(i + 1))
    const merged = mergeEntries([], many)
    expect(merged).toHaveLength(MAX_ROWS)
    expect(merged[0]?.id).toBe(MAX_ROWS + 10)
  })

  it('holds streamed entries while paused and shows them on resume; drops ones the filters exclude', () => {
    const store = useRequests.getState()
    useRequests.setState({ filters: { surface: 'license-v1' } })
    store.receive(summary(1))
    store.receive(summary(2, { surface: 'library' }))
    expect(useRequests.getState().entries.map((e) => e.id)).toEqual([1])
    store.setPaused(true)
    store.receive(summary(3))
    expect(useRequests.getState().entries.map((e) => e.id)).toEqual([1])
    expect(useRequests.getState().held.map((e) => e.id)).toEqual([3])
    store.setPaused(false)
    expect(useRequests.getState().entries.map((e) => e.id)).toEqual([3, 1])
    expect(useRequests.getState().held).toEqual([])
  })

  it('loads pages with the filters and keeps what the stream already delivered', async () => {
    const server = await connect({
      'GET /_emulator/requests': (call) => ({
        body: {
          ok: true,
          requests: call.query.get('before') ? [summary(1)] : [summary(3), summary(2)],
          nextBefore: call.query.get('before') ? null : 2
        }
      })
    })
    useRequests.getState().receive(summary(4))
    useRequests.getState().setFilters({ status: '2xx' })
    await useRequests.getState().load()
    expect(useRequests.getState().entries.map((e) => e.id)).toEqual([4, 3, 2])
    expect(server.calls.find((c) => c.path === '/_emulator/requests')?.query.get('status')).toBe('2xx')
    await useRequests.getState().loadOlder()
    expect(useRequests.getState().entries.map((e) => e.id)).toEqual([4, 3, 2, 1])
    expect(useRequests.getState().nextBefore).toBeNull()
  })
})
