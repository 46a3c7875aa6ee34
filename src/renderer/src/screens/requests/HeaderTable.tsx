import type { HeaderMap } from '../../api/types'

/** Headers (or query parameters) as name/value rows; values are shown as the server recorded them. */
export function HeaderTable({
  headers,
  caption,
  empty = 'None'
}: {
  headers: HeaderMap | Record<string, string>
  caption: string
  empty?: string
}) {
  const entries = Object.entries(headers)
  if (entries.length === 0) return <p className="muted small">{empty}</p>
  return (
    <table className="header-table">
      <caption className="visually-hidden">{caption}</caption>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono break">{Array.isArray(value) ? value.join(', ') : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
