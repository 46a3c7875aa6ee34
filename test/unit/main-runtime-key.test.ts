import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { loadOrCreateRuntimeKeyFile } from '../../src/core/crypto/runtime-key-file'
import { encryptedRuntimeKeyPathFor, hasRealSafeStorage, loadRuntimeKey } from '../../src/main/runtime-key'
import { fake, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

describe('the runtime key in the desktop app', () => {
  let temp: ReturnType<typeof makeTempDir>
  let databasePath: string
  let plainPath: string
  let encryptedPath: string

  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('runtime-key')
    databasePath = join(temp.path, 'emulator.db')
    plainPath = `${databasePath}.runtime-key`
    encryptedPath = encryptedRuntimeKeyPathFor(databasePath)
  })
  afterEach(() => temp.remove())

  const load = (platform: NodeJS.Platform = 'linux') =>
    loadRuntimeKey({ databasePath, safeStorage: fake.safeStorage, platform })

  it('counts only a real keychain backend as protection', async () => {
    fake.safeStorage.backend = 'gnome_libsecret'
    expect(await hasRealSafeStorage(fake.safeStorage, 'linux')).toBe(true)
    for (const backend of ['basic_text', 'unknown'] as const) {
      fake.safeStorage.backend = backend
      expect(await hasRealSafeStorage(fake.safeStorage, 'linux'), backend).toBe(false)
      // The backend question is Linux's only; elsewhere availability decides.
      expect(await hasRealSafeStorage(fake.safeStorage, 'darwin')).toBe(true)
    }
    fake.safeStorage.available = false
    expect(await hasRealSafeStorage(fake.safeStorage, 'win32')).toBe(false)
  })

  it('keeps the key encrypted by the OS when it can, and the same key on the next start', async () => {
    const first = await load()
    expect(first.protection).toBe('safeStorage')
    expect(first.path).toBe(encryptedPath)
    expect(existsSync(plainPath)).toBe(false)
    const stored = readFileSync(encryptedPath)
    expect(stored.includes(Buffer.from(first.key.toString('base64')))).toBe(false) // not in the clear
    if (process.platform !== 'win32') expect(statSync(encryptedPath).mode & 0o777).toBe(0o600)

    const second = await load()
    expect(second.key.equals(first.key)).toBe(true)
    expect(fake.safeStorage.encryptCalls).toBe(1) // not re-encrypted without reason
  })

  it("falls back to the 0600 key file serve uses when Linux has only 'basic_text'", async () => {
    fake.safeStorage.backend = 'basic_text'
    const loaded = await load('linux')
    expect(loaded).toMatchObject({ protection: 'file', path: plainPath })
    expect(existsSync(encryptedPath)).toBe(false)
    expect(loadOrCreateRuntimeKeyFile(plainPath).equals(loaded.key)).toBe(true)
    if (process.platform !== 'win32') expect(statSync(plainPath).mode & 0o777).toBe(0o600)
    expect(fake.safeStorage.encryptCalls).toBe(0)
  })

  it('falls back to the key file when safeStorage is not available at all', async () => {
    fake.safeStorage.available = false
    expect((await load('win32')).protection).toBe('file')
    expect((await load('darwin')).protection).toBe('file')
  })

  it('moves a key from an earlier file-protected run into safeStorage, keeping it', async () => {
    fake.safeStorage.backend = 'basic_text'
    const before = await load()
    fake.safeStorage.backend = 'kwallet6'
    const after = await load()
    expect(after.protection).toBe('safeStorage')
    expect(after.key.equals(before.key)).toBe(true)
    expect(existsSync(plainPath)).toBe(false)
    expect(existsSync(encryptedPath)).toBe(true)
  })

  it('refuses to start over when the keychain that holds the key is gone', async () => {
    await load()
    fake.safeStorage.backend = 'basic_text'
    await expect(load()).rejects.toThrow(/encrypted by the OS keychain .* not available now/)
    expect(existsSync(plainPath)).toBe(false) // no new key was made behind the user's back
  })

  it('explains a key the keychain cannot decrypt', async () => {
    writeFileSync(encryptedPath, 'garbage')
    await expect(load()).rejects.toThrow(/cannot decrypt the runtime key/)
  })

  it('stores the key again when the keychain rotated its own key', async () => {
    const first = await load()
    fake.safeStorage.shouldReEncrypt = true
    const again = await load()
    expect(again.key.equals(first.key)).toBe(true)
    expect(fake.safeStorage.encryptCalls).toBe(2)
    expect((await load()).key.equals(first.key)).toBe(true)
  })
})
