// What to tell a developer when Electron (or its headers) cannot be downloaded: `npm start`,
// `npm run build:native:electron` and `npm run package` all need them from the network the first
// time, and @electron/get's own answer is a bare `TypeError: fetch failed` stack.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, posix } from 'node:path'

const root = join(import.meta.dirname, '..')

export function electronVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version
}

/** Where @electron/get looks for a downloaded zip before fetching it (its Cache: root/<sha256 of the URL's folder>/file). */
export function electronCachePath(version, env = process.env, platform = process.platform, arch = process.arch) {
  const file = `electron-v${version}-${platform}-${arch}.zip`
  const mirror = env.ELECTRON_MIRROR || 'https://github.com/electron/electron/releases/download/'
  const url = new URL(
    `${mirror.endsWith('/') ? mirror : `${mirror}/`}${env.ELECTRON_CUSTOM_DIR ?? `v${version}`}/${file}`
  )
  url.pathname = posix.dirname(url.pathname)
  const cacheRoot =
    env.electron_config_cache ||
    (platform === 'darwin'
      ? join(homedir(), 'Library', 'Caches', 'electron')
      : platform === 'win32'
        ? join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'electron', 'Cache')
        : join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'electron'))
  return { file, dir: join(cacheRoot, createHash('sha256').update(url.toString()).digest('hex')) }
}

/** The explanation: `what` failed (one sentence) and `reason`, the error's own words. */
export function electronDownloadHelp(what, reason) {
  const version = electronVersion()
  const cache = electronCachePath(version)
  return [
    '',
    `${what}:`,
    `  ${reason}`,
    '',
    `To get Electron ${version}:`,
    '  - from a mirror you can reach:  ELECTRON_MIRROR=https://your.mirror/electron/ npm start',
    `  - from a file: copy ${cache.file} (from a machine with network) to`,
    `      ${join(cache.dir, cache.file)}`,
    '    or set electron_config_cache=/some/dir to choose the cache folder, then look for the path',
    '    this message prints.',
    "  - the native module (npm run build:native:electron) also needs Electron's headers: give them",
    '    with --headers-dir DIR, or a headers mirror with ELECTRON_HEADERS_MIRROR.',
    '',
    'No Electron is needed for the emulator itself: `npm run serve` runs the same server and the',
    'same UI, in your browser (it prints the admin URL to open).',
    ''
  ].join('\n')
}
