import { useId, useState } from 'react'
import type { ReactNode } from 'react'

import { Button } from './Button'
import { Dialog } from './Dialog'
import { Field, TextInput } from './Field'
import { InlineError } from './States'
import { useAction } from './use-action'
import { useEachOpening } from './use-each-opening'

export interface DefaultsField {
  key: string
  label: string
  type?: 'text' | 'email'
  required?: boolean
  hint?: string
}

/**
 * Creating something with names (a developer, a customer, a product): the defaults are offered,
 * filled in, and the person can change them before anything is created. Stays open with the
 * server's error on a failure.
 */
export function DefaultsDialog({
  open,
  title,
  description,
  fields,
  defaults,
  submitLabel,
  onSubmit,
  onClose,
  testId
}: {
  open: boolean
  title: string
  description?: ReactNode
  fields: readonly DefaultsField[]
  defaults: Record<string, string>
  submitLabel: string
  /** Creates with the trimmed values; the dialog closes when it resolves. */
  onSubmit: (values: Record<string, string>) => Promise<unknown>
  onClose: () => void
  testId?: string
}) {
  const formId = useId()
  const [values, setValues] = useState<Record<string, string>>(defaults)
  const { busy: running, error, run, reset } = useAction<'submit'>()
  const busy = running !== null

  // Each opening starts from the defaults of that moment (not on every change of them).
  useEachOpening(open, () => {
    setValues(defaults)
    reset()
  })

  const missing = fields.some((field) => field.required && (values[field.key] ?? '').trim() === '')
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
          <Button type="submit" form={formId} variant="primary" busy={busy} disabled={missing}>
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
          const trimmed = Object.fromEntries(fields.map((field) => [field.key, (values[field.key] ?? '').trim()]))
          void run('submit', async () => {
            await onSubmit(trimmed)
            onClose()
          })
        }}
      >
        {fields.map((field, index) => (
          <Field key={field.key} label={field.label} hint={field.hint}>
            {(control) => (
              <TextInput
                {...control}
                type={field.type ?? 'text'}
                required={field.required}
                value={values[field.key] ?? ''}
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
                {...(index === 0 ? { 'data-autofocus': true } : {})}
              />
            )}
          </Field>
        ))}
        <InlineError error={error} />
      </form>
    </Dialog>
  )
}

/** The fields of a person: a name (optional) and an email. */
export const PERSON_FIELDS: readonly DefaultsField[] = [
  { key: 'name', label: 'Name', hint: 'Optional; shown instead of the email where there is room.' },
  { key: 'email', label: 'Email', type: 'email', required: true }
]
