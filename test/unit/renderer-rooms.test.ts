import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// The renderer's rooms read one way: the app shell over the screens, the screens over the
// components, the stores over the API client and formatting. Navigation, the platform services
// (saving a file, the admin token) and license token inspection sit below the screens and the
// stores that use them, so nothing imports back up. A new folder must be placed here first.
const RENDERER = 'src/renderer/src'

/** The rooms each room may import from, besides itself and the wire contract (src/shared). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  'main.tsx': ['app', 'stores', 'styles.css'],
  app: ['screens', 'components', 'stores', 'navigation', 'platform', 'tokens', 'api', 'format'],
  screens: ['components', 'stores', 'navigation', 'platform', 'tokens', 'api', 'format'],
  components: ['stores', 'navigation', 'platform', 'api', 'format'],
  stores: ['platform', 'tokens', 'api', 'format'],
  navigation: [],
  platform: [],
  tokens: ['api'],
  api: [],
  format: [],
  styles: []
}

/** Relative module specifiers in a source text: import/export ... from, side-effect imports, import(). */
export function specifiersOf(source: string): string[] {
  const found: string[] = []
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g))
    found.push(match[1] as string)
  return found
}

const roomOf = (path: string) => path.split('/')[0] as string

/** Every import that runs back up (or leaves the renderer other than for src/shared), as "file -> target". */
export function importsRunningBack(files: Record<string, string>): string[] {
  const wrong: string[] = []
  for (const [path, source] of Object.entries(files)) {
    const room = roomOf(path)
    const allowed = MAY_IMPORT[room]
    if (!allowed) {
      wrong.push(`${path}: the room "${room}" has no place in the order`)
      continue
    }
    for (const specifier of specifiersOf(source)) {
      const target = posix.normalize(posix.join(posix.dirname(path), specifier))
      if (target.startsWith('../')) {
        if (!target.startsWith('../../shared/'))
          wrong.push(`${path} -> ${specifier} (outside the renderer, not src/shared)`)
        continue
      }
      const targetRoom = roomOf(target)
      if (targetRoom !== room && !allowed.includes(targetRoom))
        wrong.push(`${path} -> ${specifier} (${room} may not import ${targetRoom})`)
    }
  }
  return wrong
}

function rendererSources(): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(ts|tsx)$/.test(entry.name))
        files[relative(RENDERER, path).split(sep).join('/')] = readFileSync(path, 'utf8')
    }
  }
  walk(RENDERER)
  return files
}

describe('the renderer rooms import one way', () => {
  it('has no import running back up', () => {
    const files = rendererSources()
    expect(Object.keys(files).length).toBeGreaterThan(100)
    expect(importsRunningBack(files)).toEqual([])
  })

  it('catches each kind of import that runs back up', () => {
    expect(
      importsRunningBack({
        'screens/a/A.tsx': "import { buildHash } from '../../app/routes'",
        'stores/b.ts': "import type { X } from '../screens/tester/x'\nexport { y } from '../app/y'",
        'components/C.tsx': "const lazy = import('../screens/a/A')",
        'api/d.ts': "import { e } from '../stores/e'",
        'format/f.ts': "import '../../../core/g'",
        'widgets/h.ts': "import { i } from '../api/i'"
      })
    ).toEqual([
      'screens/a/A.tsx -> ../../app/routes (screens may not import app)',
      'stores/b.ts -> ../screens/tester/x (stores may not import screens)',
      'stores/b.ts -> ../app/y (stores may not import app)',
      'components/C.tsx -> ../screens/a/A (components may not import screens)',
      'api/d.ts -> ../stores/e (api may not import stores)',
      'format/f.ts -> ../../../core/g (outside the renderer, not src/shared)',
      'widgets/h.ts: the room "widgets" has no place in the order'
    ])
  })

  it('lets a room import downwards, within itself and the wire contract', () => {
    expect(
      importsRunningBack({
        'app/Shell.tsx':
          "import { X } from '../screens/x/X'\nimport { r } from '../navigation/router'\nimport { s } from './ScreenView'",
        'screens/a/A.tsx':
          "import { B } from '../b/B'\nimport { save } from '../../platform/save-file'\nimport { K } from '../../../../shared/contract/faults'",
        'stores/t.ts':
          "import { inspect } from '../tokens/license-token'\nimport type { S } from '../platform/admin-token'"
      })
    ).toEqual([])
  })
})
