/** Ways a paid order is reversed. `refund`: the vendor gives the money back; `chargeback`: the customer's bank takes it back. */
export const ORDER_REVERSALS = ['refund', 'chargeback'] as const

export type OrderReversal = (typeof ORDER_REVERSALS)[number]
