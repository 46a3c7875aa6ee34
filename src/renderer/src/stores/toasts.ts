import { create } from 'zustand'

export type ToastTone = 'success' | 'error' | 'info'

export interface Toast {
  id: number
  tone: ToastTone
  title: string
  description?: string | undefined
}

interface ToastState {
  toasts: Toast[]
  push(toast: Omit<Toast, 'id'>): number
  dismiss(id: number): void
}

let nextId = 1

/** Short confirmations of what an action did; errors that belong to a form stay in the form. */
export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  push(toast) {
    const id = nextId++
    // Keep the last few: a burst of actions should not bury the screen.
    set({ toasts: [...get().toasts.slice(-3), { ...toast, id }] })
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
