import type { PendingResellerOrder } from '../../api/types'
import { Button } from '../../components/Button'
import { CopyButton } from '../../components/CopyButton'
import { InlineError } from '../../components/States'
import { DateTime } from '../../components/Time'
import { useAction } from '../../components/use-action'
import { useLibrary } from '../../stores/library'
import { toast } from '../../stores/toasts'

/** Why a pending order shows no link (docs/ui.md): the order itself still waits and can be claimed with the token handed out then. */
const NO_LINK: Record<NonNullable<PendingResellerOrder['unrecoverableReason']>, string> = {
  'not-kept':
    'Link not recoverable: created before this version kept claim links (or imported without one). The token handed out then still claims it.',
  'other-runtime-key':
    'Link not recoverable here: it was sealed under another runtime key (a copied database, or a scenario from another machine).',
  'no-runtime-key': 'Link not shown: this emulator runs without a runtime key, so claim links are not kept.'
}

/** Reseller orders waiting for their claim, each with its claim link: read from the server, so a reload or an import keeps them. */
export function PendingResellerOrders() {
  const orders = useLibrary((state) => state.resellerOrders)
  const claim = useLibrary((state) => state.claim)
  const hasCustomer = useLibrary((state) => state.source?.kind === 'customer')
  const { busy, error, run } = useAction()
  const list = orders.data
  return (
    <section
      className="stack pending-orders"
      aria-labelledby="pending-orders-title"
      data-testid="pending-reseller-orders"
    >
      <h3 className="pending-orders__title" id="pending-orders-title">
        Waiting for their claim{list && list.length > 0 ? ` (${list.length})` : ''}
      </h3>
      {list === null ? (
        orders.status === 'error' ? (
          <InlineError error={orders.error} />
        ) : (
          <p className="muted small">Reading the pending orders…</p>
        )
      ) : list.length === 0 ? (
        <p className="muted small">No reseller order waits for a claim.</p>
      ) : (
        <ul className="stack pending-orders__list">
          {list.map((entry) => (
            <li
              key={entry.item.id}
              className="stack pending-orders__item"
              data-testid={`pending-order-${entry.order.id}`}
            >
              <p className="pending-orders__what small">
                <strong>{entry.productName ?? entry.item.productId}</strong> via {entry.order.reseller ?? 'a reseller'}{' '}
                · <DateTime value={entry.order.createdAt} />
              </p>
              {entry.claimUrl !== null && entry.claimToken !== null ? (
                <>
                  <code className="mono small pending-orders__link" data-testid="claim-url">
                    {entry.claimUrl}
                  </code>
                  <p className="inline-actions">
                    <CopyButton value={entry.claimUrl} label="Copy link" />
                    <CopyButton value={entry.claimToken} label="Copy token" />
                    <Button
                      size="sm"
                      variant="primary"
                      disabled={!hasCustomer}
                      disabledReason="Claiming needs a customer chosen above (a pasted library token cannot claim)."
                      busy={busy === entry.item.id}
                      onClick={() =>
                        void run(entry.item.id, async () => {
                          const result = await claim(entry.claimToken as string)
                          toast.success(
                            result.already_claimed ? 'Already claimed by this customer' : 'Claimed',
                            result.license.license_key
                          )
                        })
                      }
                    >
                      Claim as this customer
                    </Button>
                  </p>
                </>
              ) : (
                <p className="muted small" data-testid="claim-url-missing">
                  {NO_LINK[entry.unrecoverableReason ?? 'not-kept']}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <InlineError error={error} />
    </section>
  )
}
