import type { GracePeriod } from '../subscriptions/grace-period'

/** The credential header prefix unless one is given: `x-svc-app-id`. */
export const DEFAULT_HEADER_PREFIX = 'svc'

/** The settings QA changes at runtime (until restart), and a scenario carries. */
export interface RuntimeSettingsValues {
  /** The `svc` in `x-svc-app-id` (lower case). */
  headerPrefix: string
  /** Hide debugging details (verification `reason`) as a production service does. */
  strict: boolean
  /** How long a past_due subscription keeps access after a failed payment, in days. */
  subscriptionGraceDays: number
}

export interface RuntimeSettings {
  get(): RuntimeSettingsValues
  /** Applies the fields given; answers the settings in force. */
  update(patch: Partial<RuntimeSettingsValues>): RuntimeSettingsValues
}

export function createRuntimeSettings(
  initial: { headerPrefix: string; strict: boolean },
  grace: GracePeriod,
  onChange: () => void
): RuntimeSettings {
  let headerPrefix = initial.headerPrefix.toLowerCase()
  let strict = initial.strict
  const get = (): RuntimeSettingsValues => ({ headerPrefix, strict, subscriptionGraceDays: grace.days() })
  return {
    get,
    update(patch) {
      const before = JSON.stringify(get())
      if (patch.headerPrefix !== undefined) headerPrefix = patch.headerPrefix.toLowerCase()
      if (patch.strict !== undefined) strict = patch.strict
      if (patch.subscriptionGraceDays !== undefined) grace.set(patch.subscriptionGraceDays)
      const after = get()
      if (JSON.stringify(after) !== before) onChange()
      return after
    }
  }
}
