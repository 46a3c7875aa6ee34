import { CopyButton } from './CopyButton'

/**
 * A long ID, key, email or URL in one line: cut with an ellipsis when the column is narrow, the
 * full value on hover (title) and on keyboard focus (it unfolds in place), and a copy button.
 */
export function LongValue({
  value,
  what,
  mono = true,
  copy = true,
  testId
}: {
  value: string
  what: string
  mono?: boolean
  copy?: boolean
  testId?: string
}) {
  return (
    <span className="long-value">
      {/* Focusable, so a keyboard user can unfold and read the whole value. */}
      <span className={`long-value__text${mono ? ' mono' : ''}`} title={value} tabIndex={0} data-testid={testId}>
        {value}
      </span>
      {copy ? <CopyButton value={value} what={what} iconOnly variant="ghost" /> : null}
    </span>
  )
}
