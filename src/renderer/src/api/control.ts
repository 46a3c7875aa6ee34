import type { HttpClient } from './http'
import type {
  Activation,
  AuditEntry,
  ClockState,
  ConnectionStatus,
  CredentialRecord,
  Customer,
  Developer,
  DeveloperRole,
  FaultRule,
  FaultRuleInput,
  Health,
  License,
  LicenseKind,
  LicenseStatus,
  Preset,
  Product,
  Purchase,
  RequestEntry,
  RequestFilters,
  RequestSummary,
  ResellerOrder,
  ServerInfo,
  ServerSettings,
  Session,
  SubscriptionAction,
  SubscriptionWithStanding
} from './types'

/**
 * The emulator control plane (/_emulator, docs/api.md section 6). The HttpClient it is given
 * already sends the admin token as `x-emulator-token`.
 */
export function createControlApi(http: HttpClient, adminToken: string) {
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) => http.json<T>({ method: 'GET', path: `/_emulator${path}`, query })
  const send = <T>(method: string, path: string, body?: unknown) => http.json<T>({ method, path: `/_emulator${path}`, body: body ?? {} })
  const id = encodeURIComponent

  return {
    health: () => get<Health>('/health'),
    info: () => get<ServerInfo>('/info'),
    settings: async () => (await get<{ settings: ServerSettings }>('/settings')).settings,
    updateSettings: async (patch: Partial<ServerSettings>) => (await send<{ settings: ServerSettings }>('PUT', '/settings', patch)).settings,

    developers: async () => (await get<{ developers: Developer[] }>('/developers')).developers,
    createDeveloper: async (input: { email: string; name?: string; role?: DeveloperRole }) =>
      (await send<{ developer: Developer }>('POST', '/developers', input)).developer,
    developerSession: async (developerId: string, ttlS?: number) =>
      send<Session & { ok: true }>('POST', `/developers/${id(developerId)}/session`, ttlS ? { ttlS } : {}),

    /** Every product, or (visibleTo) those one developer sees: the server decides which. */
    products: async (visibleTo?: string) => (await get<{ products: Product[] }>('/products', { visibleTo })).products,
    createProduct: async (input: { developerId: string; name: string; storefrontSlug?: string }) =>
      (await send<{ product: Product }>('POST', '/products', input)).product,
    productCredentials: async (productId: string) => (await get<{ credentials: CredentialRecord[] }>(`/products/${id(productId)}/credentials`)).credentials,
    productAudit: async (productId: string) => (await get<{ entries: AuditEntry[] }>(`/products/${id(productId)}/audit`)).entries,
    productConnection: async (productId: string) => (await get<{ connection: ConnectionStatus | null }>(`/products/${id(productId)}/connection`)).connection,
    addProductFile: async (productId: string, input: { version: string; platform: 'windows' | 'macos' | 'linux'; sizeBytes: number }) =>
      send<{ file: unknown }>('POST', `/products/${id(productId)}/files`, input),

    customers: async () => (await get<{ customers: Customer[] }>('/customers')).customers,
    createCustomer: async (input: { email: string; name?: string; country?: string }) =>
      (await send<{ customer: Customer }>('POST', '/customers', input)).customer,
    customerSession: async (customerId: string) => send<Session & { ok: true }>('POST', `/customers/${id(customerId)}/session`),
    libraryToken: async (customerId: string) => send<{ libraryToken: string; expiresAt: string }>('POST', `/customers/${id(customerId)}/library-token`),
    licenses: async (limit = 500) => (await get<{ licenses: License[] }>('/licenses', { limit })).licenses,
    customerLicenses: async (customerId: string) => (await get<{ licenses: License[] }>(`/customers/${id(customerId)}/licenses`)).licenses,

    purchase: async (input: {
      customerId: string
      productId: string
      kind?: LicenseKind
      maxActivations?: number
      expiresAt?: string
      plan?: 'monthly' | 'yearly'
    }) => send<Purchase & { ok: true }>('POST', '/purchases', input),
    resellerOrder: async (input: { productId: string; reseller?: string }) => send<ResellerOrder & { ok: true }>('POST', '/reseller-orders', input),
    license: async (licenseId: string) => get<{ license: License; activations: Activation[] }>(`/licenses/${id(licenseId)}`),
    updateLicense: async (licenseId: string, patch: { status?: LicenseStatus; expiresAt?: string | null; maxActivations?: number }) =>
      (await send<{ license: License }>('PATCH', `/licenses/${id(licenseId)}`, patch)).license,

    /** A refund (the vendor pays back) or a chargeback (the bank takes it back): what the order granted ends. */
    reverseOrder: async (orderId: string, reversal: 'refund' | 'chargeback') =>
      send<{ ok: true; changed: boolean }>('POST', `/orders/${id(orderId)}/${reversal}`, {}),

    subscription: async (subscriptionId: string) => get<SubscriptionWithStanding & { ok: true }>(`/subscriptions/${id(subscriptionId)}`),
    subscriptionAction: async (subscriptionId: string, action: SubscriptionAction) =>
      send<SubscriptionWithStanding & { ok: true }>('POST', `/subscriptions/${id(subscriptionId)}/${action}`),

    clock: () => get<ClockState & { ok: true }>('/clock'),
    setClock: (body: { offsetS: number } | { now: string } | { advanceS: number }) => send<ClockState & { ok: true }>('PUT', '/clock', body),

    faults: async () => (await get<{ rules: FaultRule[] }>('/faults')).rules,
    replaceFaults: async (rules: FaultRuleInput[]) => (await send<{ rules: FaultRule[] }>('PUT', '/faults', { rules })).rules,
    clearFaults: async () => (await http.json<{ rules: FaultRule[] }>({ method: 'DELETE', path: '/_emulator/faults' })).rules,

    exportState: async (options: { includeRequests?: boolean } = {}) =>
      (await get<{ state: unknown }>('/state', options.includeRequests ? { includeRequests: '1' } : undefined)).state,
    importState: async (document: unknown) => (await send<{ imported: Record<string, number> }>('PUT', '/state', document)).imported,
    reset: () => send<{ reset: true }>('POST', '/reset'),
    presets: async () => (await get<{ presets: Preset[] }>('/presets')).presets,
    loadPreset: async (name: string) => (await send<{ imported: Record<string, number> }>('POST', `/presets/${id(name)}`)).imported,

    requests: (query: RequestFilters & { limit?: number; before?: number }) =>
      get<{ requests: RequestSummary[]; nextBefore: number | null }>('/requests', { ...query }),
    request: async (requestId: number) => (await get<{ entry: RequestEntry }>(`/requests/${requestId}`)).entry,
    clearRequests: async () => (await http.json<{ deleted: number }>({ method: 'DELETE', path: '/_emulator/requests' })).deleted,
    /** For EventSource, which cannot send headers: the token travels as `?token=` on this one route. */
    requestStreamUrl: (filters: RequestFilters) => http.url('/_emulator/requests/stream', { ...filters, token: adminToken }),
    /** The change feed (`event: change`), for EventSource: the token travels as `?token=`. */
    eventsUrl: () => http.url('/_emulator/events', { token: adminToken })
  }
}

export type ControlApi = ReturnType<typeof createControlApi>
