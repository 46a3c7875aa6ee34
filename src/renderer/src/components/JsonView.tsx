import { Fragment, useMemo } from 'react'
import type { ReactNode } from 'react'

import { CopyButton } from './CopyButton'

/** Pretty JSON with light colouring of keys, strings, numbers and literals. React escapes it all. */
function highlight(text: string): ReactNode[] {
  const pattern = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g
  const out: ReactNode[] = []
  let last = 0
  let index = 0
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0
    if (at > last) out.push(text.slice(last, at))
    if (match[1] !== undefined) {
      if (match[2] !== undefined) {
        out.push(
          <Fragment key={index++}>
            <span className="json__key">{match[1]}</span>
            {match[2]}
          </Fragment>
        )
      } else {
        out.push(
          <span key={index++} className="json__string">
            {match[1]}
          </span>
        )
      }
    } else if (match[3] !== undefined) {
      out.push(
        <span key={index++} className="json__literal">
          {match[3]}
        </span>
      )
    } else if (match[4] !== undefined) {
      out.push(
        <span key={index++} className="json__number">
          {match[4]}
        </span>
      )
    }
    last = at + match[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

export function formatJson(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  return JSON.stringify(value, null, 2)
}

export function JsonView({
  value,
  label,
  maxHeight = 420,
  copy = true,
  testId
}: {
  value: unknown
  label: string
  maxHeight?: number | string
  copy?: boolean
  testId?: string
}) {
  const text = useMemo(() => formatJson(value), [value])
  const nodes = useMemo(
    () => (typeof value === 'string' || text.length > 200_000 ? [text] : highlight(text)),
    [text, value]
  )
  return (
    <div className="json" data-testid={testId}>
      {copy && text ? (
        <div className="json__toolbar">
          <CopyButton value={text} what={label} variant="ghost" />
        </div>
      ) : null}
      <pre className="json__pre" style={{ maxHeight }} tabIndex={0} aria-label={label}>
        {text === '' ? <span className="muted">(empty)</span> : nodes}
      </pre>
    </div>
  )
}
