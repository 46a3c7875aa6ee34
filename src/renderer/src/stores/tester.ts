import { create } from 'zustand'

import type { Exchange } from '../api/http'
import type { ActivationView, ConnectionStatus, CredentialValues, Jwk, LicenseView } from '../api/types'
import { humanLabel } from '../format/labels'
import { inspectLicenseToken } from '../tokens/license-token'
import type { LicenseTokenReport } from '../tokens/license-token'
import { emulatorNow, headerPrefix, requireApi } from './connection'
import { actingDeveloperSettled, actingManagement } from './developers'
import { useProducts } from './products'
import { failed, idle, loading, loadInto, ready } from './resource'
import type { Resource } from './resource'

export type LifecycleStep = 'verify' | 'activate' | 'validate' | 'deactivate'

export interface StepResult {
  exchange: Exchange
  /** The license token of the answer, checked against the JWKS. */
  token: LicenseTokenReport | null
  /** The product's credential when the step ran (as the Credentials data knew it), to tell when it changed since. */
  credentialId: string | null
}

export interface LicenseInputs {
  licenseKey: string
  instanceId: string
  instanceName: string
  platform: string
  appVersion: string
  /** Send a fresh nonce with activate and validate, and check it is echoed in the token. */
  sendNonce: boolean
}

export interface TesterState {
  values: CredentialValues
  /** Where the values came from, for the form's caption. */
  origin: string | null
  license: LicenseInputs
  results: Partial<Record<LifecycleStep, StepResult>>
  running: LifecycleStep | null
  /** The step run last: its details are the ones open. */
  lastRun: LifecycleStep | null
  connection: Resource<ConnectionStatus | null>
  /** Licenses of the chosen product, across customers, to pick a license key from. */
  licenses: Resource<LicenseOption[]>
  setValues(patch: Partial<CredentialValues>): void
  setLicense(patch: Partial<LicenseInputs>): void
  chooseProduct(product: { id: string; appId: string; name: string }): void
  applyMaterial(material: CredentialValues, origin: string): void
  /** reveal-secret as the acting developer, to fill key and secret (recorded in the audit trail). */
  revealInto(productId: string, productName: string): Promise<void>
  run(step: LifecycleStep): Promise<StepResult>
  loadConnection(): Promise<void>
  loadLicenses(): Promise<void>
  /** A fresh perpetual license of the product for a QA customer (created when there is none). */
  createTestLicense(): Promise<string>
  clearResults(): void
}

export interface LicenseOption {
  key: string
  label: string
}

function randomToken(bytes: number): string {
  const values = new Uint8Array(bytes)
  const crypto = (globalThis as { crypto?: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto
  if (crypto) crypto.getRandomValues(values)
  else for (let i = 0; i < bytes; i++) values[i] = Math.floor(Math.random() * 256)
  return [...values].map((value) => value.toString(16).padStart(2, '0')).join('')
}

export const newInstanceId = () => `qa-${randomToken(3)}`

let jwksCache: Jwk[] | null = null

async function jwks(refresh: boolean): Promise<Jwk[]> {
  if (!jwksCache || refresh) jwksCache = await requireApi().tester.jwks()
  return jwksCache
}

const QA_CUSTOMER_EMAIL = 'qa-customer@example.test'

const EMPTY_VALUES: CredentialValues = { productId: '', appId: '', pluginKey: '', pluginSecret: '' }

export const useTester = create<TesterState>()((set, get) => ({
  values: EMPTY_VALUES,
  origin: null,
  license: {
    licenseKey: '',
    instanceId: newInstanceId(),
    instanceName: 'QA test machine',
    platform: 'macos',
    appVersion: '1.0.0',
    sendNonce: true
  },
  results: {},
  running: null,
  lastRun: null,
  connection: idle(),
  licenses: idle(),

  setValues(patch) {
    set({ values: { ...get().values, ...patch } })
  },

  setLicense(patch) {
    set({ license: { ...get().license, ...patch } })
  },

  chooseProduct(product) {
    const sameProduct = get().values.productId === product.id
    set({
      values: {
        productId: product.id,
        appId: product.appId,
        pluginKey: sameProduct ? get().values.pluginKey : '',
        pluginSecret: sameProduct ? get().values.pluginSecret : ''
      },
      origin: `Product ${product.name}: product ID and App ID filled in.`,
      results: sameProduct ? get().results : {},
      connection: sameProduct ? get().connection : idle()
    })
  },

  applyMaterial(material, origin) {
    set({ values: { ...material }, origin, results: {}, connection: idle() })
  },

  async revealInto(productId, productName) {
    await actingDeveloperSettled()
    const revealed = await actingManagement().revealSecret(productId, { reason: 'Connection tester' })
    const material = revealed.one_time_reveal
    set({
      values: { productId, appId: material.appId, pluginKey: material.pluginKey, pluginSecret: material.pluginSecret },
      origin: `Revealed for ${productName} (recorded in its audit trail).`
    })
  },

  async run(step) {
    const { values, license } = get()
    const service = requireApi().tester
    const prefix = headerPrefix()
    const nonce = license.sendNonce && (step === 'activate' || step === 'validate') ? randomToken(12) : undefined
    // Which credential this run used, so a later rotation can say so: read before the request, and
    // loaded first when the product's detail is not yet (a run right after the screen opened).
    const credentialId = values.productId ? await currentCredentialId(values.productId) : null
    set({ running: step, lastRun: step })
    try {
      let exchange: Exchange
      switch (step) {
        case 'verify':
          exchange = await service.verifyConnection(values)
          break
        case 'activate':
          exchange = await service.activate(prefix, values, {
            license_key: license.licenseKey.trim(),
            instance_id: license.instanceId.trim(),
            instance_name: license.instanceName.trim(),
            platform: license.platform.trim(),
            app_version: license.appVersion.trim(),
            nonce
          })
          break
        case 'validate':
          exchange = await service.validate(prefix, values, {
            license_key: license.licenseKey.trim(),
            instance_id: license.instanceId.trim() || undefined,
            nonce
          })
          break
        case 'deactivate':
          exchange = await service.deactivate(prefix, values, {
            license_key: license.licenseKey.trim(),
            instance_id: license.instanceId.trim()
          })
          break
      }
      const body = exchange.response?.body as
        { license_token?: unknown; license?: LicenseView; activation?: ActivationView } | null | undefined
      let token: LicenseTokenReport | null = null
      if (body && typeof body.license_token === 'string') {
        const expectations = {
          appId: values.appId,
          nowMs: emulatorNow(),
          nonce,
          licenseId: body.license?.id,
          instanceId: body.activation?.instance_id
        }
        token = await inspectLicenseToken(body.license_token, { ...expectations, jwks: await jwks(false) })
        // A key the cache has not seen yet (a new database): fetch the JWKS once more.
        if (token.checks.some((check) => check.id === 'kid' && check.outcome === 'fail')) {
          token = await inspectLicenseToken(body.license_token, { ...expectations, jwks: await jwks(true) })
        }
      }
      const result: StepResult = { exchange, token, credentialId }
      set({ results: { ...get().results, [step]: result } })
      if (step === 'verify' || values.productId) void get().loadConnection()
      return result
    } finally {
      set({ running: null })
    }
  },

  async loadConnection() {
    const productId = get().values.productId.trim()
    if (!productId) return
    await loadInto({ get, set }, 'connection', () => requireApi().control.productConnection(productId))
  },

  async loadLicenses() {
    const productId = get().values.productId.trim()
    if (!productId) {
      set({ licenses: ready([]) })
      return
    }
    set({ licenses: loading(get().licenses) })
    try {
      const control = requireApi().control
      const [customers, licenses] = await Promise.all([control.customers(), control.licenses(500, productId)])
      const names = new Map(customers.map((customer) => [customer.id, customer.name ?? customer.email]))
      // The standing now as the server judges it (a trial past its end stays stored `active`).
      const options = licenses.map((license) => ({
        key: license.key,
        label: `${license.kind}, ${humanLabel(license.state)} — ${names.get(license.customerId) ?? license.customerId}`
      }))
      if (get().values.productId.trim() === productId) set({ licenses: ready(options) })
    } catch (error) {
      set({ licenses: failed(get().licenses, error) })
    }
  },

  async createTestLicense() {
    const productId = get().values.productId.trim()
    if (!productId) throw new Error('Choose or enter a product ID first.')
    const control = requireApi().control
    const customers = await control.customers()
    const customer =
      customers.find((candidate) => candidate.email === QA_CUSTOMER_EMAIL) ??
      customers[0] ??
      (await control.createCustomer({ email: QA_CUSTOMER_EMAIL, name: 'QA Customer' }))
    const purchase = await control.purchase({
      customerId: customer.id,
      productId,
      kind: 'perpetual',
      maxActivations: 2
    })
    set({ license: { ...get().license, licenseKey: purchase.license.key } })
    void get().loadLicenses()
    return purchase.license.key
  },

  clearResults() {
    set({ results: {} })
  }
}))

/** The product's current credential id, as the products store holds it (loaded if it is not). */
async function currentCredentialId(productId: string): Promise<string | null> {
  const held = () => useProducts.getState().details[productId]?.current.data?.id ?? null
  if (held() === null) {
    // Not knowing it only costs the "credential changed" hint; the run goes ahead either way.
    await useProducts
      .getState()
      .loadDetail(productId)
      .catch(() => undefined)
  }
  return held()
}
