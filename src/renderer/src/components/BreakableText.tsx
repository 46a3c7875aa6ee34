import { Fragment } from 'react'

/**
 * A path or a code that wraps at its own separators (after `/`, `_`, `-`, `.`, `?`, `&`) instead of
 * being cut with an ellipsis: `/api/license/v1/` + `deactivate` on a narrow column still tells
 * activate, validate and deactivate apart. A part longer than its line breaks anywhere.
 */
export function BreakableText({ text, className, testId }: { text: string; className?: string; testId?: string }) {
  const parts = text.split(/(?<=[/_\-.?&])/)
  return (
    <span className={`breakable${className ? ` ${className}` : ''}`} data-testid={testId}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  )
}
