import type { LicenseCode, LicenseStatus } from '../../shared/contract/licensing'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import { shownId } from '../redaction/shown-id'
import type { GracePeriod } from '../subscriptions/grace-period'
import { subscriptionStanding } from '../subscriptions/subscription-lifecycle'
import { judgeLicense, LICENSE_MESSAGES } from './license-judgement'
import type { Activation, License, LicenseRepository } from './license-repository'

export interface LicenseChanges {
  status?: LicenseStatus | undefined
  expiresAt?: string | null | undefined
  maxActivations?: number | undefined
}

/** A license as stored, and how it stands on the emulator clock now (what validate would answer). */
export type JudgedLicense = License & { state: LicenseCode }

/**
 * QA's levers on a license: suspend, revoke, reinstate, expire, change the activation limit, free
 * one seat. Lists answer each license's standing now, so a client shows it rather than the stored
 * status (a trial past its end is stored `active`).
 */
export function createLicenseAdmin(rows: LicenseRepository, deps: { clock: Clock; grace: GracePeriod }) {
  const require = (id: string): License => {
    const license = rows.byId(id)
    if (!license) throw new DomainError('LICENSE_NOT_FOUND', `No license has the id ${shownId(id, 'lic')}.`)
    return license
  }
  function judged(licenses: License[]): JudgedLicense[] {
    const now = deps.clock.now()
    return licenses.map((license) => {
      const stored = license.subscriptionId ? rows.subscription(license.subscriptionId) : null
      const subscription = stored ? subscriptionStanding(stored, now, deps.grace.ms()) : null
      return { ...license, state: judgeLicense({ license, subscription, productId: license.productId, now }) }
    })
  }
  const judgedOne = (license: License): JudgedLicense => judged([license])[0] as JudgedLicense
  return {
    require: (id: string) => judgedOne(require(id)),
    update(id: string, changes: LicenseChanges): JudgedLicense {
      require(id)
      rows.update(id, changes)
      return judgedOne(require(id))
    },
    activations: (id: string) => rows.allActivations(require(id).id),
    /**
     * Frees the seat `instanceId` holds (the support desk's "deactivate that old machine"), as a
     * plugin's deactivate would, whatever the license's state.
     */
    deactivate(id: string, instanceId: string): { license: JudgedLicense; activation: Activation } {
      const license = require(id)
      const activation = rows.liveActivation(license.id, instanceId.trim())
      if (!activation)
        throw new DomainError('NOT_ACTIVATED', `${LICENSE_MESSAGES.NOT_ACTIVATED} (${instanceId.trim()})`)
      const at = deps.clock.nowIso()
      rows.deactivate(activation.id, at)
      return { license: judgedOne(license), activation: { ...activation, deactivatedAt: at } }
    },
    ofCustomer: (customerId: string) => judged(rows.forCustomer(customerId)),
    list: (filter: { productId?: string | undefined; customerId?: string | undefined; limit?: number | undefined }) =>
      judged(rows.list(filter))
  }
}

export type LicenseAdmin = ReturnType<typeof createLicenseAdmin>
