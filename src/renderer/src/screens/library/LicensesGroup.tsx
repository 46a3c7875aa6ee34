import { Fragment, useMemo, useState } from 'react'

import type { LibraryLicense, LicenseCode } from '../../api/types'
import { Badge } from '../../components/Badge'
import type { Tone } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { LongValue } from '../../components/LongValue'
import { ShowMore, useShownRows } from '../../components/ShowMore'
import { EmptyState } from '../../components/States'
import { SortButton, sortRows } from '../../components/Table'
import type { TableSort } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { useAction } from '../../components/use-action'
import { humanLabel } from '../../format/labels'
import { emulatorNow } from '../../stores/connection'
import { useLibrary } from '../../stores/library'
import { toast } from '../../stores/toasts'
import { GoToLapse } from './GoToLapse'
import { LicenseLimitsDialog } from './LicenseLimitsDialog'

const STATE_TONES: Record<LicenseCode, Tone> = {
  VALID: 'success',
  NOT_FOUND: 'danger',
  SUSPENDED: 'warning',
  EXPIRED: 'danger',
  TRIAL_EXPIRED: 'danger',
  REVOKED: 'danger',
  NOT_ACTIVATED: 'neutral',
  PRODUCT_SCOPE_MISMATCH: 'danger',
  TOO_MANY_ACTIVATIONS: 'warning'
}

export function LicenseState({ state }: { state: LicenseCode }) {
  return <Badge tone={STATE_TONES[state] ?? 'neutral'}>{state.replace(/_/g, ' ').toLowerCase()}</Badge>
}

const PLATFORMS: Record<string, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' }

function LicenseQa({ license }: { license: LibraryLicense }) {
  const updateLicense = useLibrary((state) => state.updateLicense)
  const { busy, run } = useAction<'suspend' | 'reinstate' | 'unexpire' | 'expire'>()
  const [confirmRevoke, setConfirmRevoke] = useState(false)
  const [editing, setEditing] = useState(false)
  const act = async (
    what: 'suspend' | 'reinstate' | 'unexpire' | 'expire',
    patch: Parameters<typeof updateLicense>[1],
    done: string
  ) => {
    const failure = await run(what, async () => {
      await updateLicense(license.id, patch)
      toast.success(done, license.license_key)
    })
    // A toast rather than an inline error: the row's buttons change with the license.
    if (failure) toast.error('Could not change the license', failure.message)
  }
  const expired = license.state === 'EXPIRED' || license.state === 'TRIAL_EXPIRED'
  return (
    <div className="license-qa" role="group" aria-label={`QA actions for ${license.license_key}`}>
      {license.status === 'active' ? (
        <Button
          size="sm"
          variant="ghost"
          busy={busy === 'suspend'}
          onClick={() => void act('suspend', { status: 'suspended' }, 'License suspended')}
        >
          Suspend
        </Button>
      ) : (
        <Button
          size="sm"
          variant="ghost"
          busy={busy === 'reinstate'}
          onClick={() => void act('reinstate', { status: 'active' }, 'License reinstated')}
        >
          Reinstate
        </Button>
      )}
      {license.kind !== 'subscription' ? (
        expired ? (
          <Button
            size="sm"
            variant="ghost"
            busy={busy === 'unexpire'}
            onClick={() => void act('unexpire', { expiresAt: null }, 'Expiry removed')}
          >
            Remove expiry
          </Button>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            busy={busy === 'expire'}
            onClick={() =>
              void act('expire', { expiresAt: new Date(emulatorNow() - 1000).toISOString() }, 'License expired')
            }
          >
            Expire now
          </Button>
        )
      ) : null}
      <Button size="sm" variant="ghost" onClick={() => setEditing(true)} data-testid={`license-limits-${license.id}`}>
        Seats &amp; expiry…
      </Button>
      {/* Mounted while open: each opening starts from the license as it is now. */}
      {editing ? <LicenseLimitsDialog license={license} onClose={() => setEditing(false)} /> : null}
      {license.status !== 'revoked' ? (
        <Button size="sm" variant="ghost" className="btn--danger-text" onClick={() => setConfirmRevoke(true)}>
          Revoke
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirmRevoke}
        title="Revoke this license?"
        description={
          <p>
            <code className="mono">{license.license_key}</code> stops validating at once; the plugin sees{' '}
            <code>REVOKED</code>. Reinstate brings it back.
          </p>
        }
        confirmLabel="Revoke license"
        variant="danger"
        onClose={() => setConfirmRevoke(false)}
        onConfirm={async () => {
          await updateLicense(license.id, { status: 'revoked' })
          setConfirmRevoke(false)
          toast.success('License revoked', license.license_key)
        }}
      />
    </div>
  )
}

/** Frees the seat one machine holds (the support desk's "deactivate that old machine"), as the plugin's deactivate would. */
function FreeSeat({ license, instanceId }: { license: LibraryLicense; instanceId: string }) {
  const freeSeat = useLibrary((state) => state.freeSeat)
  const { busy, run } = useAction<'free'>()
  return (
    <Button
      size="sm"
      variant="ghost"
      className="activation__free"
      busy={busy === 'free'}
      aria-label={`Free seat: deactivate ${instanceId}`}
      onClick={() =>
        void run('free', async () => {
          await freeSeat(license.id, instanceId)
          toast.success('Seat freed', `${instanceId} is no longer activated on ${license.license_key}.`)
        }).then((failure) => {
          if (failure) toast.error('Could not free the seat', failure.message)
        })
      }
    >
      Free seat
    </Button>
  )
}

/** Licenses (serials) with their state and the machines they are activated on. */
const SORT_VALUES: Record<string, (license: LibraryLicense) => string | number | null> = {
  key: (license) => license.license_key,
  state: (license) => license.state,
  expires: (license) => license.expires_at,
  activations: (license) => license.activation_count
}

export function LicensesGroup({ licenses }: { licenses: LibraryLicense[] }) {
  // Sorted before "show more" cuts the list: the first rows are the first of the whole order.
  const [sort, setSort] = useState<TableSort | null>(null)
  const sorted = useMemo(() => {
    const value = sort ? SORT_VALUES[sort.key] : undefined
    return value && sort ? sortRows(licenses, value, sort.direction) : licenses
  }, [licenses, sort])
  const rows = useShownRows(sorted)
  const header = (key: string, label: string) => (
    <th scope="col" aria-sort={sort?.key === key ? sort.direction : undefined}>
      <SortButton column={key} sort={sort} onSort={setSort}>
        {label}
      </SortButton>
    </th>
  )
  return (
    <Card
      title="Licenses"
      description="Serials, their state on the emulator clock, and their activations. QA actions change them on the server."
      testId="library-licenses"
    >
      {licenses.length === 0 ? (
        <EmptyState compact title="No licenses" />
      ) : (
        <div className="table-wrap">
          <table className="table table--licenses">
            <caption className="visually-hidden">Licenses</caption>
            <colgroup>
              <col />
              <col style={{ width: 110 }} />
              <col style={{ width: 120 }} />
              <col style={{ width: 120 }} />
              <col style={{ width: 300 }} />
            </colgroup>
            <thead>
              <tr>
                {header('key', 'License key')}
                {header('state', 'State')}
                {header('expires', 'Expires')}
                {header('activations', 'Activations')}
                <th scope="col">
                  <span className="visually-hidden">QA actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.shown.map((license) => (
                <Fragment key={license.id}>
                  <tr
                    data-testid={`license-${license.id}`}
                    className={license.activations.length > 0 ? 'has-children' : undefined}
                  >
                    <td>
                      <span className="stack stack--tight">
                        <LongValue value={license.license_key} what="license key" />
                        <span className="muted small">
                          {license.product_name} · {humanLabel(license.kind)}
                          {license.activated_on_this_device === true ? ' · on this device' : ''}
                        </span>
                      </span>
                    </td>
                    <td>
                      <span data-testid={`license-state-${license.id}`}>
                        <LicenseState state={license.state} />
                      </span>
                    </td>
                    <td className="small">
                      {license.expires_at ? (
                        <span className="stack stack--tight">
                          <RelativeTime value={license.expires_at} kind="deadline" />
                          {/* Still valid with an end of its own: it lapses there (a subscription's end is in Subscriptions). */}
                          {license.state === 'VALID' && license.kind !== 'subscription' ? (
                            <GoToLapse
                              at={license.expires_at}
                              what={`${license.license_key} (${humanLabel(license.kind)})`}
                              testId={`go-to-lapse-${license.id}`}
                            />
                          ) : null}
                        </span>
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                    <td>
                      <span className="meter" title={`${license.activation_count} of ${license.max_activations} used`}>
                        <span className="meter__text">
                          {license.activation_count} / {license.max_activations}
                        </span>
                        <span className="meter__bar" aria-hidden="true">
                          <span
                            style={{
                              width: `${license.max_activations === 0 ? 100 : Math.min(100, (license.activation_count / license.max_activations) * 100)}%`
                            }}
                          />
                        </span>
                      </span>
                    </td>
                    <td>
                      <LicenseQa license={license} />
                    </td>
                  </tr>
                  {license.activations.map((activation) => (
                    <tr key={activation.id} className="child-row" data-testid={`activation-${activation.instance_id}`}>
                      <td colSpan={5}>
                        <span className="activation">
                          <span className="activation__branch" aria-hidden="true">
                            └
                          </span>
                          <span className="strong">{activation.instance_name ?? activation.instance_id}</span>
                          <code className="mono small">{activation.instance_id}</code>
                          <span className="muted small">
                            {[
                              activation.platform ? (PLATFORMS[activation.platform] ?? activation.platform) : null,
                              activation.app_version ? `v${activation.app_version}` : null
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                          </span>
                          <span className="muted small">
                            activated <RelativeTime value={activation.first_seen_at} />, last seen{' '}
                            <RelativeTime value={activation.last_seen_at} />
                          </span>
                          <FreeSeat license={license} instanceId={activation.instance_id} />
                        </span>
                      </td>
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ShowMore rows={rows} what="licenses" />
    </Card>
  )
}
