import { useEffect, useState } from 'react'

import { SUBSCRIPTION_ACTIONS } from '../../../../shared/contract/subscriptions'
import type { LicenseKind, SubscriptionAction, SubscriptionWithStanding } from '../../api/types'
import { Button } from '../../components/Button'
import { Field, Select, TextInput } from '../../components/Field'
import { ProductOptions } from '../../components/ProductOptions'
import { InlineError } from '../../components/States'
import { DateTime } from '../../components/Time'
import { useAction } from '../../components/use-action'
import { useEmulatorNow } from '../../components/useNow'
import { formatOffset } from '../../format/date'
import { humanLabel } from '../../format/labels'
import { emulatorNow, useConnection } from '../../stores/connection'
import { useLibrary } from '../../stores/library'
import { useProducts } from '../../stores/products'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'
import { PendingResellerOrders } from './PendingResellerOrders'

const NO_PRODUCT = 'No product to sell yet: create one on Developers & products.'

function PurchaseForm() {
  const products = useProducts((state) => state.products.data)
  const purchase = useLibrary((state) => state.purchase)
  const hasCustomer = useLibrary((state) => state.source !== null && state.library.data !== null)
  const [productId, setProductId] = useState('')
  const [kind, setKind] = useState<LicenseKind>('perpetual')
  const [seats, setSeats] = useState('2')
  const [trialDays, setTrialDays] = useState('14')
  const { busy, error, run } = useAction()
  const chosen = productId || products?.[0]?.id || ''
  return (
    <form
      className="stack"
      aria-label="New purchase"
      onSubmit={(event) => {
        event.preventDefault()
        void run('purchase', async () => {
          await purchase({
            productId: chosen,
            kind,
            maxActivations: Number(seats),
            // The trial's length, chosen as it starts: its end on the emulator clock.
            ...(kind === 'trial'
              ? { expiresAt: new Date(emulatorNow() + Number(trialDays) * 86_400_000).toISOString() }
              : {})
          })
          toast.success(
            kind === 'trial' ? 'Trial started' : kind === 'subscription' ? 'Subscription bought' : 'Purchase made',
            products?.find((p) => p.id === chosen)?.name
          )
        })
      }}
    >
      <Field label="Product">
        {(control) => (
          <Select {...control} value={chosen} onChange={(event) => setProductId(event.target.value)}>
            <ProductOptions products={products} />
          </Select>
        )}
      </Field>
      <div className="form-row">
        <Field label="Kind">
          {(control) => (
            <Select
              {...control}
              value={kind}
              onChange={(event) => setKind(event.target.value as LicenseKind)}
              data-testid="purchase-kind"
            >
              <option value="perpetual">Perpetual</option>
              <option value="subscription">Subscription (monthly)</option>
              <option value="trial">Trial</option>
            </Select>
          )}
        </Field>
        <Field label="Seats">
          {(control) => (
            <TextInput
              {...control}
              type="number"
              min={0}
              max={1000}
              value={seats}
              onChange={(event) => setSeats(event.target.value)}
            />
          )}
        </Field>
        {kind === 'trial' ? (
          <Field label="Trial days">
            {(control) => (
              <TextInput
                {...control}
                type="number"
                min={1}
                max={3650}
                step="any"
                required
                value={trialDays}
                onChange={(event) => setTrialDays(event.target.value)}
                data-testid="purchase-trial-days"
              />
            )}
          </Field>
        ) : null}
      </div>
      <Button
        type="submit"
        variant="primary"
        size="sm"
        busy={busy === 'purchase'}
        disabled={!chosen || !hasCustomer}
        disabledReason={
          !chosen
            ? NO_PRODUCT
            : 'Choose a customer above (or paste a library token) first: the purchase goes to their library.'
        }
      >
        {kind === 'trial' ? 'Start trial' : kind === 'subscription' ? 'Subscribe' : 'Buy'}
      </Button>
      <InlineError error={error} />
    </form>
  )
}

function ResellerForm() {
  const products = useProducts((state) => state.products.data)
  const resellerOrder = useLibrary((state) => state.resellerOrder)
  const [productId, setProductId] = useState('')
  const [reseller, setReseller] = useState('Plugin Boutique')
  const { busy, error, run } = useAction()
  const chosen = productId || products?.[0]?.id || ''
  return (
    <div className="stack">
      <form
        className="stack"
        aria-label="Reseller order"
        onSubmit={(event) => {
          event.preventDefault()
          void run('order', async () => {
            await resellerOrder({ productId: chosen, reseller: reseller.trim() || undefined })
            toast.success('Reseller order created', 'Its claim link is listed below until it is claimed.')
          })
        }}
      >
        <div className="form-row">
          <Field label="Product">
            {(control) => (
              <Select {...control} value={chosen} onChange={(event) => setProductId(event.target.value)}>
                <ProductOptions products={products} />
              </Select>
            )}
          </Field>
          <Field label="Reseller">
            {(control) => (
              <TextInput {...control} value={reseller} onChange={(event) => setReseller(event.target.value)} />
            )}
          </Field>
        </div>
        <Button type="submit" size="sm" busy={busy === 'order'} disabled={!chosen} disabledReason={NO_PRODUCT}>
          Create reseller order
        </Button>
      </form>
      <PendingResellerOrders />
      <InlineError error={error} />
    </div>
  )
}

/** Each action's button and its toast (the actions and their order are the contract's). */
const ACTION_COPY: Record<SubscriptionAction, { label: string; done: string }> = {
  'renew-now': { label: 'Renew now', done: 'Renewed: a new paid period from now' },
  cancel: { label: 'Cancel subscription', done: 'Set to cancel at the period end' },
  resume: { label: 'Resume', done: 'Resumed: renews at the period end' },
  'payment-fails': { label: 'Payment fails', done: 'Payment failed: past due, grace period running' },
  'payment-succeeds': { label: 'Payment succeeds', done: 'Paid: active again' }
}

/** Why the buttons the server does not offer are off: they describe the standing; the server decides. */
function notOffered(answer: SubscriptionWithStanding | undefined): string {
  if (!answer) return 'Reading what this subscription allows…'
  const { state, cancelAtPeriodEnd } = answer.standing
  return `Not possible now: the subscription is ${humanLabel(state)}${state === 'active' && cancelAtPeriodEnd ? ', set to cancel at the period end' : ''}.`
}

/**
 * One subscription at a time: a picker and its actions. A row of buttons per subscription
 * filled the first screen of a big library and pushed the library itself below the fold.
 */
function SubscriptionControls() {
  const subscriptions = useLibrary((state) => state.library.data?.subscriptions) ?? []
  const act = useLibrary((state) => state.subscriptionAction)
  const loadSubscription = useLibrary((state) => state.loadSubscription)
  const answer = useLibrary((state) => state.subscription.data)
  const { busy, error, run } = useAction()
  const [chosenId, setChosenId] = useState<string | null>(null)
  const subscription = subscriptions.find((entry) => entry.id === chosenId) ?? subscriptions[0]
  // What the control plane offers is read again whenever the library was (an action, the clock, a change elsewhere).
  useEffect(() => {
    if (subscription) void loadSubscription(subscription.id)
  }, [subscription, loadSubscription])
  if (!subscription) {
    return (
      <p className="muted small">
        No subscriptions. Subscribe in New purchase, or load the subscription-lifecycle preset.
      </p>
    )
  }
  const current = answer?.subscription.id === subscription.id ? answer : undefined
  return (
    <div className="stack">
      <Field label="Subscription">
        {(control) => (
          <Select
            {...control}
            value={subscription.id}
            onChange={(event) => setChosenId(event.target.value)}
            data-testid="subscription-picker"
          >
            {subscriptions.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.product_name} · {humanLabel(entry.status)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <div
        className="button-row"
        role="group"
        aria-label={`Actions for ${subscription.product_name}`}
        data-testid={`subscription-actions-${subscription.id}`}
      >
        <span className="visually-hidden">{humanLabel(subscription.status)}</span>
        {SUBSCRIPTION_ACTIONS.map((action) => {
          const { label, done } = ACTION_COPY[action]
          const offered = current?.availableActions.includes(action) === true
          return (
            <Button
              key={action}
              size="sm"
              disabled={!offered}
              title={offered ? undefined : notOffered(current)}
              busy={busy === `${subscription.id}:${action}`}
              onClick={() =>
                void run(`${subscription.id}:${action}`, async () => {
                  await act(subscription.id, action)
                  toast.success(done, subscription.product_name)
                })
              }
            >
              {label}
            </Button>
          )
        })}
      </div>
      <InlineError error={error} />
    </div>
  )
}

const CLOCK_STEPS: { label: string; seconds: number }[] = [
  // Back too, as test clocks go: undo a step, or reach the day before a lapse.
  { label: '−7 days', seconds: -7 * 86_400 },
  { label: '−1 day', seconds: -86_400 },
  { label: '+1 day', seconds: 86_400 },
  { label: '+7 days', seconds: 7 * 86_400 },
  { label: '+30 days', seconds: 30 * 86_400 },
  { label: '+1 year', seconds: 365 * 86_400 }
]

export function ClockControls({ compact = false }: { compact?: boolean }) {
  const setClock = useSettings((state) => state.setClock)
  const offsetMs = useConnection((state) => state.clockOffsetMs)
  const now = useEmulatorNow()
  const { busy, error, run } = useAction()
  return (
    <div className="stack" data-testid="clock-controls">
      <p className="clock-now">
        <span className="clock-now__time" data-testid="clock-now">
          <DateTime value={new Date(now).toISOString()} relative={false} />
        </span>
        <span className="muted small" data-testid="clock-offset">
          {formatOffset(offsetMs / 1000)}
        </span>
      </p>
      <div className="button-row">
        {CLOCK_STEPS.map((step) => (
          <Button
            key={step.label}
            size="sm"
            busy={busy === step.label}
            onClick={() =>
              void run(step.label, async () => {
                await setClock({ advanceS: step.seconds })
                toast.info('Clock moved', step.label)
              })
            }
          >
            {step.label}
          </Button>
        ))}
        <Button
          size="sm"
          variant="ghost"
          disabled={offsetMs === 0}
          disabledReason="The clock already runs on system time."
          busy={busy === 'reset'}
          onClick={() =>
            void run('reset', async () => {
              await setClock({ offsetS: 0 })
              toast.info('Clock back to system time')
            })
          }
        >
          {compact ? 'Reset' : 'Back to system time'}
        </Button>
      </div>
      <InlineError error={error} />
    </div>
  )
}

/** What QA does to a library (buy, subscribe, start a trial, sell through a reseller, move time): a toolbar above it. */
export function QaActions() {
  return (
    <section className="qa-toolbar" aria-label="QA actions" data-testid="qa-toolbar">
      <div className="qa-toolbar__group" role="group" aria-labelledby="qa-purchase-title">
        <h2 className="qa-toolbar__title" id="qa-purchase-title">
          New purchase
        </h2>
        <PurchaseForm />
      </div>
      <div className="qa-toolbar__group" role="group" aria-labelledby="qa-reseller-title">
        <h2 className="qa-toolbar__title" id="qa-reseller-title">
          Reseller order <span className="muted small">waits for a signed-in customer to claim it</span>
        </h2>
        <ResellerForm />
      </div>
      <div className="qa-toolbar__group" role="group" aria-labelledby="qa-subscriptions-title">
        <h2 className="qa-toolbar__title" id="qa-subscriptions-title">
          Subscriptions{' '}
          <span className="muted small">renewals, cancellation, failed payments and their grace period</span>
        </h2>
        <SubscriptionControls />
      </div>
      <div className="qa-toolbar__group" role="group" aria-labelledby="qa-clock-title">
        <h2 className="qa-toolbar__title" id="qa-clock-title">
          Emulator clock <span className="muted small">expiry, trials and renewals follow it</span>
        </h2>
        <ClockControls compact />
      </div>
    </section>
  )
}
