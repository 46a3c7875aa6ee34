/** The screens, in navigation order, and the hash routes that reach them (#/overview, #/credentials?product=...). */

export const SCREEN_IDS = [
  'overview',
  'developers',
  'credentials',
  'tester',
  'library',
  'requests',
  'drift',
  'recordings',
  'scenarios'
] as const
export type ScreenId = (typeof SCREEN_IDS)[number]

export interface ScreenInfo {
  id: ScreenId
  label: string
  /** The shorter name in the navigation. */
  navLabel: string
  /** One line under the page title. */
  description: string
}

export const SCREENS: readonly ScreenInfo[] = [
  {
    id: 'overview',
    navLabel: 'Overview',
    label: 'Overview',
    description: 'Server status, where the data lives, and what it holds.'
  },
  {
    id: 'developers',
    navLabel: 'Developers',
    label: 'Developers & products',
    description: 'Choose who you act as, and create products.'
  },
  {
    id: 'credentials',
    navLabel: 'Credentials',
    label: 'Credentials',
    description: 'Issue, reveal, rotate and revoke product credentials; export package config.'
  },
  {
    id: 'tester',
    navLabel: 'Connection tester',
    label: 'Connection tester',
    description: 'Verify a credential and step through activate, validate and deactivate.'
  },
  {
    id: 'library',
    navLabel: 'Library',
    label: 'Library viewer',
    description: "A customer's library as they see it, plus QA actions."
  },
  {
    id: 'requests',
    navLabel: 'Requests',
    label: 'Requests',
    description: 'Every service API request, live, redacted.'
  },
  {
    id: 'drift',
    navLabel: 'Drift',
    label: 'Drift',
    description: "Where the upstream's answers depart from the emulator's contract, and which operations were seen."
  },
  {
    id: 'recordings',
    navLabel: 'Recordings',
    label: 'Recordings',
    description: 'Record real traffic, replay it offline, and turn it into a scenario.'
  },
  {
    id: 'scenarios',
    navLabel: 'Scenarios & settings',
    label: 'Scenarios & settings',
    description: 'Presets, state import and export, faults, the clock and server settings.'
  }
]

export const DEFAULT_SCREEN: ScreenId = 'overview'

export interface Route {
  screen: ScreenId
  params: Record<string, string>
}

function isScreenId(value: string): value is ScreenId {
  return (SCREEN_IDS as readonly string[]).includes(value)
}

/** "#/credentials?product=p1" -> { screen: 'credentials', params: { product: 'p1' } }; anything else -> the default screen. */
export function parseHash(hash: string): Route {
  const body = hash.replace(/^#/, '')
  if (!body.startsWith('/')) return { screen: DEFAULT_SCREEN, params: {} }
  const [path = '', query = ''] = body.slice(1).split('?', 2)
  const name = path.split('/')[0] ?? ''
  const params: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(query)) params[key] = value
  return { screen: isScreenId(name) ? name : DEFAULT_SCREEN, params }
}

export function buildHash(screen: ScreenId, params: Record<string, string | null | undefined> = {}): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') query.set(key, value)
  }
  const text = query.toString()
  return `#/${screen}${text ? `?${text}` : ''}`
}

export function screenInfo(id: ScreenId): ScreenInfo {
  return SCREENS.find((screen) => screen.id === id) ?? (SCREENS[0] as ScreenInfo)
}

/** The inspector searching for one license key: the Library's "Its requests" (a link, or navigate('requests', { q })). */
export function requestsOfLicense(licenseKey: string): string {
  return buildHash('requests', { q: licenseKey })
}
