import type { Counts } from '../../api/types'
import { Skeleton } from '../../components/Skeleton'
import { formatCount } from '../../format/number'
import { buildHash } from '../../navigation/routes'
import type { ScreenId } from '../../navigation/routes'
import { useConnection } from '../../stores/connection'
import { useServerLink } from '../../stores/server-link'

const TILES: {
  key: keyof Counts
  label: string
  screen: ScreenId
  value?: (counts: Counts) => number
  detail?: (counts: Counts) => string
}[] = [
  { key: 'developers', label: 'Developers', screen: 'developers' },
  { key: 'products', label: 'Products', screen: 'developers' },
  {
    key: 'credentials',
    label: 'Credentials',
    screen: 'credentials',
    detail: (c) => `${formatCount(c.activeCredentials)} active`
  },
  { key: 'customers', label: 'Customers', screen: 'library' },
  { key: 'licenses', label: 'Licenses', screen: 'library' },
  { key: 'activations', label: 'Live activations', screen: 'library' },
  // Counted as the Requests screen lists them by default: plugins, scripts and the tester, not this UI's own calls.
  {
    key: 'requests',
    label: 'Requests logged',
    screen: 'requests',
    value: (c) => c.requests - c.uiRequests,
    detail: (c) =>
      c.uiRequests > 0 ? `not counting ${formatCount(c.uiRequests)} of this UI` : 'plugins, scripts, tester'
  }
]

/** What the emulator holds, each number a link to where it is managed. */
export function CountsGrid() {
  const counts = useConnection((state) => state.info.data?.counts ?? null)
  const down = useServerLink((state) => state.state !== 'connected')
  return (
    <section aria-labelledby="counts-title" className="counts">
      <h2 id="counts-title" className="section-title">
        What it holds
        {down ? <span className="muted small"> · last read before the server stopped answering</span> : null}
      </h2>
      <ul className="counts__grid">
        {TILES.map((tile) => (
          <li key={tile.key}>
            <a className="count-tile" href={buildHash(tile.screen)} data-testid={`count-${tile.key}`}>
              <span className="count-tile__value">
                {counts ? (
                  formatCount(tile.value ? tile.value(counts) : counts[tile.key])
                ) : (
                  <Skeleton width={36} height="1em" />
                )}
              </span>
              <span className="count-tile__label">{tile.label}</span>
              <span className="count-tile__detail">{counts && tile.detail ? tile.detail(counts) : '\u00a0'}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
