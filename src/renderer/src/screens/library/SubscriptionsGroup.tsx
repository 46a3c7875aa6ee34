import type { LibrarySubscription } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { EmptyState } from '../../components/States'
import { Table } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { humanLabel } from '../../format/labels'

export function SubscriptionsGroup({ subscriptions }: { subscriptions: LibrarySubscription[] }) {
  return (
    <Card title="Subscriptions" testId="library-subscriptions">
      <Table
        caption="Subscriptions"
        rows={subscriptions}
        rowKey={(subscription) => subscription.id}
        dense
        empty={<EmptyState compact title="No subscriptions" />}
        columns={[
          {
            key: 'product',
            header: 'Plan',
            render: (subscription) => (
              <span className="stack stack--tight">
                <span>{subscription.product_name}</span>
                <span className="muted small">{subscription.plan}</span>
              </span>
            )
          },
          {
            key: 'status',
            header: 'Status',
            width: 100,
            render: (subscription) => (
              <Badge
                tone={
                  subscription.status === 'active'
                    ? 'success'
                    : subscription.status === 'past_due'
                      ? 'warning'
                      : 'danger'
                }
              >
                {humanLabel(subscription.status)}
              </Badge>
            )
          },
          {
            key: 'renews',
            header: 'Renews',
            width: 150,
            render: (subscription) =>
              subscription.renews_at ? (
                <RelativeTime value={subscription.renews_at} kind="deadline" />
              ) : subscription.grace_until ? (
                <span className="small">
                  grace until <RelativeTime value={subscription.grace_until} kind="deadline" />
                </span>
              ) : subscription.ended_at ? (
                <span className="small">
                  ended <RelativeTime value={subscription.ended_at} />
                </span>
              ) : (
                <span className="small">
                  ends <RelativeTime value={subscription.current_period_end} kind="deadline" />
                </span>
              )
          }
        ]}
      />
    </Card>
  )
}
