/**
 * Route patterns of fault rules (docs/api.md section 6): `*` matches within one path segment,
 * `**` across segments. A whole `**` segment also matches no segment at all (as in shell
 * globstar): `/api/**` covers `/api` itself, and a `**` segment between `/api` and `/activate`
 * also covers `/api/activate`.
 * Everything else matches literally and case-sensitively, as the router does.
 */
export type PathMatcher = (path: string) => boolean

/** Why a pattern cannot be used, or null when it can. */
export function routePatternProblem(pattern: string): string | null {
  if (!/^[/*]/.test(pattern)) return 'must start with "/" (or "*" / "**")'
  if (/[\s?#]/.test(pattern)) return 'must be a path only: no spaces, no query ("?") and no fragment ("#")'
  if (pattern.includes('***')) return 'has "***"; use "*" within a segment or "**" across segments'
  return null
}

export function compileRoutePattern(pattern: string): PathMatcher {
  const problem = routePatternProblem(pattern)
  if (problem) throw new Error(`route pattern ${JSON.stringify(pattern)} ${problem}`)
  const normalized = normalizePath(pattern)
  let source = ''
  let i = 0
  while (i < normalized.length) {
    if (normalized.startsWith('/**', i) && (i + 3 === normalized.length || normalized[i + 3] === '/')) {
      // A whole-segment globstar: any number of segments, including none.
      source += '(?:/.*)?'
      i += 3
    } else if (normalized.startsWith('**', i)) {
      source += '.*'
      i += 2
    } else if (normalized[i] === '*') {
      source += '[^/]*'
      i += 1
    } else {
      source += escapeRegExp(normalized[i] as string)
      i += 1
    }
  }
  const regex = new RegExp(`^${source}$`)
  return (path) => regex.test(normalizePath(path))
}

/**
 * The path a rule is matched against: no query or fragment, percent-escapes of unreserved
 * characters decoded as the router decodes them (`%2F` stays a literal), and no trailing slash
 * (the router ignores it too), so `/api/library/` and `/api/library` fault alike.
 */
export function normalizePath(url: string): string {
  let path = url
  const cut = path.search(/[?#]/)
  if (cut !== -1) path = path.slice(0, cut)
  try {
    // decodeURI leaves reserved escapes (%2F, %3F, %23 ...) encoded.
    path = decodeURI(path)
  } catch {
    // A malformed escape: match the path as sent; the router answers it with a 400 anyway.
  }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  return path === '' ? '/' : path
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\]/.test(char) ? `\\${char}` : char
}
