import { useEffect, useState } from 'react'

import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { Field, TextInput } from '../../components/Field'
import { InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { useConnection } from '../../stores/connection'
import { toast } from '../../stores/toasts'
import { useUpstream } from '../../stores/upstream'

/**
 * Forwarding to the real platform (docs/upstream.md): the upstream's URL and the routes sent
 * there. A setting of this machine, not of the scenario.
 */
export function UpstreamCard() {
  const upstream = useUpstream((state) => state.upstream)
  const loadUpstream = useUpstream((state) => state.loadUpstream)
  const saveUpstream = useUpstream((state) => state.saveUpstream)
  const dataVersion = useConnection((state) => state.dataVersion)
  const [url, setUrl] = useState('')
  const [routes, setRoutes] = useState('')
  const { busy, error, run } = useAction<'save' | 'stop'>()
  const current = upstream.data

  useEffect(() => {
    void loadUpstream()
  }, [loadUpstream, dataVersion])

  // The fields follow the server's setting when it changes (from here, a script or serve's flags).
  const [shown, setShown] = useState(current)
  if (shown !== current) {
    setShown(current)
    if (current) {
      setUrl(current.url ?? '')
      setRoutes(current.routes.join(', '))
    }
  }

  const routeList = routes
    .split(',')
    .map((route) => route.trim())
    .filter((route) => route !== '')
  const save = () =>
    run('save', async () => {
      const saved = await saveUpstream({ url: url.trim(), routes: routeList })
      toast.success(`Forwarding ${saved.routes.join(', ')} to ${saved.url ?? ''}`)
    })
  const stop = () =>
    run('stop', async () => {
      await saveUpstream({ url: null })
      toast.success('Forwarding off: the emulator answers every request')
    })

  return (
    <Card
      title="Upstream (the real platform)"
      description="Forward the plugin's calls to the real platform and watch them in Requests. The control plane and this UI are never forwarded. Not part of an exported scenario."
      testId="upstream-card"
    >
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          if (url.trim() !== '') void save()
        }}
      >
        <Field label="Upstream URL" hint="http or https, e.g. https://api.example.com">
          {(control) => (
            <TextInput
              {...control}
              className="mono"
              value={url}
              placeholder="https://api.example.com"
              onChange={(event) => setUrl(event.target.value)}
              data-testid="upstream-url"
            />
          )}
        </Field>
        <Field
          label="Routes forwarded"
          hint="Comma-separated patterns, as in fault rules; empty: /api/**, /.well-known/**"
        >
          {(control) => (
            <TextInput
              {...control}
              className="mono"
              value={routes}
              placeholder="/api/**, /.well-known/**"
              onChange={(event) => setRoutes(event.target.value)}
              data-testid="upstream-routes"
            />
          )}
        </Field>
        <div className="inline-form">
          <Button
            type="submit"
            busy={busy === 'save'}
            disabled={url.trim() === ''}
            disabledReason="Enter the upstream's URL."
          >
            {current?.url ? 'Save' : 'Forward'}
          </Button>
          <Button
            type="button"
            busy={busy === 'stop'}
            disabled={!current?.url}
            disabledReason="Forwarding is off."
            onClick={() => void stop()}
          >
            Stop forwarding
          </Button>
        </div>
        {error && <InlineError error={error} />}
      </form>
    </Card>
  )
}
