/**
 * The shapes the renderer reads, as the contract (service-interface.md, decisions.md) and the
 * server's schemas (GET /openapi.json) define them. Control-plane JSON is camelCase; the
 * service's licensing and library payloads are snake_case, as the service answers them.
 */

export type Iso = string

// ---- Control plane -------------------------------------------------------------------------

export interface Health {
  ok: true
  version: string
  uptimeS: number
}

export interface ServerSettings {
  headerPrefix: string
  strict: boolean
}

export interface Counts {
  developers: number
  products: number
  credentials: number
  activeCredentials: number
  customers: number
  licenses: number
  activations: number
  requests: number
}

export interface ServerInfo {
  ok: true
  version: string
  baseUrl: string
  databasePath: string
  hasRuntimeKey: boolean
  credentialHeaders: { appId: string; pluginKey: string; pluginSecret: string }
  settings: ServerSettings
  counts: Counts
}

export type DeveloperRole = 'developer' | 'admin'

export interface Developer {
  id: string
  email: string
  name: string | null
  role: DeveloperRole
  createdAt: Iso
}

export interface Product {
  id: string
  developerId: string
  name: string
  appId: string
  storefrontSlug: string | null
  createdAt: Iso
}

export interface Session {
  token: string
  expiresAt: Iso
}

export interface Customer {
  id: string
  userId: string
  email: string
  name: string | null
  country: string | null
  locale: string | null
  developerId: string | null
  createdAt: Iso
}

export type LicenseKind = 'perpetual' | 'subscription' | 'trial'
export type LicenseStatus = 'active' | 'suspended' | 'revoked'

export interface License {
  id: string
  key: string
  customerId: string
  productId: string
  entitlementId: string | null
  subscriptionId: string | null
  kind: LicenseKind
  status: LicenseStatus
  expiresAt: Iso | null
  maxActivations: number
  createdAt: Iso
}

export interface Activation {
  id: string
  licenseId: string
  instanceId: string
  instanceName: string | null
  platform: string | null
  appVersion: string | null
  firstSeenAt: Iso
  lastSeenAt: Iso
  deactivatedAt: Iso | null
}

export interface Order {
  id: string
  customerId: string | null
  channel: 'direct' | 'reseller'
  reseller: string | null
  storefrontSlug: string | null
  status: string
  currency: string
  totalCents: number
  createdAt: Iso
}

export interface OrderItem {
  id: string
  orderId: string
  productId: string
  kind: string
  unitPriceCents: number
  claimable: boolean
  claimedByCustomerId: string | null
  claimedAt: Iso | null
}

export interface Purchase {
  order: Order
  item: OrderItem
  license: License
  subscription: { id: string; plan: string; status: string; currentPeriodEnd: Iso } | null
}

export interface ResellerOrder {
  order: Order
  item: OrderItem
  claimToken: string
  claimUrl: string
}

export interface ClockState {
  now: Iso
  offsetS: number
  systemNow: Iso
}

export interface Preset {
  name: string
  title: string
  description: string
}

export type AuditAction = 'create' | 'ensure' | 'reveal-secret' | 'rotate-key' | 'rotate-secret' | 'revoke' | 'verify' | 'create-legacy'

export interface AuditEntry {
  id: number
  productId: string
  credentialId: string | null
  action: AuditAction | string
  outcome: 'success' | 'failure' | 'noop'
  actorKind: 'developer' | 'emulator' | 'plugin'
  actorId: string | null
  reason: string | null
  metadata: unknown
  at: Iso
}

export interface ConnectionStatus {
  productId: string
  lastStatus: 'verified' | 'failed'
  lastReason: string | null
  lastAttemptAt: Iso
  lastVerifiedAt: Iso | null
  lastCredentialId: string | null
  attemptCount: number
  successCount: number
  failureCount: number
}

export const FAULT_KINDS = ['latency', 'error', 'rate_limit', 'offline', 'trickle'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultRule {
  id: string
  method: string | null
  route: string
  kind: FaultKind
  ms: number | null
  jitterMs: number | null
  status: number | null
  probability: number
  retryAfterS: number | null
}

export interface FaultRuleInput {
  id?: string | null
  method?: string | null
  route: string
  kind: FaultKind
  ms?: number | null
  jitterMs?: number | null
  status?: number | null
  probability?: number | null
  retryAfterS?: number | null
}

// ---- Request inspector ---------------------------------------------------------------------

export const SURFACES = [
  'developer-plugin-keys',
  'plugin-connections',
  'library',
  'license-v1',
  'downloads',
  'legacy',
  'well-known',
  'other'
] as const
export type Surface = (typeof SURFACES)[number]

export type AuthKind = 'developer-jwt' | 'product-credential' | 'product-credential-bearer' | 'library-token' | 'user-jwt' | 'none'

export interface RequestSummary {
  id: number
  at: Iso
  surface: Surface
  method: string
  path: string
  status: number
  durationMs: number
  authKind: AuthKind
  productId: string | null
}

export interface BodyInfo {
  kind: 'none' | 'json' | 'text' | 'binary' | 'stream'
  bytes: number | null
  truncated: boolean
  note?: string
}

export type HeaderMap = Record<string, string | string[]>

export interface RequestEntry extends RequestSummary {
  request: { headers: HeaderMap; query: HeaderMap; body: unknown; bodyInfo: BodyInfo }
  response: { headers: HeaderMap; body: unknown; bodyInfo: BodyInfo }
}

export interface RequestFilters {
  surface?: Surface | undefined
  status?: string | undefined
  method?: string | undefined
  productId?: string | undefined
}

// ---- Product credentials (service API, section 4.1) ----------------------------------------

export interface CredentialRecord {
  id: string
  productId: string
  appId: string
  pluginKeyPreview: string
  pluginSecretPreview: string
  apiBaseUrl: string
  status: 'active' | 'revoked'
  isActive: boolean
  createdAt: Iso
  createdBy: string | null
  lastUsedAt: Iso | null
  hasRecoverableSecret: boolean
  rotatedFromId: string | null
  replacedById: string | null
  revokedAt: Iso | null
  revokedReason: string | null
  revocationCause: 'revoke' | 'rotate-key' | 'rotate-secret' | null
  secretShownOnce: boolean
  secretShownOnceAt: Iso | null
  revealCount: number
  lastRevealedAt: Iso | null
}

/** The full material: one_time_reveal (create, ensure-created, rotate) or reveal-secret's answer. */
export interface OneTimeReveal {
  appId: string
  pluginKey: string
  pluginSecret: string
  secret_shown_once: boolean
  productKey?: string
  ProductSecret?: string
}

/** The four values a plugin holds and sends to verify. */
export interface CredentialValues {
  productId: string
  appId: string
  pluginKey: string
  pluginSecret: string
}

// ---- Licensing (service API, /api/license/v1) ----------------------------------------------

export type LicenseCode =
  | 'VALID'
  | 'NOT_FOUND'
  | 'SUSPENDED'
  | 'EXPIRED'
  | 'REVOKED'
  | 'NOT_ACTIVATED'
  | 'PRODUCT_SCOPE_MISMATCH'
  | 'TOO_MANY_ACTIVATIONS'
  | 'TRIAL_EXPIRED'

export interface LicenseView {
  id: string
  license_key: string
  product_id: string
  kind: LicenseKind
  status: LicenseStatus
  expires_at: Iso | null
  max_activations: number
  activation_count: number
  activations_remaining: number
}

export interface ActivationView {
  id: string
  instance_id: string
  instance_name: string | null
  platform: string | null
  app_version: string | null
  first_seen_at: Iso
  last_seen_at: Iso
  deactivated_at: Iso | null
}

export interface Jwk {
  kty: string
  crv: string
  x: string
  kid: string
  alg: string
  use: string
}

// ---- Customer library (service API, section 4.3) -------------------------------------------

export interface LibraryDownload {
  file_id: string
  version: string
  platform: string
  filename: string
  size_bytes: number
  url: string
}

export interface LibraryProduct {
  product_id: string
  name: string
  version: string | null
  storefront_slug: string | null
  sources: string[]
  entitlement_ids: string[]
  acquired_at: Iso | null
  downloads: LibraryDownload[]
  license_ids: string[]
  activated_on_this_device: boolean | null
}

export interface LibraryActivation {
  id: string
  instance_id: string
  instance_name: string | null
  platform: string | null
  app_version: string | null
  first_seen_at: Iso
  last_seen_at: Iso
}

export interface LibraryLicense {
  id: string
  license_key: string
  product_id: string
  product_name: string
  kind: LicenseKind
  status: LicenseStatus
  state: LicenseCode
  expires_at: Iso | null
  max_activations: number
  activation_count: number
  activations_remaining: number
  activations: LibraryActivation[]
  activated_on_this_device: boolean | null
}

export interface LibrarySubscription {
  id: string
  product_id: string
  product_name: string
  plan: string
  status: string
  current_period_end: Iso
  renews_at: Iso | null
  cancel_at_period_end: boolean
  canceled_at: Iso | null
}

export interface LibraryOrder {
  id: string
  created_at: Iso
  channel: string
  reseller: string | null
  storefront_slug: string | null
  status: string
  currency: string
  total_cents: number
  items: { id: string; product_id: string; product_name: string | null; kind: string; unit_price_cents: number; claimed_at: Iso | null }[]
}

export interface LibraryPayload {
  ok: true
  products: LibraryProduct[]
  subscriptions: LibrarySubscription[]
  licenses: LibraryLicense[]
  orders: LibraryOrder[]
  marketing_preferences: { newsletter: boolean; product_updates: boolean; updated_at: Iso | null }
  profile: {
    customer_id: string
    user_id: string
    email: string
    name: string | null
    country: string | null
    locale: string | null
    member_since: Iso
  }
  support: {
    customer_reference: string
    contact_email: string
    help_url: string
    product_contacts: { product_id: string; product_name: string; email: string }[]
  }
  download_token: string
}

export interface WebviewPayload {
  ok: true
  scope: 'product' | 'library'
  product_id: string | null
  owned: boolean
  products: { product_id: string; name: string; version: string | null; downloads: { platform: string; version: string; size_bytes: number; url: string }[] }[]
  licenses: {
    id: string
    license_key: string
    product_id: string
    state: LicenseCode
    expires_at: Iso | null
    activation_count: number
    max_activations: number
    activated_on_this_device: boolean | null
  }[]
  subscriptions: { id: string; product_id: string; status: string; renews_at: Iso | null; current_period_end: Iso }[]
  profile: { name: string | null; email: string }
  support: { contact_email: string; help_url: string }
  library_url: string
  download_token: string
}

export interface ClaimResult {
  ok: true
  claimed: true
  already_claimed: boolean
  order_item: { id: string; order_id: string; product_id: string; claimed_at: string }
  entitlement: { id: string; product_id: string; source: string; status: string }
  license: { id: string; license_key: string; product_id: string; max_activations: number }
}
