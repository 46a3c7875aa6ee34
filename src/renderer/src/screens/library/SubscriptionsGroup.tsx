import type { LibrarySubscription } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { EmptyState } from '../../components/States'
import { Table } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { humanLabel } from '../../format/labels'
import { GoToLapse } from './GoToLapse'

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
            width: 170,
            // Ended first: an ended subscription keeps the grace end it had, long past.
            render: (subscription) =>
              subscription.ended_at ? (
                <span className="small">
                  ended <RelativeTime value={subscription.ended_at} />
                </span>
              ) : subscription.renews_at ? (
                <RelativeTime value={subscription.renews_at} kind="deadline" />
              ) : subscription.grace_until ? (
                <span className="stack stack--tight small">
                  <span>
                    grace until <RelativeTime value={subscription.grace_until} kind="deadline" />
                  </span>
                  <GoToLapse
                    at={subscription.grace_until}
                    what={`${subscription.product_name}: its grace period ends`}
                    testId={`go-to-lapse-${subscription.id}`}
                  />
                </span>
              ) : (
                <span className="stack stack--tight small">
                  <span>
                    ends <RelativeTime value={subscription.current_period_end} kind="deadline" />
                  </span>
                  <GoToLapse
                    at={subscription.current_period_end}
                    what={`${subscription.product_name}: its last period ends`}
                    testId={`go-to-lapse-${subscription.id}`}
                  />
                </span>
              )
          }
        ]}
      />
    </Card>
  )
}
