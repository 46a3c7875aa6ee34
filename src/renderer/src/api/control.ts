import type { Static, TSchema } from 'typebox'

import type { OrderReversal } from '../../../shared/contract/orders'
import type {
  CustomerLibraryTokenResponse,
  CustomerListResponse,
  CustomerResponse,
  LicenseDeactivateResponse,
  LicenseDetailResponse,
  LicenseListResponse,
  LicenseResponse,
  OrderReversalResponse,
  PendingResellerOrderListResponse,
  ProductFileResponse,
  PurchaseResponse,
  ResellerOrderResponse,
  SubscriptionStandingResponse
} from '../../../shared/schemas/commerce'
import type {
  DeveloperListResponse,
  DeveloperResponse,
  ProductAuditResponse,
  ProductConnectionResponse,
  ProductCredentialsResponse,
  ProductListResponse,
  ProductResponse,
  SessionResponse
} from '../../../shared/schemas/control-plane'
import type {
  DriftClearedResponse,
  DriftEntryResponse,
  DriftFlaggedResponse,
  DriftReportResponse
} from '../../../shared/schemas/drift'
import type { FaultRulesRemovedResponse, FaultRulesResponse } from '../../../shared/schemas/faults'
import type {
  RecordingDocumentResponse,
  RecordingListResponse,
  RecordingRemovedResponse,
  RecordingResponse,
  ReplayResponse,
  ScenarioFromRecordingResponse
} from '../../../shared/schemas/recordings'
import type {
  HarResponse,
  RequestEntryResponse,
  RequestListResponse,
  RequestsClearedResponse
} from '../../../shared/schemas/requests'
import type {
  ClockResponse,
  PresetListResponse,
  PresetLoadResponse,
  ResetResponse,
  StateExportResponse,
  StateImportResponse,
  StatePreviewResponse
} from '../../../shared/schemas/scenarios'
import type { HealthResponse, ServerInfoResponse, SettingsResponse } from '../../../shared/schemas/server-info'
import type { UpstreamResponse } from '../../../shared/schemas/upstream'
import type { HttpClient } from './http'
import type {
  ClockMove,
  FaultRuleInput,
  LicensePatch,
  NewCustomer,
  NewDeveloper,
  NewProduct,
  NewProductFile,
  PurchaseInput,
  RequestFilters,
  RequestQuery,
  ResellerOrderInput,
  ServerSettingsPatch,
  SubscriptionAction
} from './types'

/** What a route answers, typed by the schema that serializes it (src/shared/schemas). */
type Answer<Schema extends TSchema> = Static<Schema>

/**
 * The emulator control plane (/_emulator, docs/api.md section 6). The HttpClient it is given
 * already sends the admin token as `x-emulator-token`.
 */
export function createControlApi(http: HttpClient, adminToken: string) {
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) =>
    http.json<T>({ method: 'GET', path: `/_emulator${path}`, query })
  const send = <T>(method: string, path: string, body?: unknown) =>
    http.json<T>({ method, path: `/_emulator${path}`, body: body ?? {} })
  const id = encodeURIComponent

  return {
    health: () => get<Answer<typeof HealthResponse>>('/health'),
    info: () => get<Answer<typeof ServerInfoResponse>>('/info'),
    settings: async () => (await get<Answer<typeof SettingsResponse>>('/settings')).settings,
    updateSettings: async (patch: ServerSettingsPatch) =>
      (await send<Answer<typeof SettingsResponse>>('PUT', '/settings', patch)).settings,

    developers: async () => (await get<Answer<typeof DeveloperListResponse>>('/developers')).developers,
    createDeveloper: async (input: NewDeveloper) =>
      (await send<Answer<typeof DeveloperResponse>>('POST', '/developers', input)).developer,
    developerSession: async (developerId: string, ttlS?: number) =>
      send<Answer<typeof SessionResponse>>('POST', `/developers/${id(developerId)}/session`, ttlS ? { ttlS } : {}),

    /** Every product, or (visibleTo) those one developer sees: the server decides which. */
    products: async (visibleTo?: string) =>
      (await get<Answer<typeof ProductListResponse>>('/products', { visibleTo })).products,
    createProduct: async (input: NewProduct) =>
      (await send<Answer<typeof ProductResponse>>('POST', '/products', input)).product,
    productCredentials: async (productId: string) =>
      (await get<Answer<typeof ProductCredentialsResponse>>(`/products/${id(productId)}/credentials`)).credentials,
    productAudit: async (productId: string) =>
      (await get<Answer<typeof ProductAuditResponse>>(`/products/${id(productId)}/audit`)).entries,
    productConnection: async (productId: string) =>
      (await get<Answer<typeof ProductConnectionResponse>>(`/products/${id(productId)}/connection`)).connection,
    addProductFile: async (productId: string, input: NewProductFile) =>
      send<Answer<typeof ProductFileResponse>>('POST', `/products/${id(productId)}/files`, input),

    customers: async () => (await get<Answer<typeof CustomerListResponse>>('/customers')).customers,
    createCustomer: async (input: NewCustomer) =>
      (await send<Answer<typeof CustomerResponse>>('POST', '/customers', input)).customer,
    customerSession: async (customerId: string) =>
      send<Answer<typeof SessionResponse>>('POST', `/customers/${id(customerId)}/session`),
    libraryToken: async (customerId: string) =>
      send<Answer<typeof CustomerLibraryTokenResponse>>('POST', `/customers/${id(customerId)}/library-token`),
    licenses: async (limit = 500, productId?: string) =>
      (await get<Answer<typeof LicenseListResponse>>('/licenses', { limit, ...(productId ? { productId } : {}) }))
        .licenses,
    customerLicenses: async (customerId: string) =>
      (await get<Answer<typeof LicenseListResponse>>(`/customers/${id(customerId)}/licenses`)).licenses,

    purchase: async (input: PurchaseInput) => send<Answer<typeof PurchaseResponse>>('POST', '/purchases', input),
    resellerOrder: async (input: ResellerOrderInput) =>
      send<Answer<typeof ResellerOrderResponse>>('POST', '/reseller-orders', input),
    /** Reseller orders waiting for their claim, with their claim links (null where not kept). */
    pendingResellerOrders: async () =>
      (await get<Answer<typeof PendingResellerOrderListResponse>>('/reseller-orders')).orders,
    license: async (licenseId: string) => get<Answer<typeof LicenseDetailResponse>>(`/licenses/${id(licenseId)}`),
    updateLicense: async (licenseId: string, patch: LicensePatch) =>
      (await send<Answer<typeof LicenseResponse>>('PATCH', `/licenses/${id(licenseId)}`, patch)).license,
    deactivateLicense: async (licenseId: string, instanceId: string) =>
      send<Answer<typeof LicenseDeactivateResponse>>('POST', `/licenses/${id(licenseId)}/deactivate`, { instanceId }),

    /** A refund (the vendor pays back) or a chargeback (the bank takes it back): what the order granted ends. */
    reverseOrder: async (orderId: string, reversal: OrderReversal) =>
      send<Answer<typeof OrderReversalResponse>>('POST', `/orders/${id(orderId)}/${reversal}`, {}),

    subscription: async (subscriptionId: string) =>
      get<Answer<typeof SubscriptionStandingResponse>>(`/subscriptions/${id(subscriptionId)}`),
    subscriptionAction: async (subscriptionId: string, action: SubscriptionAction) =>
      send<Answer<typeof SubscriptionStandingResponse>>('POST', `/subscriptions/${id(subscriptionId)}/${action}`),

    upstream: async () => (await get<Answer<typeof UpstreamResponse>>('/upstream')).upstream,
    setUpstream: async (body: { url: string | null; routes?: string[] | null }) =>
      (await send<Answer<typeof UpstreamResponse>>('PUT', '/upstream', body)).upstream,

    recordings: async () => (await get<Answer<typeof RecordingListResponse>>('/recordings')).recordings,
    startRecording: async (name?: string) =>
      (await send<Answer<typeof RecordingResponse>>('POST', '/recordings', name ? { name } : {})).recording,
    stopRecording: async (recordingId: string) =>
      (await send<Answer<typeof RecordingResponse>>('POST', `/recordings/${id(recordingId)}/stop`)).recording,
    recording: async (recordingId: string) =>
      (await get<Answer<typeof RecordingDocumentResponse>>(`/recordings/${id(recordingId)}`)).recording,
    deleteRecording: async (recordingId: string) =>
      http.json<Answer<typeof RecordingRemovedResponse>>({
        method: 'DELETE',
        path: `/_emulator/recordings/${id(recordingId)}`
      }),
    scenarioFromRecording: async (recordingId: string, credential: { pluginKey?: string; pluginSecret?: string }) =>
      send<Answer<typeof ScenarioFromRecordingResponse>>('POST', `/recordings/${id(recordingId)}/scenario`, credential),
    replay: async () => (await get<Answer<typeof ReplayResponse>>('/replay')).replay,
    setReplay: async (body: { recording: unknown; strict?: boolean; resign?: boolean }) =>
      (await send<Answer<typeof ReplayResponse>>('PUT', '/replay', body)).replay,

    clock: () => get<Answer<typeof ClockResponse>>('/clock'),
    setClock: (body: ClockMove) => send<Answer<typeof ClockResponse>>('PUT', '/clock', body),

    faults: async () => (await get<Answer<typeof FaultRulesResponse>>('/faults')).rules,
    replaceFaults: async (rules: FaultRuleInput[]) =>
      (await send<Answer<typeof FaultRulesResponse>>('PUT', '/faults', { rules })).rules,
    clearFaults: async () =>
      (await http.json<Answer<typeof FaultRulesRemovedResponse>>({ method: 'DELETE', path: '/_emulator/faults' }))
        .rules,

    exportState: async (options: { includeRequests?: boolean } = {}) =>
      (
        await get<Answer<typeof StateExportResponse>>(
          '/state',
          options.includeRequests ? { includeRequests: '1' } : undefined
        )
      ).state,
    importState: async (document: unknown) =>
      (await send<Answer<typeof StateImportResponse>>('PUT', '/state', document)).imported,
    /** What a document holds (counts, clock, fault rules, settings), checked as an import checks it; nothing changes. */
    previewState: async (document: unknown) =>
      (await send<Answer<typeof StatePreviewResponse>>('POST', '/state/preview', document)).preview,
    reset: () => send<Answer<typeof ResetResponse>>('POST', '/reset'),
    presets: async () => (await get<Answer<typeof PresetListResponse>>('/presets')).presets,
    loadPreset: async (name: string) =>
      (await send<Answer<typeof PresetLoadResponse>>('POST', `/presets/${id(name)}`)).imported,

    requests: (query: RequestQuery) => get<Answer<typeof RequestListResponse>>('/requests', { ...query }),
    /** The requests these filters show, as a HAR 1.2 document (redacted as the inspector is). */
    requestsHar: (query: RequestQuery) => get<Answer<typeof HarResponse>>('/requests/har', { ...query }),
    request: async (requestId: number) =>
      (await get<Answer<typeof RequestEntryResponse>>(`/requests/${requestId}`)).entry,
    clearRequests: async () =>
      (await http.json<Answer<typeof RequestsClearedResponse>>({ method: 'DELETE', path: '/_emulator/requests' }))
        .deleted,
    /** For EventSource, which cannot send headers: the token travels as `?token=` on this one route. */
    requestStreamUrl: (filters: RequestFilters) =>
      http.url('/_emulator/requests/stream', { ...filters, token: adminToken }),
    drift: () => get<Answer<typeof DriftReportResponse>>('/drift'),
    /** The same report as Markdown, to attach to a bug. */
    driftMarkdown: () => get<string>('/drift', { format: 'markdown' }),
    clearDrift: () => http.json<Answer<typeof DriftClearedResponse>>({ method: 'DELETE', path: '/_emulator/drift' }),
    driftedRequests: async () => (await get<Answer<typeof DriftFlaggedResponse>>('/drift/requests')).exchanges,
    requestDrift: async (requestId: number) =>
      (await get<Answer<typeof DriftEntryResponse>>(`/drift/requests/${requestId}`)).drift,
    /** The change feed (`event: change`), for EventSource: the token travels as `?token=`. */
    eventsUrl: () => http.url('/_emulator/events', { token: adminToken })
  }
}

export type ControlApi = ReturnType<typeof createControlApi>
