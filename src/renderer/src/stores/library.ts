import { create } from 'zustand'

import type { OrderReversal } from '../../../shared/contract/orders'
import { isApiError } from '../api/errors'
import type {
  ClaimResult,
  Customer,
  LibraryPayload,
  LicenseKind,
  LicensePatch,
  NewCustomer,
  PendingResellerOrder,
  ResellerOrder,
  ResellerOrderInput,
  SubscriptionAction,
  SubscriptionWithStanding,
  WebviewPayload
} from '../api/types'
import { requireApi } from './connection'
import { failed, idle, loading, loadInto, ready } from './resource'
import type { Resource } from './resource'

export type LibrarySource = { kind: 'customer'; customerId: string } | { kind: 'token' }

export interface LibraryOptions {
  /** Marks what is activated on this device (`instance_id`). */
  instanceId: string
  /** One storefront only (`storefront`). */
  storefront: string
}

export interface LibraryState {
  customers: Resource<Customer[]>
  source: LibrarySource | null
  /** The library token in use: minted for the chosen customer, or pasted. Memory only. */
  libraryToken: string | null
  options: LibraryOptions
  library: Resource<LibraryPayload>
  webview: Resource<WebviewPayload>
  /** Reseller orders waiting for their claim, with their claim links (read from the server: a reload keeps them). */
  resellerOrders: Resource<PendingResellerOrder[]>
  /** The subscription the QA actions work on, as the control plane answers it: its standing and the actions it accepts now. */
  subscription: Resource<SubscriptionWithStanding>
  loadCustomers(): Promise<void>
  createCustomer(input: NewCustomer): Promise<Customer>
  selectCustomer(customerId: string): Promise<void>
  openPastedToken(token: string): Promise<void>
  setOptions(options: Partial<LibraryOptions>): void
  reload(): Promise<void>
  purchase(input: { productId: string; kind: LicenseKind; maxActivations?: number; expiresAt?: string }): Promise<void>
  resellerOrder(input: ResellerOrderInput): Promise<ResellerOrder>
  loadResellerOrders(): Promise<void>
  claim(claimToken: string): Promise<ClaimResult>
  updateLicense(licenseId: string, patch: LicensePatch): Promise<void>
  /** Frees the seat one instance holds (POST /_emulator/licenses/:id/deactivate), then the library again. */
  freeSeat(licenseId: string, instanceId: string): Promise<void>
  /** Reads one subscription from the control plane (what the QA actions may offer). */
  loadSubscription(subscriptionId: string): Promise<void>
  /** A billing event on a subscription (renew now, cancel, resume, payment fails or succeeds), then the library again. */
  subscriptionAction(subscriptionId: string, action: SubscriptionAction): Promise<void>
  /** Refunds or charges back an order, then the library again. */
  reverseOrder(orderId: string, reversal: OrderReversal): Promise<void>
}

export const useLibrary = create<LibraryState>()((set, get) => {
  /** Mints a library token for the customer; kept only while that choice is still the current one. */
  async function mint(source: LibrarySource & { kind: 'customer' }): Promise<boolean> {
    const issued = await requireApi().control.libraryToken(source.customerId)
    if (get().source !== source) return false
    set({ libraryToken: issued.libraryToken })
    return true
  }

  /**
   * Loads the library, then the web view payload, with the current token (re-minting an expired
   * one). The library first, drawn as soon as it arrives: it is the screen's main view and the
   * larger answer, and asked for together the two shared the server's one thread and the wire,
   * so the library waited for the web view's work (the other tab's) as well as its own.
   * As in loadInto, only the load asked for last writes: a slower answer for an earlier choice
   * (another customer, other options) arriving after a newer load began is dropped.
   */
  async function fetchBoth(retry: boolean): Promise<void> {
    const { libraryToken, options, source } = get()
    if (!libraryToken) return
    const service = requireApi().service
    const markers = { library: loading(get().library), webview: loading(get().webview) }
    set(markers)
    const instanceId = options.instanceId.trim() || undefined
    const storefront = options.storefront.trim() || undefined
    const reminted = async (answer: PromiseSettledResult<unknown>): Promise<boolean> => {
      const expired =
        answer.status === 'rejected' && isApiError(answer.reason) && answer.reason.code === 'LIBRARY_TOKEN_INVALID'
      if (!expired || !retry || source?.kind !== 'customer') return false
      if (await mint(source)) await fetchBoth(false)
      return true
    }

    const [library] = await Promise.allSettled([service.library(libraryToken, { instanceId, storefront })])
    if (get().library !== markers.library || (await reminted(library))) return
    set({ library: library.status === 'fulfilled' ? ready(library.value) : failed(get().library, library.reason) })

    const [webview] = await Promise.allSettled([service.webviewLibrary(libraryToken, { instanceId })])
    if (get().webview !== markers.webview || (await reminted(webview))) return
    set({ webview: webview.status === 'fulfilled' ? ready(webview.value) : failed(get().webview, webview.reason) })
  }

  return {
    customers: idle(),
    source: null,
    libraryToken: null,
    options: { instanceId: '', storefront: '' },
    library: idle(),
    webview: idle(),
    resellerOrders: idle(),
    subscription: idle(),

    async loadCustomers() {
      await loadInto({ get, set }, 'customers', () => requireApi().control.customers())
      const { customers, source } = get()
      if (customers.status !== 'ready' || !customers.data) return
      if (source?.kind === 'customer' && !customers.data.some((customer) => customer.id === source.customerId)) {
        set({ source: null, libraryToken: null, library: idle(), webview: idle() })
      }
    },

    async createCustomer(input) {
      const customer = await requireApi().control.createCustomer(input)
      set({ customers: ready([...(get().customers.data ?? []), customer]) })
      return customer
    },

    async selectCustomer(customerId) {
      const source = { kind: 'customer', customerId } as const
      set({ source, libraryToken: null, library: loading(undefined), webview: loading(undefined) })
      try {
        if (!(await mint(source))) return
      } catch (error) {
        if (get().source === source) set({ library: failed(undefined, error), webview: failed(undefined, error) })
        return
      }
      await fetchBoth(true)
    },

    async openPastedToken(token) {
      set({
        source: { kind: 'token' },
        libraryToken: token.trim(),
        library: loading(undefined),
        webview: loading(undefined)
      })
      await fetchBoth(false)
    },

    setOptions(options) {
      set({ options: { ...get().options, ...options } })
    },

    reload: () => fetchBoth(true),

    async purchase(input) {
      const customerId = currentCustomerId(get())
      await requireApi().control.purchase({ customerId, ...input })
      await fetchBoth(true)
    },

    async resellerOrder(input) {
      const order = await requireApi().control.resellerOrder(input)
      await get().loadResellerOrders()
      return order
    },

    loadResellerOrders: () =>
      loadInto({ get, set }, 'resellerOrders', () => requireApi().control.pendingResellerOrders()),

    async claim(claimToken) {
      const customerId = currentCustomerId(get())
      const api = requireApi()
      const session = await api.control.customerSession(customerId)
      const result = await api.service.claim(session.token, claimToken)
      await Promise.all([fetchBoth(true), get().loadResellerOrders()])
      return result
    },

    async updateLicense(licenseId, patch) {
      await requireApi().control.updateLicense(licenseId, patch)
      await fetchBoth(true)
    },

    async freeSeat(licenseId, instanceId) {
      await requireApi().control.deactivateLicense(licenseId, instanceId)
      await fetchBoth(true)
    },

    loadSubscription: (subscriptionId) =>
      loadInto({ get, set }, 'subscription', () => requireApi().control.subscription(subscriptionId)),

    async subscriptionAction(subscriptionId, action) {
      const answer = await requireApi().control.subscriptionAction(subscriptionId, action)
      set({ subscription: ready(answer) })
      await fetchBoth(true)
    },

    async reverseOrder(orderId, reversal) {
      await requireApi().control.reverseOrder(orderId, reversal)
      await fetchBoth(true)
    }
  }
})

/** QA actions act for a customer: the chosen one, or the owner of a pasted token. */
function currentCustomerId(state: LibraryState): string {
  if (state.source?.kind === 'customer') return state.source.customerId
  const fromPayload = state.library.data?.profile.customer_id
  if (fromPayload) return fromPayload
  throw new Error('Choose a customer first.')
}
