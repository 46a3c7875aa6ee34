import picomatch from 'picomatch'

/**
 * Route patterns of fault rules (docs/api.md section 6), matched by picomatch: `*` matches within
 * one path segment, a `**` segment across segments, and also no segment at all (shell globstar):
 * `/api/**` covers `/api` itself, and a `**` segment between `/api` and `/activate` covers `/api/activate`.
 * Everything else matches literally and case-sensitively, as the router does: picomatch's other
 * syntax (braces, brackets, extglobs, negation) is off, since none of it is in the contract.
 */
export type PathMatcher = (path: string) => boolean

const LITERAL_EXCEPT_STARS: picomatch.PicomatchOptions = {
  dot: true,
  nobrace: true,
  nobracket: true,
  noextglob: true,
  nonegate: true
}

/** Why a pattern cannot be used, or null when it can. */
export function routePatternProblem(pattern: string): string | null {
  if (!/^[/*]/.test(pattern)) return 'must start with "/" (or "*" / "**")'
  if (/[\s?#]/.test(pattern)) return 'must be a path only: no spaces, no query ("?") and no fragment ("#")'
  if (pattern.includes('***')) return 'has "***"; use "*" within a segment or "**" across segments'
  if (pattern.split('/').some((segment) => segment.includes('**') && segment !== '**')) {
    return 'has "**" inside a segment; "**" matches across segments only as a whole segment ("/api/**"), "*" within one'
  }
  return null
}

export function compileRoutePattern(pattern: string): PathMatcher {
  const problem = routePatternProblem(pattern)
  if (problem) throw new Error(`route pattern ${JSON.stringify(pattern)} ${problem}`)
  const isMatch = picomatch(normalizePath(pattern), LITERAL_EXCEPT_STARS)
  return (path) => isMatch(normalizePath(path))
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
