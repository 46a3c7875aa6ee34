import { useEffect } from 'react'

import { buildHash } from '../navigation/routes'
import type { ScreenId } from '../navigation/routes'

/** "g" then a letter goes to a screen (as in GitHub or Gmail); the letters are shown in each link's tooltip. */
export const SCREEN_KEYS: Record<string, ScreenId> = {
  o: 'overview',
  d: 'developers',
  c: 'credentials',
  t: 'tester',
  l: 'library',
  r: 'requests',
  f: 'drift',
  e: 'recordings',
  s: 'scenarios'
}

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/**
 * The keyboard shortcuts: Ctrl+K (⌘K) or "/" opens Find; "g" then o, d, c, t, l, r, f, e or s goes to
 * a screen. Letters are ignored while typing in a field or while a dialog is open.
 */
export function useShortcuts(openFind: () => void): void {
  useEffect(() => {
    let waitingForScreen = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        openFind()
        return
      }
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        typingIn(event.target) ||
        document.querySelector('dialog[open]')
      )
        return
      if (waitingForScreen) {
        waitingForScreen = false
        clearTimeout(timer)
        const screen = SCREEN_KEYS[event.key.toLowerCase()]
        if (screen) {
          event.preventDefault()
          window.location.hash = buildHash(screen)
        }
        return
      }
      if (event.key === '/') {
        event.preventDefault()
        openFind()
      } else if (event.key === 'g') {
        waitingForScreen = true
        timer = setTimeout(() => (waitingForScreen = false), 1500)
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      clearTimeout(timer)
    }
  }, [openFind])
}
