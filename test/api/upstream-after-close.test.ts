import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import { buildServer } from '../../src/server/build-server'
import { makeTempDir } from '../support/temp-dir'

// The upstream's connection pool is destroyed on close; one asked for after that (the start's
// deferred load firing after a quick close, a drift check's late fetch) is refused, never made:
// nothing would destroy it.
describe('the upstream connection pool after close', () => {
  it('is refused with a sentence, not made, once the emulator has closed', async () => {
    const dir = makeTempDir('upstream-after-close')
    const app = await buildServer({
      databasePath: `${dir.path}/emulator.db`,
      runtimeKey: randomBytes(32),
      adminToken: 'upstream-after-close-0001',
      log: { level: 'silent' },
      upstream: { url: 'http://127.0.0.1:9' }
    })
    await app.ready()
    await app.close()
    await expect(app.upstream.fetch('/.well-known/jwks.json')).rejects.toThrow(
      'The emulator has closed: nothing is forwarded any more.'
    )
  })
})
