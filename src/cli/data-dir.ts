import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where `serve` keeps its database when no --db is given: the per-user data directory. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'plugin-license-emulator')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'plugin-license-emulator')
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'plugin-license-emulator')
}
