import { DEFAULT_GRACE_DAYS } from './subscription-lifecycle'

const DAY_MS = 24 * 60 * 60 * 1000

/** How long a past_due subscription keeps access after its payment failed: a runtime setting (until restart). */
export interface GracePeriod {
  days(): number
  ms(): number
  set(days: number): void
}

export function createGracePeriod(initialDays: number = DEFAULT_GRACE_DAYS): GracePeriod {
  let days = initialDays
  return {
    days: () => days,
    ms: () => days * DAY_MS,
    set(value) {
      days = value
    }
  }
}
