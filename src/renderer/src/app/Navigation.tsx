import { LineGlyph } from '../components/Icon'
import { buildHash, SCREENS } from '../navigation/routes'
import type { ScreenId } from '../navigation/routes'
import { useConnection } from '../stores/connection'
import { useTheme } from '../stores/theme'
import type { ThemePreference } from '../stores/theme'
import { ServerPill } from './ServerPill'
import { SCREEN_KEYS } from './shortcuts'

const SCREEN_LETTER = Object.fromEntries(
  Object.entries(SCREEN_KEYS).map(([letter, screen]) => [screen, letter])
) as Record<ScreenId, string>

const GLYPHS: Record<ScreenId, string> = {
  overview: 'M3 12l9-8 9 8M5 10v10h14V10',
  developers:
    'M16 19v-1a4 4 0 0 0-8 0v1M12 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM20 19v-1a3 3 0 0 0-2-2.8M4 19v-1a3 3 0 0 1 2-2.8',
  credentials: 'M14.5 9.5a4.5 4.5 0 1 1-3 4.2L4 21H2v-3l7.3-7.3a4.5 4.5 0 0 1 5.2-1.2z',
  tester: 'M4 12h4l2-5 4 10 2-5h4',
  library: 'M4 5h5v14H4zM10 5h5v14h-5zM16 6l4 1-3 13-4-1',
  requests: 'M4 6h16M4 12h16M4 18h10',
  drift: 'M3 17l5-5 4 4 8-8M14 8h6v6',
  recordings: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  scenarios:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6A7 7 0 0 0 5 12c0 .4 0 .8.1 1.2l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z'
}

const THEME_WORDS: Record<ThemePreference, { now: string; next: string; glyph: string }> = {
  system: { now: 'Theme: as the system', next: 'light', glyph: 'M12 3a9 9 0 1 0 0 18zM12 3a9 9 0 0 1 0 18' },
  light: {
    now: 'Theme: light',
    next: 'dark',
    glyph:
      'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4'
  },
  dark: { now: 'Theme: dark', next: 'as the system', glyph: 'M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z' }
}

/** Light, dark or as the system says: one button that steps through the three. */
function ThemeSwitch() {
  const preference = useTheme((state) => state.preference)
  const cycle = useTheme((state) => state.cycle)
  const words = THEME_WORDS[preference]
  return (
    <button
      type="button"
      className="theme-switch"
      onClick={cycle}
      title={`${words.now} (switch to ${words.next})`}
      data-testid="theme-switch"
    >
      <LineGlyph d={words.glyph} size={16} strokeWidth={1.8} />
      <span className="theme-switch__label">{words.now}</span>
    </button>
  )
}

/** The persistent navigation: one link per screen, the current one marked. */
export function Navigation({ current }: { current: ScreenId }) {
  const info = useConnection((state) => state.info.data)
  const desktop = useConnection((state) => state.desktop)
  return (
    <aside className="sidebar">
      <p className="brand">
        <span className="brand__mark" aria-hidden="true">
          PLE
        </span>
        <span className="brand__name">
          Plugin License
          <br />
          Emulator
        </span>
      </p>
      <nav aria-label="Screens">
        <ul className="nav">
          {SCREENS.map((screen) => (
            <li key={screen.id}>
              <a
                className="nav__link"
                href={buildHash(screen.id)}
                aria-current={screen.id === current ? 'page' : undefined}
                aria-label={screen.navLabel}
                aria-keyshortcuts={`g ${SCREEN_LETTER[screen.id]}`}
                title={`${screen.navLabel} (g ${SCREEN_LETTER[screen.id]})`}
              >
                <LineGlyph d={GLYPHS[screen.id]} size={18} strokeWidth={1.8} />
                <span className="nav__label">{screen.navLabel}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar__footer">
        <ServerPill />
        <ThemeSwitch />
        <p className="sidebar__meta">
          v{info?.version ?? '…'} · {desktop ? 'desktop app' : 'browser'}
        </p>
      </div>
    </aside>
  )
}
