import { create } from 'zustand'

import type { AuditEntry, ConnectionStatus, CredentialRecord, Developer, OneTimeReveal, Product } from '../api/types'
import { requireApi } from './connection'
import { actingDeveloperSettled, actingManagement, useDevelopers } from './developers'
import { failed, idle, loading, loadInto, ready } from './resource'
import type { Resource } from './resource'

export type CredentialAction = 'create' | 'ensure' | 'reveal-secret' | 'rotate-key' | 'rotate-secret' | 'revoke'

/** Full credential material, held only while the reveal dialog is open. */
export interface RevealedMaterial {
  productId: string
  action: CredentialAction
  appId: string
  pluginKey: string
  pluginSecret: string
  credential: CredentialRecord
}

export interface ProductDetail {
  /** The active credential, else the latest revoked one; null when the product never had one. */
  current: Resource<CredentialRecord | null>
  /** Every credential of the product, newest first (management list). */
  history: Resource<CredentialRecord[]>
  audit: Resource<AuditEntry[]>
  connection: Resource<ConnectionStatus | null>
}

/** The products one developer sees. */
export interface VisibleProducts {
  developerId: string
  products: Product[]
}

export type ActionOutcome =
  | { kind: 'revealed'; material: RevealedMaterial }
  | { kind: 'existing'; credential: CredentialRecord }
  | { kind: 'revoked'; revoked: boolean }

export interface ProductsState {
  products: Resource<Product[]>
  /** The products the acting developer manages, as the server lists them for that developer (`visibleTo`). */
  visible: Resource<VisibleProducts>
  /** The acting developer's credentials across their visible products (management list). */
  credentials: Resource<CredentialRecord[]>
  details: Record<string, ProductDetail>
  pending: { productId: string; action: CredentialAction } | null
  revealed: RevealedMaterial | null
  /** Products, those the acting developer sees, and their credentials. */
  load(): Promise<void>
  /** Products only (control plane): for screens that only pick a product. */
  loadList(): Promise<void>
  /** The products the acting developer sees (the server decides which). */
  loadVisible(): Promise<void>
  loadCredentials(): Promise<void>
  createProduct(input: { developerId: string; name: string; storefrontSlug?: string }): Promise<Product>
  loadDetail(productId: string): Promise<void>
  /** Runs a management action; throws the ApiError for the dialog to show. */
  runAction(productId: string, action: CredentialAction, reason?: string): Promise<ActionOutcome>
  dismissRevealed(): void
}

const emptyDetail = (): ProductDetail => ({ current: idle(), history: idle(), audit: idle(), connection: idle() })

function materialFrom(
  productId: string,
  action: CredentialAction,
  reveal: OneTimeReveal,
  credential: CredentialRecord
): RevealedMaterial {
  return {
    productId,
    action,
    appId: reveal.appId,
    pluginKey: reveal.pluginKey,
    pluginSecret: reveal.pluginSecret,
    credential
  }
}

export const useProducts = create<ProductsState>()((set, get) => {
  const patchDetail = (productId: string, patch: Partial<ProductDetail>) => {
    const details = get().details
    set({ details: { ...details, [productId]: { ...(details[productId] ?? emptyDetail()), ...patch } } })
  }
  const detail = (productId: string) => get().details[productId] ?? emptyDetail()

  return {
    products: idle(),
    visible: idle(),
    credentials: idle(),
    details: {},
    pending: null,
    revealed: null,

    async load() {
      await Promise.all([get().loadList(), get().loadVisible()])
      await get().loadCredentials()
    },

    async loadList() {
      await loadInto({ get, set }, 'products', () => requireApi().control.products())
    },

    async loadVisible() {
      const actingId = useDevelopers.getState().actingId
      if (actingId === null) return set({ visible: idle() })
      await loadInto({ get, set }, 'visible', async () => ({
        developerId: actingId,
        products: await requireApi().control.products(actingId)
      }))
    },

    async loadCredentials() {
      await loadInto({ get, set }, 'credentials', async () => (await actingManagement().list()).credentials)
    },

    async createProduct(input) {
      const product = await requireApi().control.createProduct(input)
      set({ products: ready([...(get().products.data ?? []), product]) })
      await get().loadVisible()
      return product
    },

    async loadDetail(productId) {
      const api = requireApi()
      const previous = detail(productId)
      const markers = {
        current: loading(previous.current),
        history: loading(previous.history),
        audit: loading(previous.audit),
        connection: loading(previous.connection)
      }
      patchDetail(productId, markers)
      // As a dashboard would: the history through the management API, and the current record picked
      // from it. A GET of the current credential would answer 404 for a product that never had one:
      // noise in the request log a plugin developer reads, so the UI does not ask.
      const [h, a, n] = await Promise.allSettled([
        actingManagement().list(productId),
        api.control.productAudit(productId),
        api.control.productConnection(productId)
      ])
      const before = detail(productId)
      // As in loadInto: a newer load of this product's detail began meanwhile, and its answer wins.
      if (before.history !== markers.history) return
      const history = h.status === 'fulfilled' ? h.value.credentials : null
      patchDetail(productId, {
        current: history
          ? ready(currentCredentialByProduct(history).get(productId) ?? null)
          : failed(before.current, (h as PromiseRejectedResult).reason),
        history: history ? ready(history) : failed(before.history, (h as PromiseRejectedResult).reason),
        audit: a.status === 'fulfilled' ? ready(a.value) : failed(before.audit, a.reason),
        connection: n.status === 'fulfilled' ? ready(n.value) : failed(before.connection, n.reason)
      })
    },

    async runAction(productId, action, reason) {
      await actingDeveloperSettled()
      const management = actingManagement()
      const note = { reason }
      set({ pending: { productId, action } })
      try {
        let outcome: ActionOutcome
        switch (action) {
          case 'create': {
            const issued = await management.create(productId, note)
            outcome = issued.one_time_reveal
              ? {
                  kind: 'revealed',
                  material: materialFrom(productId, action, issued.one_time_reveal, issued.credential)
                }
              : { kind: 'existing', credential: issued.credential }
            break
          }
          case 'ensure': {
            const issued = await management.ensure(productId, note)
            outcome =
              issued.created && issued.one_time_reveal
                ? {
                    kind: 'revealed',
                    material: materialFrom(productId, action, issued.one_time_reveal, issued.credential)
                  }
                : { kind: 'existing', credential: issued.credential }
            break
          }
          case 'reveal-secret': {
            const revealed = await management.revealSecret(productId, note)
            outcome = {
              kind: 'revealed',
              material: materialFrom(productId, action, revealed.one_time_reveal, revealed.credential)
            }
            break
          }
          case 'rotate-key':
          case 'rotate-secret': {
            const rotated =
              action === 'rotate-key'
                ? await management.rotateKey(productId, note)
                : await management.rotateSecret(productId, note)
            outcome = {
              kind: 'revealed',
              material: materialFrom(productId, action, rotated.one_time_reveal, rotated.credential)
            }
            break
          }
          case 'revoke': {
            const result = await management.revoke(productId, note)
            outcome = { kind: 'revoked', revoked: result.revoked }
            break
          }
        }
        if (outcome.kind === 'revealed') set({ revealed: outcome.material })
        return outcome
      } finally {
        set({ pending: null })
        void get().loadDetail(productId)
        void get().loadCredentials()
      }
    },

    dismissRevealed() {
      set({ revealed: null })
    }
  }
})

/** The products the acting developer manages (null until the server listed them for that developer). */
export function selectVisibleProducts(state: ProductsState, acting: Developer | null): Product[] | null {
  const visible = state.visible.data
  return acting && visible?.developerId === acting.id ? visible.products : null
}

/** The current credential of each product, from the management list (active first, else the newest). */
export function currentCredentialByProduct(credentials: CredentialRecord[] | null): Map<string, CredentialRecord> {
  const map = new Map<string, CredentialRecord>()
  for (const credential of credentials ?? []) {
    const seen = map.get(credential.productId)
    if (!seen || (!seen.isActive && credential.isActive)) map.set(credential.productId, credential)
  }
  return map
}
