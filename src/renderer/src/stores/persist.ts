import type { KeyValueStorage } from '../platform/admin-token'

/** localStorage when there is one (the browser, Electron); a memory map in node (unit tests). */
function pick(): KeyValueStorage {
  const candidate = (globalThis as { localStorage?: KeyValueStorage }).localStorage
  if (candidate) return candidate
  const memory = new Map<string, string>()
  return {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key)
  }
}

const storage = pick()

/** Preferences that survive a reload (never secrets or tokens). */
export function readPreference(key: string): string | null {
  try {
    return storage.getItem(`ple.${key}`)
  } catch {
    return null
  }
}

export function writePreference(key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(`ple.${key}`)
    else storage.setItem(`ple.${key}`, value)
  } catch {
    // Storage full or disabled: the preference lasts for this page only.
  }
}
