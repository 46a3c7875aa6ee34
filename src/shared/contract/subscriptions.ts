/** Subscription vocabulary: the QA actions the control plane offers on a subscription (docs/api.md section 8). */

/** What a billing system would do to a subscription, in the order the UI offers them. */
export const SUBSCRIPTION_ACTIONS = ['renew-now', 'cancel', 'resume', 'payment-fails', 'payment-succeeds'] as const
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number]
