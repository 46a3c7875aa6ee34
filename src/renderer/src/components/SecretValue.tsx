import { useState } from 'react'

import { IconButton } from './Button'
import { CopyButton } from './CopyButton'

/** Masks all but the recognisable prefix (`sk_`, `pk_`): the length stays, the value does not show. */
export function maskSecret(value: string): string {
  const prefix = /^[a-z]{2,4}_/.exec(value)?.[0] ?? ''
  return prefix + '•'.repeat(Math.max(8, Math.min(32, value.length - prefix.length)))
}

/** A secret, masked by default, with a reveal toggle and a copy button. */
export function SecretValue({
  value,
  what,
  copy = true,
  initiallyShown = false,
  testId
}: {
  value: string
  what: string
  copy?: boolean
  initiallyShown?: boolean
  testId?: string
}) {
  const [shown, setShown] = useState(initiallyShown)
  return (
    <span className="secret-value" data-testid={testId}>
      <code className="secret-value__text mono" data-shown={shown}>
        {shown ? value : maskSecret(value)}
      </code>
      <IconButton
        icon={shown ? 'eyeOff' : 'eye'}
        label={shown ? `Hide ${what}` : `Show ${what}`}
        size="sm"
        needsServer={false}
        onClick={() => setShown(!shown)}
        aria-pressed={shown}
      />
      {copy ? <CopyButton value={value} what={what} /> : null}
    </span>
  )
}
