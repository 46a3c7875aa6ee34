import { useEffect, useId, useRef } from 'react'
import type { KeyboardEvent, ReactNode } from 'react'

import { useOpenDialogs } from '../stores/open-dialogs'
import { IconButton } from './Button'
import { DialogToasts } from './Toasts'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface DialogProps {
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  footer?: ReactNode
  size?: 'sm' | 'md' | 'lg'
  /** Tone of the title bar: `danger` for destructive confirmations. */
  tone?: 'default' | 'danger'
  /** Escape and the close button close it (true); false while an action runs. */
  dismissible?: boolean
  testId?: string
}

/**
 * A modal dialog on the native <dialog> (showModal): the rest of the page is inert, Escape
 * closes it, Tab cycles inside it, and focus returns to where it was when it closes. The
 * backdrop does not close it: a one-time secret should not vanish on a stray click.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  tone = 'default',
  dismissible = true,
  testId
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const returnFocus = useRef<HTMLElement | null>(null)
  const titleId = useId()
  const descriptionId = useId()
  const dialogId = useId()

  useEffect(() => {
    if (!open) return
    useOpenDialogs.getState().opened(dialogId)
    return () => useOpenDialogs.getState().closed(dialogId)
  }, [open, dialogId])

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      dialog.showModal()
      // autoFocus inside wins; otherwise the first field or button.
      const preferred =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('.dialog__body ' + FOCUSABLE)
      preferred?.focus()
    } else if (!open && dialog.open) {
      dialog.close()
    }
  }, [open])

  useEffect(() => {
    if (open) return
    const target = returnFocus.current
    returnFocus.current = null
    if (target && target.isConnected) target.focus()
  }, [open])

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return
    const dialog = ref.current
    if (!dialog) return
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (element) => element.offsetParent !== null || element === document.activeElement
    )
    if (items.length === 0) return
    const first = items[0] as HTMLElement
    const last = items[items.length - 1] as HTMLElement
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${size} ${tone === 'danger' ? 'dialog--danger' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault()
        if (dismissible) onClose()
      }}
      onKeyDown={onKeyDown}
    >
      {open ? (
        <div className="dialog__frame">
          <header className="dialog__header">
            <h2 id={titleId} className="dialog__title">
              {title}
            </h2>
            <IconButton
              icon="close"
              label="Close"
              size="sm"
              needsServer={false}
              onClick={onClose}
              disabled={!dismissible}
            />
          </header>
          <DialogToasts id={dialogId} />
          <div className="dialog__body">
            {description ? (
              <div id={descriptionId} className="dialog__description">
                {description}
              </div>
            ) : null}
            {children}
          </div>
          {footer ? <footer className="dialog__footer">{footer}</footer> : null}
        </div>
      ) : null}
    </dialog>
  )
}
