import { create } from 'zustand'

export type ThemePreference = 'system' | 'light' | 'dark'

const STORAGE_KEY = 'ple-theme'
const ORDER: ThemePreference[] = ['system', 'light', 'dark']

function stored(): ThemePreference {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    return 'system'
  }
}

const darkQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null

/** The theme on screen: the chosen one, or the operating system's while the choice is "system". */
function apply(preference: ThemePreference): void {
  const dark = preference === 'dark' || (preference === 'system' && (darkQuery?.matches ?? false))
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
}

interface ThemeState {
  preference: ThemePreference
  /** System, then light, then dark, then system again. */
  cycle(): void
}

/** Light, dark or as the system says; kept in this browser (localStorage), applied as `data-theme` on <html>. */
export const useTheme = create<ThemeState>()((set, get) => ({
  preference: stored(),
  cycle() {
    const next = ORDER[(ORDER.indexOf(get().preference) + 1) % ORDER.length] as ThemePreference
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, next)
    } catch {
      // A browser without storage still switches, for this page.
    }
    set({ preference: next })
    apply(next)
  }
}))

/** Applies the stored choice now and follows the system's while the choice is "system". */
export function startTheme(): void {
  apply(useTheme.getState().preference)
  darkQuery?.addEventListener('change', () => apply(useTheme.getState().preference))
}
