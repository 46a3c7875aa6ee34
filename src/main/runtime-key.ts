import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, rmSync } from 'node:fs'

import { loadOrCreateRuntimeKeyFile, runtimeKeyPathFor } from '../core/crypto/runtime-key-file'
import { writeFileAtomic } from '../core/files/atomic-file'

/** How the runtime key is kept at rest; the UI shows it (appInfo().runtimeKeyProtection). */
export type RuntimeKeyProtection = 'safeStorage' | 'file'

/** The parts of Electron's safeStorage used here (the async API: the sync one is deprecated). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>
  encryptStringAsync(plainText: string): Promise<Buffer>
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>
  getSelectedStorageBackend(): string
}

export interface RuntimeKey {
  key: Buffer
  protection: RuntimeKeyProtection
  /** The file that holds it (encrypted or plain). */
  path: string
}

/** The OS-encrypted key file: beside the database, like `serve`'s plain one. */
export function encryptedRuntimeKeyPathFor(databasePath: string): string {
  return `${runtimeKeyPathFor(databasePath)}.safestorage`
}

/**
 * Whether safeStorage gives real protection. On Linux without a keyring (no libsecret or
 * kwallet) Chromium falls back to 'basic_text': a fixed, public password. Encryption "works"
 * there but protects nothing, and claiming otherwise in the UI would mislead, so it counts as none.
 */
export async function hasRealSafeStorage(safeStorage: SafeStorageLike, platform: NodeJS.Platform): Promise<boolean> {
  if (!(await safeStorage.isAsyncEncryptionAvailable())) return false
  if (platform !== 'linux') return true
  const backend = safeStorage.getSelectedStorageBackend()
  return backend !== 'basic_text' && backend !== 'unknown'
}

/**
 * Loads (or creates) the 32-byte key that encrypts revealable credentials. With a real
 * safeStorage backend it is kept encrypted by the OS keychain; otherwise in a 0600 file, as
 * `serve` keeps it. A plain key left by an earlier run moves into safeStorage once one exists.
 * Call after app 'ready': safeStorage answers only then.
 */
export async function loadRuntimeKey(options: {
  databasePath: string
  safeStorage: SafeStorageLike
  platform: NodeJS.Platform
}): Promise<RuntimeKey> {
  const { safeStorage } = options
  const plainPath = runtimeKeyPathFor(options.databasePath)
  const encryptedPath = encryptedRuntimeKeyPathFor(options.databasePath)

  if (!(await hasRealSafeStorage(safeStorage, options.platform))) {
    if (existsSync(encryptedPath)) {
      // Making a new key here would silently orphan every revealable credential in the database.
      throw new Error(
        `The runtime key is encrypted by the OS keychain (${encryptedPath}), which is not available now. ` +
          'Unlock or enable the keychain (on Linux: a Secret Service such as GNOME Keyring, or KWallet) and start again; ' +
          'or move that file aside to start with a new key (credentials created before cannot be revealed then).'
      )
    }
    return { key: loadOrCreateRuntimeKeyFile(plainPath), protection: 'file', path: plainPath }
  }

  if (existsSync(encryptedPath)) {
    let decrypted: { result: string; shouldReEncrypt: boolean }
    try {
      decrypted = await safeStorage.decryptStringAsync(readFileSync(encryptedPath))
    } catch (error) {
      throw new Error(
        `The OS keychain cannot decrypt the runtime key ${encryptedPath} (${(error as Error).message}). ` +
          'Move that file aside to start with a new key (credentials created before cannot be revealed then).'
      )
    }
    const key = parseKey(decrypted.result, encryptedPath)
    // The keychain rotated its own key: store ours again under the new one.
    if (decrypted.shouldReEncrypt) await writeEncrypted(safeStorage, encryptedPath, key)
    removePlainCopy(plainPath, key)
    return { key, protection: 'safeStorage', path: encryptedPath }
  }

  // First run with a keychain: adopt the key of an earlier file-protected run, or make one.
  const key = existsSync(plainPath) ? loadOrCreateRuntimeKeyFile(plainPath) : randomBytes(32)
  await writeEncrypted(safeStorage, encryptedPath, key)
  removePlainCopy(plainPath, key)
  return { key, protection: 'safeStorage', path: encryptedPath }
}

async function writeEncrypted(safeStorage: SafeStorageLike, path: string, key: Buffer): Promise<void> {
  const encrypted = await safeStorage.encryptStringAsync(key.toString('base64'))
  // Read it back before relying on it: a keychain that encrypts but cannot decrypt would lose the key.
  const check = await safeStorage.decryptStringAsync(encrypted)
  if (!parseKey(check.result, path).equals(key))
    throw new Error('The OS keychain did not return the runtime key it encrypted.')
  writeFileAtomic(path, encrypted, 0o600)
}

/** Deletes a plain key file once its key is safely in the keychain (never a different key). */
function removePlainCopy(plainPath: string, key: Buffer): void {
  if (!existsSync(plainPath)) return
  try {
    if (loadOrCreateRuntimeKeyFile(plainPath).equals(key)) rmSync(plainPath, { force: true })
  } catch {
    // An unreadable or malformed plain file is not ours to judge; leave it.
  }
}

function parseKey(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== 32) throw new Error(`The runtime key in ${path} is not a 32-byte key.`)
  return key
}
