/** How the request inspector wraps a claim value: at its separators, or anywhere when it is opaque. */

/** What BreakableText wraps at. */
const SEPARATOR = /[/_\-.?&]/
/**
 * A value with a run longer than this between its separators is opaque (a key id or thumbprint: 43
 * base64url characters, which may hold a `-` or `_` anywhere): its parts are not words to keep whole.
 */
const LONGEST_WORD = 24
/**
 * Random base64url (a key id, a thumbprint: 43 characters, upper and lower case mixed): opaque
 * whatever its separators. A kid with one `_` in its middle has two parts of 24 or fewer, and the
 * first, kept whole, did not fit the detail pane at 1280 px (seen when CI drew such a kid).
 */
const RANDOM_BASE64URL = /^(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9_-]{32,}$/

/** Whether a value reads as one opaque run (wrapped anywhere) rather than parts (wrapped at separators). */
export function isOpaque(text: string): boolean {
  return (
    !SEPARATOR.test(text) ||
    RANDOM_BASE64URL.test(text) ||
    text.split(SEPARATOR).some((part) => part.length > LONGEST_WORD)
  )
}
