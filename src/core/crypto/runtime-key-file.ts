import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** Where `serve` keeps the runtime key by default: beside the database. */
export function runtimeKeyPathFor(databasePath: string): string {
  return `${databasePath}.runtime-key`
}

/**
 * Reads the 32-byte runtime key from `path`, creating it (mode 0600, exclusive create) on first
 * run. The file holds the key in base64 and nothing else.
 */
export function loadOrCreateRuntimeKeyFile(path: string): Buffer {
  try {
    return parseKey(readFileSync(path, 'utf8'), path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  mkdirSync(dirname(path), { recursive: true })
  const key = randomBytes(32)
  try {
    writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Another process won the race to create it: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseKey(readFileSync(path, 'utf8'), path)
    throw error
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600)
  return key
}

function parseKey(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== 32) throw new Error(`The runtime key file ${path} does not hold a 32-byte key.`)
  return key
}
