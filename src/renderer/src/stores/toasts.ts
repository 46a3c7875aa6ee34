import { create } from 'zustand'

export type ToastTone = 'success' | 'error' | 'info'

export interface Toast {
  id: number
  tone: ToastTone
  title: string
  description?: string | undefined
  /** How many times the same toast was raised while it was shown ("Config saved" ×3). */
  count: number
}

interface ToastState {
  toasts: Toast[]
  push(toast: Omit<Toast, 'id' | 'count'>): number
  dismiss(id: number): void
}

let nextId = 1

/** Short confirmations of what an action did; errors that belong to a form stay in the form. */
export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  push(toast) {
    const id = nextId++
    // The same news again counts up on one toast (with a fresh id, so its timer restarts), its
    // detail the latest one: three exports in a row are one "Config saved ×3", not three toasts
    // stacked over the export buttons. Only the last three kinds of news stay.
    const same = get().toasts.find((shown) => shown.tone === toast.tone && shown.title === toast.title)
    const others = get().toasts.filter((shown) => shown !== same)
    set({ toasts: [...others.slice(-2), { ...toast, id, count: (same?.count ?? 0) + 1 }] })
    return id
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) })
  }
}))

export const toast = {
  success: (title: string, description?: string) => useToasts.getState().push({ tone: 'success', title, description }),
  error: (title: string, description?: string) => useToasts.getState().push({ tone: 'error', title, description }),
  info: (title: string, description?: string) => useToasts.getState().push({ tone: 'info', title, description })
}
