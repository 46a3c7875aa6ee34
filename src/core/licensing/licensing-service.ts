import type { LicenseCode, LicenseFailureCode } from '../../shared/contract/licensing'
import { LEAF_TABLES } from '../changes/data-version'
import type { DataVersion } from '../changes/data-version'
import { createKeptReads } from '../changes/kept-reads'
import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import type { Product } from '../products/products'
import type { Store } from '../store/store'
import type { GracePeriod } from '../subscriptions/grace-period'
import { subscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { SubscriptionStanding } from '../subscriptions/subscription-lifecycle'
import { effectiveExpiry, judgeLicense, LICENSE_MESSAGES } from './license-judgement'
import type { Activation, ActivationState, License, LicenseRepository } from './license-repository'
import type { LicenseTokens } from './license-tokens'
import { magicActivation, magicCodeOf, magicLicense } from './magic-keys'

export interface LicenseStanding {
  license: License
  activation: Activation | null
  activationCount: number
  licenseExpiresAt: string | null
  /** The license's subscription at the time of the answer (null for other kinds). */
  subscription: SubscriptionStanding | null
}

export interface ActivateInput {
  licenseKey: string
  instanceId: string
  instanceName?: string | undefined
  platform?: string | undefined
  appVersion?: string | undefined
  nonce?: string | undefined
}

export interface ValidateInput {
  licenseKey: string
  instanceId?: string | undefined
  nonce?: string | undefined
}

export interface ValidationResult {
  code: LicenseCode
  message: string
  /** Absent when the key is unknown or belongs to another product. */
  standing: LicenseStanding | null
  licenseToken: string | null
}

export interface LicensingService {
  activate(
    product: Product,
    input: ActivateInput
  ): Promise<{ created: boolean; standing: LicenseStanding; licenseToken: string }>
  validate(product: Product, input: ValidateInput): Promise<ValidationResult>
  deactivate(product: Product, input: { licenseKey: string; instanceId: string }): LicenseStanding
}

/** License rows kept between writes: more than a busy QA library or the bench's sets, bounded for a huge import. */
const KEPT_LICENSES = 10_000

/** The plugin lifecycle (activate, validate, deactivate) judged against the emulator clock. */
export function createLicensingService(deps: {
  store: Store
  clock: Clock
  rows: LicenseRepository
  tokens: LicenseTokens
  grace: GracePeriod
  dataVersion: Pick<DataVersion, 'ignoring'>
}): LicensingService {
  const { store, clock, rows, tokens, grace } = deps
  // Every licensing call reads its license by key; a license row changes only with a write to
  // licenses or what cascades to them, never with an activation's stamp (a leaf table). Its
  // activations are read fresh each time.
  const keptLicenses = createKeptReads<string, License | null>({
    version: deps.dataVersion.ignoring(...LEAF_TABLES),
    capacity: KEPT_LICENSES
  })

  /** The license of a key with its live activation count and the live activation of `instanceId`. */
  function licenseWithActivations(
    licenseKey: string,
    instanceId: string | null
  ): ({ license: License } & ActivationState) | null {
    const key = licenseKey.trim()
    const license = keptLicenses.read(key, () => rows.byKey(key))
    return license ? { license, ...rows.activationState(license.id, instanceId) } : null
  }

  const failure = (code: LicenseFailureCode) => new DomainError(code, LICENSE_MESSAGES[code])

  function standingOf(
    license: License,
    subscription: SubscriptionStanding | null,
    instanceId: string | undefined
  ): LicenseStanding {
    return {
      license,
      activation: instanceId === undefined ? null : rows.liveActivation(license.id, instanceId),
      activationCount: rows.liveActivationCount(license.id),
      licenseExpiresAt: effectiveExpiry(license, subscription),
      subscription
    }
  }

  function subscriptionOf(license: License | null): SubscriptionStanding | null {
    const subscription = license?.subscriptionId ? rows.subscription(license.subscriptionId) : null
    return subscription ? subscriptionStanding(subscription, clock.now(), grace.ms()) : null
  }

  function judge(
    product: Product,
    license: License | null
  ): { code: LicenseCode; subscription: SubscriptionStanding | null } {
    const subscription = subscriptionOf(license)
    return { code: judgeLicense({ license, subscription, productId: product.id, now: clock.now() }), subscription }
  }

  const sign = (product: Product, standing: LicenseStanding, nonce: string | undefined) =>
    tokens.sign({
      license: standing.license,
      activation: standing.activation,
      appId: product.appId,
      nonce: nonce ?? null,
      licenseExpiresAt: standing.licenseExpiresAt,
      activationCount: standing.activationCount
    })

  return {
    async activate(product, input) {
      const magic = magicCodeOf(input.licenseKey)
      if (magic) {
        if (magic !== 'VALID') throw failure(magic)
        const license = magicLicense(magic, product, clock.now())
        const standing = {
          license,
          activation: magicActivation(license, input.instanceId, clock.now()),
          activationCount: 1,
          licenseExpiresAt: null,
          subscription: null
        }
        return { created: true, standing, licenseToken: await sign(product, standing, input.nonce) }
      }
      const outcome = await store.groupCommit((): { created: boolean; standing: LicenseStanding } => {
        const found = licenseWithActivations(input.licenseKey, input.instanceId)
        const license = found?.license ?? null
        const { code, subscription } = judge(product, license)
        if (code !== 'VALID' || !found || !license) throw failure(code as LicenseFailureCode)
        const at = clock.nowIso()
        if (found.activation) {
          // Idempotent per instance: no slot used, just seen again.
          rows.touchActivation(found.activation.id, at, {
            instanceName: input.instanceName,
            platform: input.platform,
            appVersion: input.appVersion
          })
          return { created: false, standing: standingOf(license, subscription, input.instanceId) }
        }
        if (found.liveActivationCount >= license.maxActivations) throw failure('TOO_MANY_ACTIVATIONS')
        const activation: Activation = {
          id: newId('act'),
          licenseId: license.id,
          instanceId: input.instanceId,
          instanceName: input.instanceName ?? null,
          platform: input.platform ?? null,
          appVersion: input.appVersion ?? null,
          firstSeenAt: at,
          lastSeenAt: at,
          deactivatedAt: null
        }
        rows.insertActivation(activation)
        // The standing follows from what was just read and written: no second read.
        const standing = {
          license,
          activation,
          activationCount: found.liveActivationCount + 1,
          licenseExpiresAt: effectiveExpiry(license, subscription),
          subscription
        }
        return { created: true, standing }
      })
      return { ...outcome, licenseToken: await sign(product, outcome.standing, input.nonce) }
    },

    async validate(product, input) {
      const magic = magicCodeOf(input.licenseKey)
      if (magic) {
        if (magic === 'NOT_FOUND' || magic === 'PRODUCT_SCOPE_MISMATCH')
          return { code: magic, message: LICENSE_MESSAGES[magic], standing: null, licenseToken: null }
        const license = magicLicense(magic, product, clock.now())
        const activated = magic === 'VALID' && input.instanceId !== undefined
        const standing: LicenseStanding = {
          license,
          activation: activated ? magicActivation(license, input.instanceId as string, clock.now()) : null,
          activationCount: magic === 'TOO_MANY_ACTIVATIONS' ? 2 : activated ? 1 : 0,
          licenseExpiresAt: license.expiresAt,
          subscription: null
        }
        const licenseToken = magic === 'VALID' ? await sign(product, standing, input.nonce) : null
        return { code: magic, message: LICENSE_MESSAGES[magic], standing, licenseToken }
      }
      // Read (and stamp) in the turn's shared transaction: one snapshot for the turn's requests
      // instead of a read transaction per statement.
      const judged = await store.groupCommit((): { code: LicenseCode; standing: LicenseStanding | null } => {
        const found = licenseWithActivations(input.licenseKey, input.instanceId ?? null)
        const license = found?.license ?? null
        const { code, subscription } = judge(product, license)
        if (!found || !license || code === 'NOT_FOUND' || code === 'PRODUCT_SCOPE_MISMATCH')
          return { code, standing: null }
        const standing: LicenseStanding = {
          license,
          activation: found.activation,
          activationCount: found.liveActivationCount,
          licenseExpiresAt: effectiveExpiry(license, subscription),
          subscription
        }
        if (code !== 'VALID') return { code, standing }
        // More live machines than the limit allows (the limit was lowered after activation).
        if (standing.activationCount > license.maxActivations) return { code: 'TOO_MANY_ACTIVATIONS', standing }
        if (input.instanceId === undefined) return { code, standing }
        if (!standing.activation) return { code: 'NOT_ACTIVATED', standing }
        // Seen again; to the second is enough, so a busy plugin does not write on every call.
        // A read first: while storage refuses writes (another process holds the lock, the disk is
        // full) the stamp is dropped and the answer stands (docs/api.md section 1, "Storage faults").
        const activationId = standing.activation.id
        if (Math.abs(clock.now().getTime() - Date.parse(standing.activation.lastSeenAt)) >= 1000) {
          store.writeIfPossible(() => rows.touchActivation(activationId, clock.nowIso(), {}))
        }
        return { code, standing }
      })
      const { code, standing } = judged
      if (!standing) return { code, message: LICENSE_MESSAGES[code], standing: null, licenseToken: null }
      const licenseToken = code === 'VALID' ? await sign(product, standing, input.nonce) : null
      return { code, message: LICENSE_MESSAGES[code], standing, licenseToken }
    },

    deactivate(product, input) {
      const magic = magicCodeOf(input.licenseKey)
      if (magic) {
        if (magic !== 'VALID') throw failure(magic)
        const license = magicLicense(magic, product, clock.now())
        const activation = { ...magicActivation(license, input.instanceId, clock.now()), deactivatedAt: clock.nowIso() }
        return { license, activation, activationCount: 0, licenseExpiresAt: null, subscription: null }
      }
      return store.transaction(() => {
        const license = rows.byKey(input.licenseKey.trim())
        if (!license) throw failure('NOT_FOUND')
        if (license.productId !== product.id) throw failure('PRODUCT_SCOPE_MISMATCH')
        // Freeing a seat is allowed whatever the license's state: a suspended user can still clean up.
        const activation = rows.liveActivation(license.id, input.instanceId)
        if (!activation) throw failure('NOT_ACTIVATED')
        rows.deactivate(activation.id, clock.nowIso())
        const standing = standingOf(license, subscriptionOf(license), undefined)
        return { ...standing, activation: { ...activation, deactivatedAt: clock.nowIso() } }
      })
    }
  }
}
