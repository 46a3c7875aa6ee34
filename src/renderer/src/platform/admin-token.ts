/**
 * Where the browser UI finds the admin token: the `#admin-token=...` fragment of the admin URL
 * on first load (then kept in sessionStorage and removed from the address bar), or the copy
 * already in sessionStorage. No DOM here: the caller passes the fragment and the storage.
 */

export const ADMIN_TOKEN_STORAGE_KEY = 'ple.adminToken'

export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface FragmentToken {
  /** The token in the fragment, or null when there is none. */
  token: string | null
  /** The fragment to leave in the address bar: the route part, without the token. */
  cleanedHash: string
}

/**
 * Reads `admin-token` out of a fragment such as `#admin-token=abc`, `#admin-token=abc&/credentials`
 * or `#/requests?admin-token=abc`. Other fragment content is kept.
 */
export function tokenFromFragment(hash: string): FragmentToken {
  const body = hash.replace(/^#/, '')
  if (!body.includes('admin-token=')) return { token: null, cleanedHash: hash }

  // Route form: "#/screen?admin-token=...&x=y"
  if (body.startsWith('/')) {
    const [path = '', query = ''] = body.split('?', 2)
    const params = new URLSearchParams(query)
    const token = params.get('admin-token')
    params.delete('admin-token')
    const rest = params.toString()
    return {
      token: token && token.trim() !== '' ? token.trim() : null,
      cleanedHash: `#${path}${rest ? `?${rest}` : ''}`
    }
  }

  // Plain form: "#admin-token=...", possibly followed by "&/route".
  const parts = body.split('&')
  let token: string | null = null
  const kept: string[] = []
  for (const part of parts) {
    if (part.startsWith('admin-token=')) {
      const raw = part.slice('admin-token='.length)
      try {
        token = decodeURIComponent(raw.replace(/\+/g, ' ')).trim()
      } catch {
        token = raw.trim()
      }
    } else if (part !== '') {
      kept.push(part)
    }
  }
  const route = kept.find((part) => part.startsWith('/'))
  return { token: token === '' ? null : token, cleanedHash: route ? `#${route}` : '' }
}

export interface ResolvedAdminToken {
  token: string | null
  /** Where it came from: the fragment (now stored), the session storage, or nowhere. */
  source: 'fragment' | 'storage' | 'none'
  /** Replace the address bar's fragment with this (without the token); null: leave it. */
  replaceHash: string | null
}

/**
 * The browser bootstrap: a token in the fragment wins (and is stored); otherwise the stored one.
 * A fragment token replaces a stored one, so opening a new admin URL in the same tab works.
 */
export function resolveAdminToken(hash: string, storage: KeyValueStorage | null): ResolvedAdminToken {
  const fromFragment = tokenFromFragment(hash)
  if (fromFragment.token) {
    try {
      storage?.setItem(ADMIN_TOKEN_STORAGE_KEY, fromFragment.token)
    } catch {
      // Storage disabled: the token still works for this page's life.
    }
    return { token: fromFragment.token, source: 'fragment', replaceHash: fromFragment.cleanedHash }
  }
  let stored: string | null = null
  try {
    stored = storage?.getItem(ADMIN_TOKEN_STORAGE_KEY) ?? null
  } catch {
    stored = null
  }
  return stored
    ? { token: stored, source: 'storage', replaceHash: null }
    : { token: null, source: 'none', replaceHash: null }
}
