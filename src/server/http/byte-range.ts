// HTTP's Range header (RFC 9110 section 14), read for the download route, with range-parser
// (the parser of Express's `send`). range-parser 1.x, not 2.x: 2.x requires Node 22 and the
// package supports Node 20 too (package.json engines).
import parseRange from 'range-parser'

export type ByteRange = { start: number; end: number }

/**
 * Parses a single `Range: bytes=...` header against a size. Returns null for no range (whole
 * file), 'unsatisfiable' when it cannot be served; multiple ranges are served whole, and a header
 * in another unit or malformed is ignored (RFC 9110 14.2).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const ranges = parseRange(size, header.trim(), { combine: true })
  if (ranges === -2) return null
  if (ranges === -1) return suffixLongerThanFile(header, size) ? wholeFileRange(size) : 'unsatisfiable'
  if (ranges.type !== 'bytes' || ranges.length !== 1) return null
  const [range] = ranges
  return range ? { start: range.start, end: range.end } : null
}

/**
 * range-parser answers `bytes=-N` with N past the file's size as unsatisfiable; RFC 9110 14.1.2
 * says such a suffix is the whole representation. That one case is answered here.
 */
function suffixLongerThanFile(header: string, size: number): boolean {
  const suffix = /^bytes=-(\d+)$/.exec(header.trim())?.[1]
  return suffix !== undefined && Number(suffix) > size
}

/** The whole file as a range; an empty file has no byte to name in a Content-Range, so it is served whole. */
function wholeFileRange(size: number): ByteRange | null {
  return size === 0 ? null : { start: 0, end: size - 1 }
}
