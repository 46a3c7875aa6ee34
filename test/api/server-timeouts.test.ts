import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import { buildServer } from '../../src/server/build-server'
import { makeTempDir } from '../support/temp-dir'

// The server is Node's own (built for Host-less requests), with Fastify's timeouts: an idle
// keep-alive socket stays open 72 s, so a client that reuses it a few seconds later (a plugin
// polling, a test between steps) does not hit a socket the server just closed.
describe('server timeouts', () => {
  it("keeps idle keep-alive sockets 72 s, as Fastify's own server does, and sets no request timeout", async () => {
    const dir = makeTempDir('timeouts')
    const app = await buildServer({
      databasePath: `${dir.path}/emulator.db`,
      runtimeKey: randomBytes(32),
      adminToken: 'timeouts-admin-token-0001',
      log: { level: 'silent' }
    })
    try {
      expect(app.server.keepAliveTimeout).toBe(72_000)
      expect(app.server.requestTimeout).toBe(0)
    } finally {
      await app.close()
    }
  })
})
