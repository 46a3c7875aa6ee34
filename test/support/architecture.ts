import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, posix, relative } from 'node:path'
import ts from 'typescript'

/**
 * The layer rules of docs/architecture.md as code: which folder may import what, and where SQL
 * may be prepared. Imports are read with TypeScript's own pre-processor (static, `import type`,
 * re-exports and dynamic `import()` alike); nothing is compiled or run.
 */

/** A source file by its path from the repository root (posix separators). */
export interface SourceFile {
  path: string
  text: string
}

export type RuleName =
  'core-has-no-transport' | 'sql-in-repositories' | 'routes-use-services' | 'shared-stands-alone' | 'renderer-over-http'

export interface Violation {
  rule: RuleName
  file: string
  detail: string
}

export const RULES: Record<RuleName, string> = {
  'core-has-no-transport':
    'src/core imports no server, renderer, main, preload or CLI code, and no Fastify, Electron or HTTP module',
  'sql-in-repositories': 'SQL is prepared only in *-repository.ts files and src/core/store/',
  'routes-use-services': 'a route (src/server/routes) imports no repository: it asks a core service',
  'shared-stands-alone':
    'src/shared imports nothing outside src/shared but TypeBox: core, server and renderer all build on it',
  'renderer-over-http': 'the renderer imports no core, server, main or CLI code: it talks to the server over HTTP'
}

const TRANSPORT_MODULES = /^(?:fastify(?:-plugin)?|@fastify\/.+|electron|undici|(?:node:)?https?|(?:node:)?http2)$/
const NOT_FOR_CORE = ['src/server/', 'src/renderer/', 'src/main/', 'src/preload/', 'src/cli/']
const NOT_FOR_RENDERER = ['src/core/', 'src/server/', 'src/main/', 'src/cli/']
const SHARED_PACKAGES = /^typebox(?:\/.*)?$/
/** A statement prepared on a database handle, a pragma, or SQL run as text: what only a repository or the store may do. */
const PREPARED_SQL = /\.(?:prepare|pragma)\(|\.exec\(\s*['"`]/

/** What a file imports: `resolved` is the path from the root (no extension) for a relative import, else null. */
export function importsOf(file: SourceFile): { specifier: string; resolved: string | null }[] {
  const { importedFiles } = ts.preProcessFile(file.text, true, true)
  return importedFiles.map(({ fileName }) => ({
    specifier: fileName,
    resolved: fileName.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file.path), fileName)) : null
  }))
}

export function violationsOf(files: readonly SourceFile[]): Violation[] {
  const found: Violation[] = []
  const report = (rule: RuleName, file: string, detail: string) => found.push({ rule, file, detail })
  for (const file of files) {
    const imports = importsOf(file)
    if (file.path.startsWith('src/core/')) {
      for (const { specifier, resolved } of imports) {
        if (
          resolved
            ? NOT_FOR_CORE.some((folder) => `${resolved}/`.startsWith(folder))
            : TRANSPORT_MODULES.test(specifier)
        ) {
          report('core-has-no-transport', file.path, specifier)
        }
      }
    }
    if (
      file.path.startsWith('src/') &&
      !file.path.endsWith('-repository.ts') &&
      !file.path.startsWith('src/core/store/')
    ) {
      const match = PREPARED_SQL.exec(file.text)
      if (match) report('sql-in-repositories', file.path, match[0])
    }
    if (file.path.startsWith('src/server/routes/')) {
      for (const { specifier, resolved } of imports) {
        if (resolved?.endsWith('-repository')) report('routes-use-services', file.path, specifier)
      }
    }
    if (file.path.startsWith('src/shared/')) {
      for (const { specifier, resolved } of imports) {
        const outside = resolved
          ? !resolved.startsWith('src/shared/')
          : !SHARED_PACKAGES.test(specifier) || builtinModules.includes(specifier)
        if (outside) report('shared-stands-alone', file.path, specifier)
      }
    }
    if (file.path.startsWith('src/renderer/')) {
      for (const { specifier, resolved } of imports) {
        if (resolved && NOT_FOR_RENDERER.some((folder) => `${resolved}/`.startsWith(folder)))
          report('renderer-over-http', file.path, specifier)
      }
    }
  }
  return found
}

/** Every .ts and .tsx file below `folder` of the repository at `root`. */
export function sourceFiles(root: string, folder = 'src'): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.tsx?$/.test(entry.name))
        files.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') })
    }
  }
  walk(join(root, folder))
  return files
}
