import type { LibraryOrder } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { ShowMore, useShownRows } from '../../components/ShowMore'
import { EmptyState } from '../../components/States'
import { Table } from '../../components/Table'
import { DateTime } from '../../components/Time'
import { humanLabel } from '../../format/labels'
import { formatMoney } from '../../format/number'

export function OrdersGroup({ orders }: { orders: LibraryOrder[] }) {
  const rows = useShownRows(orders)
  return (
    <Card title="Orders" testId="library-orders">
      <Table
        caption="Orders"
        rows={[...rows.shown]}
        rowKey={(order) => order.id}
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
          }
        ]}
      />
      <ShowMore shown={rows.shown.length} total={rows.total} what="orders" onMore={rows.showMore} onAll={rows.showAll} />
    </Card>
  )
}
