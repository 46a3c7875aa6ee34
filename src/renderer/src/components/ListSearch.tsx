import { useId } from 'react'

/** Whether any of the texts holds the query (case-insensitive); an empty query matches everything. */
export function matchesQuery(query: string, ...texts: (string | null | undefined)[]): boolean {
  const wanted = query.trim().toLowerCase()
  if (!wanted) return true
  return texts.some((text) => text?.toLowerCase().includes(wanted))
}

/** A search box over a list on screen, with how many of how many it shows. */
export function ListSearch({
  value,
  onChange,
  label,
  placeholder,
  shown,
  total,
  testId
}: {
  value: string
  onChange: (value: string) => void
  label: string
  placeholder: string
  shown: number
  total: number
  testId?: string
}) {
  const id = useId()
  return (
    <div className="list-search" role="search">
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input list-search__input"
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={200}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      />
      {value.trim() ? (
        <span className="muted small" aria-live="polite">
          {shown} of {total}
        </span>
      ) : null}
    </div>
  )
}
