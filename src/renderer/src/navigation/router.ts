import { useSyncExternalStore } from 'react'

import { buildHash, parseHash } from './routes'
import type { Route, ScreenId } from './routes'

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener)
  return () => window.removeEventListener('hashchange', listener)
}

const getHash = () => window.location.hash

/** The current hash route; re-renders on every hash change. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, getHash)
  return parseHash(hash)
}

export function navigate(screen: ScreenId, params: Record<string, string | null | undefined> = {}): void {
  window.location.hash = buildHash(screen, params)
}

/** Changes the route's parameters without adding a history entry (filters, selections). */
export function replaceParams(screen: ScreenId, params: Record<string, string | null | undefined>): void {
  const hash = buildHash(screen, params)
  if (hash === window.location.hash) return
  window.history.replaceState(null, '', hash)
  window.dispatchEvent(new HashChangeEvent('hashchange'))
}
