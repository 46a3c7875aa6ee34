import envPaths from 'env-paths'

/**
 * Where `serve` keeps its database when no --db is given: the per-user data directory as
 * env-paths names it (Linux `$XDG_DATA_HOME` or `~/.local/share`, macOS `~/Library/Application
 * Support`, Windows `%LOCALAPPDATA%\…\Data`).
 */
export function defaultDataDir(): string {
  return envPaths('plugin-license-emulator', { suffix: '' }).data
}
