import { useState } from 'react'
import type { ReactNode } from 'react'

import { Button } from './Button'
import type { ButtonVariant } from './Button'
import { Dialog } from './Dialog'
import { Field, TextInput } from './Field'
import { InlineError } from './States'
import { useAction } from './use-action'
import { useEachOpening } from './use-each-opening'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  description: ReactNode
  confirmLabel: string
  variant?: ButtonVariant
  /** Ask for an optional reason (kept in the audit trail). */
  withReason?: boolean
  reasonPlaceholder?: string
  onConfirm: (reason: string) => Promise<void>
  onClose: () => void
  testId?: string
}

/** "Are you sure?" with an optional reason; shows the server's error in place when the action fails. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  variant = 'primary',
  withReason = false,
  reasonPlaceholder,
  onConfirm,
  onClose,
  testId
}: ConfirmDialogProps) {
  const [reason, setReason] = useState('')
  const { busy: running, error, run, reset } = useAction<'confirm'>()
  const busy = running !== null
  useEachOpening(open, () => {
    setReason('')
    reset()
  })
  const submit = () => run('confirm', () => onConfirm(reason.trim()))
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      tone={variant === 'danger' ? 'danger' : 'default'}
      dismissible={!busy}
      size="sm"
      testId={testId}
      footer={
        <>
          <Button onClick={onClose} disabled={busy} needsServer={false}>
            Cancel
          </Button>
          <Button variant={variant} busy={busy} onClick={() => void submit()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {withReason ? (
        <form
          id={`${testId ?? 'confirm'}-form`}
          onSubmit={(event) => {
            event.preventDefault()
            void submit()
          }}
        >
          <Field label="Reason (optional)" hint="Kept in the audit trail with this action.">
            {(control) => (
              <TextInput
                {...control}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                placeholder={reasonPlaceholder}
                maxLength={1000}
                data-autofocus
              />
            )}
          </Field>
        </form>
      ) : null}
      <InlineError error={error} />
    </Dialog>
  )
}
