import type { ReactNode } from 'react'

import type { ApiError } from '../api/errors'
import { Button } from './Button'
import { Icon } from './Icon'

/** Nothing here yet: what this place is for, and the one action that fills it. */
export function EmptyState({
  title,
  children,
  action,
  compact = false
}: {
  title: string
  children?: ReactNode
  action?: ReactNode
  compact?: boolean
}) {
  return (
    <div className={`empty-state ${compact ? 'empty-state--compact' : ''}`}>
      <p className="empty-state__title">{title}</p>
      {children ? <div className="empty-state__body">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  )
}

/** A failed load: the server's code and sentence, and a retry. */
export function ErrorState({
  error,
  title = 'Could not load this',
  onRetry,
  compact = false
}: {
  error: ApiError | null
  title?: string
  onRetry?: () => void
  compact?: boolean
}) {
  return (
    <div className={`error-state ${compact ? 'error-state--compact' : ''}`} role="alert">
      <Icon name="alert" size={20} />
      <div className="error-state__text">
        <p className="error-state__title">{title}</p>
        {error ? (
          <p className="error-state__message">
            {error.message} {error.code ? <code className="error-code">{error.code}</code> : null}
            {error.reason ? <code className="error-code">{error.reason}</code> : null}
          </p>
        ) : null}
      </div>
      {onRetry ? (
        <Button size="sm" icon="refresh" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  )
}

/** An error that belongs to a form or a dialog, under its fields. */
export function InlineError({ error }: { error: ApiError | null | undefined }) {
  if (!error) return null
  return (
    <p className="inline-error" role="alert">
      <Icon name="alert" size={14} /> {error.message}{' '}
      {error.code && error.code !== 'CLIENT_ERROR' ? <code className="error-code">{error.code}</code> : null}
      {error.reason ? <code className="error-code">{error.reason}</code> : null}
    </p>
  )
}
