import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { loadOrCreateRuntimeKeyFile, runtimeKeyPathFor } from '../../src/core/crypto/runtime-key-file'
import { makeTempDir } from '../support/temp-dir'

describe('runtime key file', () => {
  let dir: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    dir = makeTempDir('runtime-key')
  })
  afterEach(() => dir.remove())

  it('lives beside the database', () => {
    expect(runtimeKeyPathFor('/data/emulator.db')).toBe('/data/emulator.db.runtime-key')
  })

  it('is created on first use with 32 random bytes, in missing directories', () => {
    const path = join(dir.path, 'nested', 'deeper', 'emulator.db.runtime-key')
    expect(existsSync(path)).toBe(false)
    const key = loadOrCreateRuntimeKeyFile(path)
    expect(key.length).toBe(32)
    expect(existsSync(path)).toBe(true)
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64').equals(key)).toBe(true)
  })

  // Windows has no POSIX mode bits (NTFS ACLs decide who reads the file), so 0600 cannot be checked there.
  it.skipIf(process.platform === 'win32')('is readable by its owner only (mode 0600)', () => {
    const path = join(dir.path, 'emulator.db.runtime-key')
    loadOrCreateRuntimeKeyFile(path)
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600')
  })

  it('is reused on later calls: same bytes, file unchanged', () => {
    const path = join(dir.path, 'emulator.db.runtime-key')
    const first = loadOrCreateRuntimeKeyFile(path)
    const fileText = readFileSync(path, 'utf8')
    const second = loadOrCreateRuntimeKeyFile(path)
    expect(second.equals(first)).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(fileText)
  })

  it('gives different keys to different databases', () => {
    const a = loadOrCreateRuntimeKeyFile(join(dir.path, 'a.db.runtime-key'))
    const b = loadOrCreateRuntimeKeyFile(join(dir.path, 'b.db.runtime-key'))
    expect(a.equals(b)).toBe(false)
  })

  it('reads a key written by someone else', () => {
    const path = join(dir.path, 'given.runtime-key')
    const key = randomBytes(32)
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600 })
    expect(loadOrCreateRuntimeKeyFile(path).equals(key)).toBe(true)
  })

  it.each([
    ['garbage text', 'this is not a key'],
    ['a 16-byte key', randomBytes(16).toString('base64')],
    ['an empty file', '']
  ])('throws a clear error, naming the file, for %s', (_label, content) => {
    const path = join(dir.path, 'corrupt.runtime-key')
    writeFileSync(path, content)
    expect(() => loadOrCreateRuntimeKeyFile(path)).toThrow(`The runtime key file ${path} does not hold a 32-byte key.`)
    // A corrupt file is reported, never silently replaced (that would orphan every sealed secret).
    expect(readFileSync(path, 'utf8')).toBe(content)
  })
})
