import { homedir } from 'node:os'
import { join, resolve, sep } from 'node:path'

/**
 * A path option as the person meant it: absolute, from the working directory, and a leading `~`
 * as their home directory. A shell expands `~` before the command sees it, but not inside quotes,
 * in Windows' cmd, or in a tool's configuration file; left alone it made a folder named `~`.
 * `~user` forms are left as they are (a file may really be named so), and `~\` is a home only where
 * `\` separates folders (Windows).
 */
export function resolveUserPath(path: string): string {
  if (path === '~') return homedir()
  if (path.startsWith('~/') || (sep === '\\' && path.startsWith('~\\'))) return join(homedir(), path.slice(2))
  return resolve(path)
}
