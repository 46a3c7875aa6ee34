import type { LibrarySubscription } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { EmptyState } from '../../components/States'
import { Table } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { humanLabel } from '../../format/labels'
import { GoToLapse } from './GoToLapse'

/** The end a subscription lapses at, and the clock step to it. */
function LapsesAt({ subscription, words, at }: { subscription: LibrarySubscription; words: string; at: string }) {
  return (
    <span className="stack stack--tight small">
      <span>
        {words} <RelativeTime value={at} kind="deadline" />
      </span>
      <GoToLapse
        at={at}
        what={`${subscription.product_name}: ${words} then`}
        testId={`go-to-lapse-${subscription.id}`}
      />
    </span>
  )
}

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
              ) : (
                // It lapses without a further event: at the grace end while past due, else at the period end.
                <LapsesAt
                  subscription={subscription}
                  words={subscription.grace_until ? 'grace until' : 'ends'}
                  at={subscription.grace_until ?? subscription.current_period_end}
                />
              )
          }
        ]}
      />
    </Card>
  )
}
