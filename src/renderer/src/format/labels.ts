/** Words for the wire's enum values (license kinds, order item kinds, statuses) where a person reads them. */
const LABELS: Record<string, string> = {
  reseller_claim: 'reseller claim',
  perpetual: 'perpetual',
  subscription: 'subscription',
  trial: 'trial',
  purchase: 'purchase',
  past_due: 'past due',
  not_activated: 'not activated',
  in_grace: 'in grace period'
}

/** "reseller_claim" -> "reseller claim"; an unknown value reads with spaces for underscores, lower case. */
export function humanLabel(value: string | null | undefined): string {
  if (!value) return ''
  return LABELS[value] ?? value.replace(/_/g, ' ').toLowerCase()
}
