import type { LicenseStatus } from '../../shared/contract/licensing'
import { DomainError } from '../errors/domain-error'
import { shownId } from '../redaction/shown-id'
import type { License, LicenseRepository } from './license-repository'

export interface LicenseChanges {
  status?: LicenseStatus | undefined
  expiresAt?: string | null | undefined
  maxActivations?: number | undefined
}

/** QA's levers on a license: suspend, revoke, reinstate, expire, change the activation limit. */
export function createLicenseAdmin(rows: LicenseRepository) {
  const require = (id: string): License => {
    const license = rows.byId(id)
    if (!license) throw new DomainError('LICENSE_NOT_FOUND', `No license has the id ${shownId(id, 'lic')}.`)
    return license
  }
  return {
    require,
    update(id: string, changes: LicenseChanges): License {
      require(id)
      rows.update(id, changes)
      return require(id)
    },
    activations: (id: string) => rows.allActivations(require(id).id),
    ofCustomer: (customerId: string) => rows.forCustomer(customerId),
    list: (filter: { productId?: string | undefined; customerId?: string | undefined; limit?: number | undefined }) =>
      rows.list(filter)
  }
}

export type LicenseAdmin = ReturnType<typeof createLicenseAdmin>
