import { useState } from 'react'
import type { ReactNode } from 'react'

import { Button } from '../components/Button'
import { Field, TextInput } from '../components/Field'
import { InlineError } from '../components/States'
import { useAction } from '../components/use-action'
import { useConnection } from '../stores/connection'
import { connectWithToken, retryBoot } from './bootstrap'

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="gate">
      <div className="gate__card card">
        <p className="brand brand--large">
          <span className="brand__mark" aria-hidden="true">
            PLE
          </span>
          Plugin License Emulator
        </p>
        <h1 className="gate__title">{title}</h1>
        {children}
      </div>
    </main>
  )
}

/** Before the shell: connecting, asking for the admin token, or reporting that the server is gone. */
export function ConnectionGate() {
  const phase = useConnection((state) => state.phase)
  const error = useConnection((state) => state.error)
  const baseUrl = useConnection((state) => state.baseUrl)
  const [token, setToken] = useState('')
  // The gate shows the connection store's error; the action's own state is only its busy flag.
  const { busy, run } = useAction<'connect'>()

  if (phase === 'connecting') {
    return (
      <main className="gate" aria-busy="true">
        <p className="gate__connecting" role="status">
          <span className="spinner" aria-hidden="true" /> Connecting to the emulator…
        </p>
      </main>
    )
  }

  if (phase === 'failed') {
    return (
      <Frame title="The emulator does not answer">
        <p>
          Tried <code>{baseUrl ?? 'the server'}</code>. Start it with <code>npm run serve</code> (or the desktop app)
          and try again.
        </p>
        <InlineError error={error} />
        <div className="gate__actions">
          <Button variant="primary" icon="refresh" needsServer={false} onClick={() => void retryBoot()}>
            Try again
          </Button>
        </div>
      </Frame>
    )
  }

  return (
    <Frame title="Admin token needed">
      <p>
        This page drives the emulator&rsquo;s control plane, which needs its admin token. Open the{' '}
        <strong>Admin UI</strong> URL that <code>serve</code> printed when it started (it carries the token after{' '}
        <code>#admin-token=</code>), or paste the token here.
      </p>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          void run('connect', () => connectWithToken(token))
        }}
      >
        <Field label="Admin token" hint="Kept in this tab only (sessionStorage), never in the address bar.">
          {(control) => (
            <TextInput
              {...control}
              type="password"
              value={token}
              onChange={(event) => setToken(event.target.value)}
              required
              autoFocus
            />
          )}
        </Field>
        <InlineError error={error} />
        <div className="gate__actions">
          <Button
            variant="primary"
            type="submit"
            busy={busy !== null}
            needsServer={false}
            disabled={token.trim() === ''}
          >
            Connect
          </Button>
        </div>
      </form>
    </Frame>
  )
}
