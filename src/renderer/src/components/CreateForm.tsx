import type { ReactNode } from 'react'

import type { ApiError } from '../api/errors'
import { Button } from './Button'
import { InlineError } from './States'

/** A create form on the form grid: its fields, the primary "+" submit button, and the server's error under them. */
export function CreateForm({
  label,
  className,
  submitLabel,
  busy,
  error,
  onSubmit,
  children
}: {
  /** The form's accessible name. */
  label: string
  /** The grid's columns (form-grid--developer, form-grid--product). */
  className: string
  submitLabel: string
  busy: boolean
  error: ApiError | null
  onSubmit: () => void
  children: ReactNode
}) {
  return (
    <form
      className={`form-grid ${className}`}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      {children}
      <div className="form-grid__submit">
        <Button type="submit" variant="primary" icon="plus" busy={busy}>
          {submitLabel}
        </Button>
      </div>
      <div className="form-grid__full">
        <InlineError error={error} />
      </div>
    </form>
  )
}
