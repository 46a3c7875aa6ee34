/**
 * The shapes the renderer reads, derived from the wire contract's TypeBox schemas (src/shared/schemas):
 * the same schemas validate requests, serialize responses and make GET /openapi.json, so a
 * change there reaches the renderer as a compile error, not a surprise at run time. Imports are
 * type-only: no server code reaches the renderer bundle. Control-plane JSON is camelCase; the
 * service's licensing and library payloads are snake_case, as the service answers them.
 */
import type { Static } from 'typebox'

import type { SubscriptionAction } from '../../../shared/contract/subscriptions'
import type {
  ActivationSchema,
  CreateCustomerBody,
  CustomerSchema,
  LicenseKindSchema,
  LicenseListQuery,
  LicensePatchBody,
  LicenseSchema,
  LicenseStatusSchema,
  OrderItemSchema,
  OrderSchema,
  PendingResellerOrderSchema,
  ProductFileBody,
  ProductFileSchema,
  PurchaseBody,
  PurchaseSchema,
  ResellerOrderBody,
  ResellerOrderSchema,
  SubscriptionStandingResponse
} from '../../../shared/schemas/commerce'
import type { ActionNoteBody } from '../../../shared/schemas/common'
import type {
  AuditEntrySchema,
  ConnectionStatusSchema,
  CreateDeveloperBody,
  CreateProductBody,
  DeveloperSchema,
  ProductSchema,
  SessionSchema
} from '../../../shared/schemas/control-plane'
import type {
  CredentialListResponse,
  CredentialRecordSchema,
  CurrentCredentialResponse,
  ExistingResponse,
  IssuedResponse,
  OneTimeRevealSchema,
  RevealResponse,
  RevokeResponse,
  RotatedResponse
} from '../../../shared/schemas/credentials'
import type { FaultKindSchema, FaultRuleInputSchema, FaultRuleSchema } from '../../../shared/schemas/faults'
import type {
  ClaimResponse,
  LibraryActivationSchema,
  LibraryDownloadSchema,
  LibraryLicenseSchema,
  LibraryOrderSchema,
  LibraryProductSchema,
  LibraryResponse,
  LibrarySubscriptionSchema,
  WebviewResponse
} from '../../../shared/schemas/library'
import type {
  ActivateBody,
  ActivationViewSchema,
  DeactivateBody,
  JwkSchema,
  LicenseCodeSchema,
  LicenseViewSchema,
  ValidateBody
} from '../../../shared/schemas/licensing'
import type { VerifyConnectionBody } from '../../../shared/schemas/plugin-connections'
import type {
  AuthKindSchema,
  BodyInfoSchema,
  HeaderMapSchema,
  RequestEntrySchema,
  RequestListQuery,
  RequestSummarySchema,
  SurfaceSchema
} from '../../../shared/schemas/requests'
import type {
  ClockMoveBody,
  ClockStateSchema,
  PresetSchema,
  StatePreviewResponse
} from '../../../shared/schemas/scenarios'
import type {
  CountsSchema,
  HealthResponse,
  RuntimeSettingsPatchSchema,
  ServerInfoResponse,
  ServerSettingsSchema
} from '../../../shared/schemas/server-info'

// ---- Control plane -------------------------------------------------------------------------

export type Health = Static<typeof HealthResponse>
export type ServerSettings = Static<typeof ServerSettingsSchema>
export type ServerSettingsPatch = Static<typeof RuntimeSettingsPatchSchema>
export type Counts = Static<typeof CountsSchema>
export type ServerInfo = Static<typeof ServerInfoResponse>

export type Developer = Static<typeof DeveloperSchema>
export type DeveloperRole = Developer['role']
export type NewDeveloper = Static<typeof CreateDeveloperBody>
export type Product = Static<typeof ProductSchema>
export type NewProduct = Static<typeof CreateProductBody>
export type NewProductFile = Static<typeof ProductFileBody>
export type ProductFile = Static<typeof ProductFileSchema>
export type Session = Static<typeof SessionSchema>
export type Customer = Static<typeof CustomerSchema>
export type NewCustomer = Static<typeof CreateCustomerBody>

export type LicenseKind = Static<typeof LicenseKindSchema>
export type LicenseStatus = Static<typeof LicenseStatusSchema>
export type License = Static<typeof LicenseSchema>
export type Activation = Static<typeof ActivationSchema>
export type Order = Static<typeof OrderSchema>
export type OrderItem = Static<typeof OrderItemSchema>
export type Purchase = Static<typeof PurchaseSchema>
export type PurchaseInput = Static<typeof PurchaseBody>
export type ResellerOrderInput = Static<typeof ResellerOrderBody>
export type LicensePatch = Static<typeof LicensePatchBody>
export type LicenseListFilter = Static<typeof LicenseListQuery>
/** A subscription as stored, and as it stands on the emulator clock (the answer of every subscription action). */
export type SubscriptionWithStanding = Omit<Static<typeof SubscriptionStandingResponse>, 'ok'>
export type { SubscriptionAction }
export type ResellerOrder = Static<typeof ResellerOrderSchema>
export type PendingResellerOrder = Static<typeof PendingResellerOrderSchema>

export type ClockState = Static<typeof ClockStateSchema>
export type ClockMove = Static<typeof ClockMoveBody>
export type Preset = Static<typeof PresetSchema>

export type AuditEntry = Static<typeof AuditEntrySchema>
export type ConnectionStatus = Static<typeof ConnectionStatusSchema>

export type FaultKind = Static<typeof FaultKindSchema>
export type FaultRule = Static<typeof FaultRuleSchema>
export type FaultRuleInput = Static<typeof FaultRuleInputSchema>

// ---- Request inspector ---------------------------------------------------------------------

export type Surface = Static<typeof SurfaceSchema>
export type AuthKind = Static<typeof AuthKindSchema>

export type RequestSummary = Static<typeof RequestSummarySchema>
export type BodyInfo = Static<typeof BodyInfoSchema>
export type HeaderMap = Static<typeof HeaderMapSchema>
export type RequestEntry = Static<typeof RequestEntrySchema>

/** The list query of the request log (filters and paging). */
export type RequestQuery = Static<typeof RequestListQuery>
/** The filters the Requests screen offers: a part of the list query, held as UI state. */
export type RequestFilters = Pick<
  RequestQuery,
  'surface' | 'status' | 'method' | 'productId' | 'path' | 'q' | 'source' | 'answeredBy'
>

// ---- Product credentials (service API, section 4.1) ----------------------------------------

export type CredentialRecord = Static<typeof CredentialRecordSchema>
/** The full material: one_time_reveal of create, ensure-created and rotate. */
export type OneTimeReveal = Static<typeof OneTimeRevealSchema>
export type ActionNote = Static<typeof ActionNoteBody>
export type CredentialList = Static<typeof CredentialListResponse>
/** The active credential, else the latest revoked one. */
export type CurrentCredential = Static<typeof CurrentCredentialResponse>
/** create, or ensure when it created the credential: with its material, once. */
export type IssuedCredential = Static<typeof IssuedResponse>
/** ensure: issued, or the active credential that already existed (no material). */
export type EnsuredCredential = IssuedCredential | Static<typeof ExistingResponse>
/** reveal-secret: the material again, with the productKey / ProductSecret aliases. */
export type RevealedCredential = Static<typeof RevealResponse>
export type RotatedCredential = Static<typeof RotatedResponse>
export type RevokedCredential = Static<typeof RevokeResponse>

/** The four values a plugin holds and sends to verify. */
export type CredentialValues = Static<typeof VerifyConnectionBody>

// ---- Licensing (service API, /api/license/v1) ----------------------------------------------

export type LicenseCode = Static<typeof LicenseCodeSchema>
export type LicenseView = Static<typeof LicenseViewSchema>
export type ActivationView = Static<typeof ActivationViewSchema>
export type ActivateInput = Static<typeof ActivateBody>
export type ValidateInput = Static<typeof ValidateBody>
export type DeactivateInput = Static<typeof DeactivateBody>
export type Jwk = Static<typeof JwkSchema>

// ---- Customer library (service API, section 4.3) -------------------------------------------

export type LibraryDownload = Static<typeof LibraryDownloadSchema>
export type LibraryProduct = Static<typeof LibraryProductSchema>
export type LibraryActivation = Static<typeof LibraryActivationSchema>
export type LibraryLicense = Static<typeof LibraryLicenseSchema>
export type LibrarySubscription = Static<typeof LibrarySubscriptionSchema>
export type LibraryOrder = Static<typeof LibraryOrderSchema>
export type LibraryPayload = Static<typeof LibraryResponse>
export type WebviewPayload = Static<typeof WebviewResponse>
export type ClaimResult = Static<typeof ClaimResponse>

/** What a scenario document holds, before an import replaces the state with it (POST /_emulator/state/preview). */
export type ImportPreview = Static<typeof StatePreviewResponse>['preview']
