import { useState } from 'react'

import type { LibraryLicense } from '../../api/types'
import { Button } from '../../components/Button'
import { Dialog } from '../../components/Dialog'
import { Checkbox, Field, TextInput } from '../../components/Field'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { toDateTimeLocalValue } from '../../format/date'
import { emulatorNow } from '../../stores/connection'
import { useLibrary } from '../../stores/library'
import { toast } from '../../stores/toasts'

/**
 * A license's activation limit and its expiry set to a date (PATCH /_emulator/licenses/:id): the
 * support desk's "one more seat" and QA's "expires on the 31st". A subscription's license follows
 * its subscription, so only its limit is offered.
 */
export function LicenseLimitsDialog({ license, onClose }: { license: LibraryLicense; onClose: () => void }) {
  const updateLicense = useLibrary((state) => state.updateLicense)
  const ownExpiry = license.kind !== 'subscription'
  const [limit, setLimit] = useState(String(license.max_activations))
  const [never, setNever] = useState(license.expires_at === null)
  const [expiry, setExpiry] = useState(() =>
    toDateTimeLocalValue(license.expires_at ? new Date(license.expires_at) : new Date(emulatorNow() + 30 * 86_400_000))
  )
  const { busy, error, run, reset } = useAction<'save'>()
  const close = () => {
    reset()
    onClose()
  }
  const instant = new Date(expiry)
  const badExpiry = ownExpiry && !never && Number.isNaN(instant.getTime())
  return (
    <Dialog
      open
      onClose={close}
      title="Activation limit and expiry"
      description={
        <>
          <code className="mono">{license.license_key}</code> ({license.product_name}, {license.activation_count} of{' '}
          {license.max_activations} seats in use)
        </>
      }
      dismissible={busy === null}
      testId="license-limits-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={busy !== null}>
            Cancel
          </Button>
          <Button
            variant="primary"
            type="submit"
            form={`license-limits-${license.id}`}
            busy={busy === 'save'}
            disabled={badExpiry}
            disabledReason="Enter a date and time, or choose “Never expires”."
          >
            Save
          </Button>
        </>
      }
    >
      <form
        id={`license-limits-${license.id}`}
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          void run('save', async () => {
            await updateLicense(license.id, {
              maxActivations: Number(limit),
              ...(ownExpiry ? { expiresAt: never ? null : instant.toISOString() } : {})
            })
            toast.success('License changed', license.license_key)
            onClose()
          })
        }}
      >
        <Field
          label="Activation limit"
          hint="Seats: how many machines may be activated at once. Below the seats in use, the next validate says TOO_MANY_ACTIVATIONS."
        >
          {(control) => (
            <TextInput
              {...control}
              type="number"
              min={0}
              max={1000}
              required
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
              data-testid="license-limit"
            />
          )}
        </Field>
        {ownExpiry ? (
          <>
            <Checkbox
              label="Never expires"
              checked={never}
              onChange={(event) => setNever(event.target.checked)}
              data-testid="license-never-expires"
            />
            {never ? null : (
              <Field label="Expires at" hint="Local time of this computer, on the emulator clock.">
                {(control) => (
                  <TextInput
                    {...control}
                    type="datetime-local"
                    required
                    value={expiry}
                    onChange={(event) => setExpiry(event.target.value)}
                    data-testid="license-expires-at"
                  />
                )}
              </Field>
            )}
          </>
        ) : (
          <p className="muted small">A subscription&apos;s license lasts as long as its subscription.</p>
        )}
        <InlineError error={error} />
      </form>
    </Dialog>
  )
}
