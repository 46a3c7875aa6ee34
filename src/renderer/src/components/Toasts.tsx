import { useEffect, useRef } from 'react'

import { useOpenDialogs } from '../stores/open-dialogs'
import { useToasts } from '../stores/toasts'
import type { Toast } from '../stores/toasts'
import { IconButton } from './Button'
import { Icon } from './Icon'

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss)
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), toast.tone === 'error' ? 9000 : 5000)
    return () => clearTimeout(timer)
  }, [toast.id, toast.tone, dismiss])
  return (
    <div className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
      <Icon name={toast.tone === 'error' ? 'alert' : toast.tone === 'success' ? 'check' : 'info'} />
      <div className="toast__text">
        <p className="toast__title">
          {toast.title}
          {toast.count > 1 ? <span className="toast__count"> ×{toast.count}</span> : null}
        </p>
        {toast.description ? <p className="toast__description">{toast.description}</p> : null}
      </div>
      <IconButton icon="close" label="Dismiss" size="sm" needsServer={false} onClick={() => dismiss(toast.id)} />
    </div>
  )
}

/**
 * The toasts inside the open modal dialog `id` (when it is the innermost one): a modal dialog
 * makes everything outside it inert, so a toast over it could not be dismissed, and a stack of
 * them floated over its buttons. Here they sit in the dialog's flow, above its body.
 */
export function DialogToasts({ id }: { id: string }) {
  const toasts = useToasts((state) => state.toasts)
  const onTop = useOpenDialogs((state) => state.stack[state.stack.length - 1] === id)
  if (!onTop || toasts.length === 0) return null
  return (
    <div className="toast-region toast-region--in-dialog" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  )
}

/**
 * Where toasts appear: bottom right, announced to screen readers. The region is a manual popover,
 * shown again whenever the list changes: that puts it in the top layer above an open modal
 * dialog and its backdrop (z-index cannot reach above a showModal() dialog).
 */
export function Toasts() {
  const toasts = useToasts((state) => state.toasts)
  const dialogOpen = useOpenDialogs((state) => state.stack.length > 0)
  const region = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = region.current
    if (!element || typeof element.showPopover !== 'function') return
    if (element.matches(':popover-open')) element.hidePopover()
    if (toasts.length > 0 && !dialogOpen) element.showPopover()
  }, [toasts, dialogOpen])
  if (dialogOpen) return null
  return (
    <div className="toast-region" aria-live="polite" popover="manual" ref={region}>
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  )
}
