import { useState } from 'react'

import type { OrderReversal } from '../../../../shared/contract/orders'
import type { LibraryOrder } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { ShowMore, useShownRows } from '../../components/ShowMore'
import { EmptyState } from '../../components/States'
import { Table } from '../../components/Table'
import { DateTime } from '../../components/Time'
import { humanLabel } from '../../format/labels'
import { formatMoney } from '../../format/number'
import { useLibrary } from '../../stores/library'
import { toast } from '../../stores/toasts'

type Reversal = OrderReversal

const REVERSAL_COPY: Record<Reversal, { title: string; confirm: string; done: string; what: string }> = {
  refund: {
    title: 'Refund this order?',
    confirm: 'Refund order',
    done: 'Order refunded',
    what: 'The vendor gives the money back.'
  },
  chargeback: {
    title: 'Charge back this order?',
    confirm: 'Charge back',
    done: 'Order charged back',
    what: "The customer's bank takes the money back."
  }
}

/** Refund and chargeback of a paid order, each behind a confirmation; a reversed order says which. */
function OrderQa({ order }: { order: LibraryOrder }) {
  const reverseOrder = useLibrary((state) => state.reverseOrder)
  const [asking, setAsking] = useState<Reversal | null>(null)
  if (order.status !== 'paid') {
    return <Badge tone="danger">{order.status}</Badge>
  }
  // Nothing was paid (a trial, a free claim): there is no money to give back or to take back.
  if (order.total_cents === 0) {
    return <span className="muted small">free: nothing to refund</span>
  }
  const copy = asking ? REVERSAL_COPY[asking] : null
  const products = order.items.map((item) => item.product_name ?? item.product_id).join(', ')
  return (
    <span className="order-qa" role="group" aria-label={`QA actions for the order of ${products}`}>
      <Button size="sm" variant="ghost" className="btn--danger-text" onClick={() => setAsking('refund')}>
        Refund
      </Button>
      <Button size="sm" variant="ghost" className="btn--danger-text" onClick={() => setAsking('chargeback')}>
        Chargeback
      </Button>
      <ConfirmDialog
        open={asking !== null}
        title={copy?.title ?? ''}
        description={
          <p>
            {copy?.what} What the order granted ends at once: its licenses stop validating (the plugin sees{' '}
            <code>REVOKED</code>), {products} can no longer be downloaded through it, and a subscription it paid for
            ends. This cannot be undone.
          </p>
        }
        confirmLabel={copy?.confirm ?? ''}
        variant="danger"
        onClose={() => setAsking(null)}
        onConfirm={async () => {
          if (!asking) return
          await reverseOrder(order.id, asking)
          setAsking(null)
          toast.success(REVERSAL_COPY[asking].done, products)
        }}
        testId="order-reversal-dialog"
      />
    </span>
  )
}

export function OrdersGroup({ orders }: { orders: LibraryOrder[] }) {
  const rows = useShownRows(orders)
  return (
    <Card title="Orders" testId="library-orders">
      <Table
        caption="Orders"
        rows={[...rows.shown]}
        rowKey={(order) => order.id}
        rowTestId={(order) => `order-${order.id}`}
        dense
        empty={<EmptyState compact title="No orders" />}
        columns={[
          {
            key: 'date',
            header: 'Date',
            width: 118,
            render: (order) => (
              <span className="small">
                <DateTime value={order.created_at} />
              </span>
            ),
            sortValue: (order) => order.created_at
          },
          {
            key: 'items',
            header: 'Items',
            render: (order) => (
              <span className="stack stack--tight">
                {order.items.map((item) => (
                  <span key={item.id} className="small">
                    {item.product_name ?? item.product_id} <span className="muted">({humanLabel(item.kind)})</span>
                  </span>
                ))}
                {order.channel === 'reseller' ? (
                  <span>
                    <Badge tone="info">via {order.reseller ?? 'reseller'}</Badge>
                  </span>
                ) : null}
              </span>
            )
          },
          {
            key: 'total',
            header: 'Total',
            width: 90,
            align: 'right',
            render: (order) => <span className="small">{formatMoney(order.total_cents, order.currency)}</span>,
            sortValue: (order) => order.total_cents
          },
          {
            key: 'qa',
            header: <span className="visually-hidden">QA actions</span>,
            width: 112,
            render: (order) => <OrderQa order={order} />
          }
        ]}
      />
      <ShowMore rows={rows} what="orders" />
    </Card>
  )
}
