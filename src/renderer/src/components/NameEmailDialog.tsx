import { useEffect, useId, useState } from 'react'
import type { ReactNode } from 'react'
import { toApiError } from '../api/errors'
import type { ApiError } from '../api/errors'
import { Button } from './Button'
import { Dialog } from './Dialog'
import { Field, TextInput } from './Field'
import { InlineError } from './States'

export interface NameAndEmail {
  name: string
  email: string
}

/**
 * Creating someone (a developer, a customer): the defaults are offered, filled in, and the person
 * can change them before anything is created. Stays open with the server's error on a failure.
 */
export function NameEmailDialog({
  open,
  title,
  description,
  defaults,
  submitLabel,
  onSubmit,
  onClose,
  testId
}: {
  open: boolean
  title: string
  description?: ReactNode
  defaults: NameAndEmail
  submitLabel: string
  /** Creates; the dialog closes when it resolves. */
  onSubmit: (values: NameAndEmail) => Promise<unknown>
  onClose: () => void
  testId?: string
}) {
  const formId = useId()
  const [name, setName] = useState(defaults.name)
  const [email, setEmail] = useState(defaults.email)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | null>(null)

  // Each opening starts from the defaults of that moment (not on every change of them).
  useEffect(() => {
    if (!open) return
    setName(defaults.name)
    setEmail(defaults.email)
    setError(null)
  }, [open])

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size="sm"
      dismissible={!busy}
      testId={testId}
      footer={
        <>
          <Button onClick={onClose} disabled={busy} needsServer={false}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={busy} disabled={email.trim() === ''}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          setBusy(true)
          setError(null)
          onSubmit({ name: name.trim(), email: email.trim() })
            .then(() => onClose())
            .catch((cause: unknown) => setError(toApiError(cause)))
            .finally(() => setBusy(false))
        }}
      >
        <Field label="Name" hint="Optional; shown instead of the email where there is room.">
          {(control) => <TextInput {...control} value={name} onChange={(event) => setName(event.target.value)} data-autofocus />}
        </Field>
        <Field label="Email">{(control) => <TextInput {...control} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />}</Field>
        <InlineError error={error} />
      </form>
    </Dialog>
  )
}
