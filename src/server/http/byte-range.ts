// HTTP's Range header (RFC 9110 section 14), read for the download route.

export type ByteRange = { start: number; end: number }

/**
 * Parses a single `Range: bytes=...` header against a size. Returns null for no range (whole
 * file), 'unsatisfiable' when it cannot be served; multiple ranges are served whole.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return null
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0) return 'unsatisfiable'
    // An empty file has no byte to name in a Content-Range: the suffix is served as the whole (empty) file.
    if (size === 0) return null
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}
