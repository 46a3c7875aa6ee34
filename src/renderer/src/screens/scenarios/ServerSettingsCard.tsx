import { useState } from 'react'

import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { Checkbox, Field, TextInput } from '../../components/Field'
import { Skeleton } from '../../components/Skeleton'
import { ErrorState, InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'

const PREFIX = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$/

/** Header prefix, strict mode and the subscription grace period, changed at runtime (until the server restarts). */
export function ServerSettingsCard() {
  const settings = useSettings((state) => state.settings)
  const loadSettings = useSettings((state) => state.loadSettings)
  const saveSettings = useSettings((state) => state.saveSettings)
  const [prefix, setPrefix] = useState('')
  /** Shown at once when toggled; the server's answer confirms it (or puts it back). */
  const [strict, setStrict] = useState<boolean | null>(null)
  const [graceDays, setGraceDays] = useState('')
  const { busy, error, run } = useAction<'prefix' | 'strict' | 'grace'>()
  const current = settings.data

  // Each field follows the server's value when that value changed (adjusted during render); a
  // settings document that changes another field (from this card or a script) leaves a draft alone.
  // Nothing is shown yet on mounting: the settings already loaded (on an earlier visit) fill the fields.
  const [shown, setShown] = useState<typeof current>(null)
  if (shown !== current) {
    setShown(current)
    if (current) {
      if (current.headerPrefix !== shown?.headerPrefix) setPrefix(current.headerPrefix)
      if (current.strict !== shown?.strict) setStrict(current.strict)
      if (current.subscriptionGraceDays !== shown?.subscriptionGraceDays)
        setGraceDays(String(current.subscriptionGraceDays))
    }
  }

  const save = async (
    what: 'prefix' | 'strict' | 'grace',
    patch: { headerPrefix?: string; strict?: boolean; subscriptionGraceDays?: number },
    done: string
  ) => {
    const failure = await run(what, async () => {
      await saveSettings(patch)
      toast.success(done)
    })
    if (failure && current) setStrict(current.strict)
  }

  const valid = PREFIX.test(prefix)
  const grace = graceDays.trim() === '' ? Number.NaN : Number(graceDays)
  const graceValid = Number.isFinite(grace) && grace >= 0 && grace <= 365
  return (
    <Card
      title="Server settings"
      description="Until the server restarts; start it with --header-prefix or --strict to keep them."
      testId="server-settings"
    >
      {settings.status === 'error' && !current ? (
        <ErrorState
          compact
          error={settings.error}
          title="Could not read the settings"
          onRetry={() => void loadSettings()}
        />
      ) : (
        <div className="stack">
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault()
              if (valid) void save('prefix', { headerPrefix: prefix }, `Header prefix is now ${prefix.toLowerCase()}`)
            }}
          >
            <Field
              label="Credential header prefix"
              hint={
                valid
                  ? `Plugins send x-${prefix.toLowerCase()}-app-id, x-${prefix.toLowerCase()}-plugin-key, x-${prefix.toLowerCase()}-plugin-secret.`
                  : undefined
              }
              error={!valid && prefix !== '' ? 'Letters, digits and dashes; up to 32 characters.' : undefined}
            >
              {(control) =>
                current ? (
                  <TextInput
                    {...control}
                    className="mono"
                    value={prefix}
                    onChange={(event) => setPrefix(event.target.value)}
                    data-testid="header-prefix"
                  />
                ) : (
                  <Skeleton width="100%" height={34} radius={6} />
                )
              }
            </Field>
            <Button
              type="submit"
              busy={busy === 'prefix'}
              disabled={!current || !valid || prefix.toLowerCase() === current.headerPrefix}
              disabledReason={
                !current
                  ? 'Loading the current settings…'
                  : !valid
                    ? 'Not a valid header prefix.'
                    : 'This is the current prefix: change it to save.'
              }
            >
              Save
            </Button>
          </form>
          {current ? (
            <Checkbox
              label="Strict mode"
              hint=" — hide error reasons (which value is wrong) as the production service does"
              checked={strict ?? current.strict}
              disabled={busy === 'strict'}
              onChange={(event) => {
                const next = event.target.checked
                setStrict(next)
                void save('strict', { strict: next }, next ? 'Strict mode on' : 'Strict mode off')
              }}
              data-testid="strict-mode"
            />
          ) : (
            <Skeleton width={260} height="1.2em" />
          )}
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault()
              if (graceValid)
                void save('grace', { subscriptionGraceDays: grace }, `Subscription grace period is now ${grace} days`)
            }}
          >
            <Field
              label="Subscription grace period (days)"
              hint="How long a past-due subscription keeps access after a failed payment."
              error={!graceValid && graceDays !== '' ? 'A number of days from 0 to 365.' : undefined}
            >
              {(control) =>
                current ? (
                  <TextInput
                    {...control}
                    type="number"
                    min={0}
                    max={365}
                    step="any"
                    value={graceDays}
                    onChange={(event) => setGraceDays(event.target.value)}
                    data-testid="grace-days"
                  />
                ) : (
                  <Skeleton width="100%" height={34} radius={6} />
                )
              }
            </Field>
            <Button
              type="submit"
              aria-label="Save grace period"
              busy={busy === 'grace'}
              disabled={!current || !graceValid || grace === current.subscriptionGraceDays}
            >
              Save
            </Button>
          </form>
          <InlineError error={error} />
        </div>
      )}
    </Card>
  )
}
