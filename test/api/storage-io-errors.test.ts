import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { expectError } from '../support/credentials'
import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import { makeTempDir } from '../support/temp-dir'

// docs/api.md section 1, "Storage faults": a disk that refuses a write with an I/O error (a file
// system remounted read-only after errors, an immutable file) is a database that cannot be
// written, answered 503 STORAGE_READ_ONLY in the contract's words; it was a 500 INTERNAL.

const isRoot = process.getuid?.() === 0
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Log lines holding `text`, as pino's JSON: their levels (40 is warn). */
const levelsOf = (emu: TestEmulator, text: string) =>
  emu
    .logOutput()
    .split('\n')
    .filter((line) => line.includes(text))
    .map((line) => (JSON.parse(line) as { level: number }).level)

describe('the disk refuses a write (an I/O error)', () => {
  // Skipped unless run as root: `chattr +i` (an immutable file, which refuses even root's writes
  // with EPERM) needs it (CI and this machine run as root, so it runs there).
  it.skipIf(!isRoot /* not root: chattr +i cannot be run */)(
    'answers 503 STORAGE_READ_ONLY, reports it in health and the log at warn, and writes again once the disk allows',
    async () => {
      const dir = makeTempDir('io-error')
      cleanups.push(dir.remove)
      const databasePath = join(dir.path, 'emulator.db')
      const emu = await startEmulator({ databasePath, runtimeKey: randomBytes(32) })
      cleanups.push(() => emu.close())
      const credential = await productWithCredential(emu)
      const customer = await emu.control('POST', '/customers', { email: 'io@example.test' })
      const bought = await emu.control('POST', '/purchases', {
        customerId: customer.body.customer.id,
        productId: credential.productId
      })
      const plugin = pluginClient(emu, credential)
      const licenseKey = bought.body.license.key as string

      // The WAL is open already: SQLite's next write to it fails with SQLITE_IOERR_WRITE.
      const wal = `${databasePath}-wal`
      execFileSync('chattr', ['+i', wal])
      cleanups.push(() => void execFileSync('chattr', ['-i', wal]))
      const refused = await plugin.activate(licenseKey, 'io-mac')
      expectError(refused, 503, 'STORAGE_READ_ONLY')
      expect(refused.body.message).toContain(databasePath)
      const health = await emu.request('GET', '/_emulator/health')
      expect(health.body.storage).toMatchObject({ writable: false, error: 'STORAGE_READ_ONLY' })
      expect(levelsOf(emu, 'storage: writes fail')).toEqual([40])
      expect(levelsOf(emu, 'unhandled error')).toEqual([])

      execFileSync('chattr', ['-i', wal])
      const activated = await plugin.activate(licenseKey, 'io-mac')
      expect(activated.status, activated.text).toBe(201)
      expect((await emu.request('GET', '/_emulator/health')).body.storage).toEqual({ writable: true })
      // The end of the episode at the level of its start: seen at the default level (warn) too.
      expect(levelsOf(emu, 'storage: writes succeed again')).toEqual([40])
    },
    30_000
  )
})
