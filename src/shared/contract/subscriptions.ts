/** Subscription vocabulary shared by core, the wire schemas and the UI. */

/** How often a subscription renews: its plan (docs/api.md section 6). */
export const BILLING_PERIODS = ['monthly', 'yearly'] as const
export type BillingPeriod = (typeof BILLING_PERIODS)[number]

/** A subscription's stored status; `expired` is never stored, it is judged from the clock. */
export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/**
 * How a subscription stands at one instant of the emulator clock. `active`: paid (possibly set
 * to end at its period end); `past_due`: a payment failed and the grace period runs; `canceled`:
 * ended at the period end after a cancel; `expired`: the grace period ran out without a payment.
 */
export const SUBSCRIPTION_STATES = ['active', 'past_due', 'canceled', 'expired'] as const
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number]

/**
 * The QA actions on a subscription: what a billing system would do, at the emulator clock's now,
 * in the order the UI offers them (docs/api.md section 8).
 */
export const SUBSCRIPTION_ACTIONS = ['renew-now', 'cancel', 'resume', 'payment-fails', 'payment-succeeds'] as const
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number]
