import { create } from 'zustand'

interface OpenDialogsState {
  /** Open modal dialogs, innermost last. */
  stack: string[]
  opened(id: string): void
  closed(id: string): void
}

/**
 * Which modal dialog is on top. A modal dialog makes the rest of the page inert, toasts
 * included, so while one is open the toasts are shown inside it (Toasts.tsx).
 */
export const useOpenDialogs = create<OpenDialogsState>()((set, get) => ({
  stack: [],
  opened(id) {
    set({ stack: [...get().stack.filter((entry) => entry !== id), id] })
  },
  closed(id) {
    set({ stack: get().stack.filter((entry) => entry !== id) })
  }
}))
