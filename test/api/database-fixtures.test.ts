import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { loadOrCreateRuntimeKeyFile } from '../../src/core/crypto/runtime-key-file'
import { latestSchemaVersion } from '../../src/core/store/migrations'
import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { withReadOnlyDatabase } from '../support/database'
import { startEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'

// Databases written by earlier builds of the project (test/fixtures/databases/<build>/: each made
// by that build's own `serve` and API with scripts/make-db-fixture.mjs, its runtime key file
// beside it). Today's build opens each copy: every row is still there, the sealed secret is
// revealed equal, the license validates on its activation, the claim and the audit trail stand.
// test/fixtures/databases/README.md: every new migration adds a fixture made by the build before it.

const FIXTURES = new URL('../fixtures/databases/', import.meta.url).pathname
// One folder per build (v<schema version>-<commit>); the README beside them is not one.
const builds = existsSync(FIXTURES)
  ? readdirSync(FIXTURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
  : []
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

interface Manifest {
  /** The commit whose build wrote the database. */
  builtBy: string
  developerId: string
  productId: string
  appId: string
  pluginSecretSha256: string
  pluginKeySha256: string
  customerId: string
  licenseKey: string | null
  activatedInstance: string | null
  claimedOrderItemId: string | null
  /** A reseller order left unclaimed (fixtures from v10 on), and its claim token's digest. */
  pendingOrderId?: string | null
  pendingClaimTokenSha256?: string | null
}

type Counts = Record<string, number>
const rowCounts = (path: string): Counts =>
  withReadOnlyDatabase(path, (db) => {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[]
    return Object.fromEntries(
      tables.map((table) => [table, db.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() as number])
    )
  })

describe('databases written by earlier builds', () => {
  const dirs: { remove(): void }[] = []
  afterAll(() => dirs.forEach((dir) => dir.remove()))

  it('has fixtures from several builds, the newest made by the build before the newest migration or after it', () => {
    expect(builds.length).toBeGreaterThanOrEqual(3)
    const versions = builds.map(
      (build) =>
        withReadOnlyDatabase(join(FIXTURES, build, 'emulator.db'), (db) =>
          db.pragma('user_version', { simple: true })
        ) as number
    )
    // The build before the newest migration wrote one: what that migration must carry forward.
    expect(Math.max(...versions)).toBeGreaterThanOrEqual(latestSchemaVersion - 1)
  })

  it.each(builds.map((build) => [build]))(
    'opens %s with every row, its secret, activation, claim and audit',
    async (build) => {
      const source = join(FIXTURES, build)
      const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8')) as Manifest
      const dir = makeTempDir('fixture')
      dirs.push(dir)
      const databasePath = join(dir.path, 'emulator.db')
      copyFileSync(join(source, 'emulator.db'), databasePath)
      copyFileSync(join(source, 'emulator.db.runtime-key'), `${databasePath}.runtime-key`)
      const before = rowCounts(databasePath)
      const version = withReadOnlyDatabase(databasePath, (db) => db.pragma('user_version', { simple: true })) as number

      const emu = await startEmulator({
        databasePath,
        runtimeKey: loadOrCreateRuntimeKeyFile(`${databasePath}.runtime-key`)
      })
      try {
        // The sealed secret opens under the kept runtime key and is the one issued then.
        const session = await emu.control('POST', `/developers/${manifest.developerId}/session`, {})
        expect(session.status, session.text).toBe(200)
        const revealed = await emu.request(
          'POST',
          `/api/developer/plugin-keys/products/${manifest.productId}/reveal-secret`,
          { token: session.body.token, body: {} }
        )
        expect(revealed.status, revealed.text).toBe(200)
        const material = revealed.body.one_time_reveal as { appId: string; pluginKey: string; pluginSecret: string }
        expect(sha256(material.pluginSecret)).toBe(manifest.pluginSecretSha256)
        expect(sha256(material.pluginKey)).toBe(manifest.pluginKeySha256)
        expect(material.appId).toBe(manifest.appId)
        const plugin = {
          'x-svc-app-id': material.appId,
          'x-svc-plugin-key': material.pluginKey,
          'x-svc-plugin-secret': material.pluginSecret
        }

        // The activation made then: validate on that instance answers valid.
        if (manifest.licenseKey) {
          const validated = await emu.request('POST', '/api/license/v1/validate', {
            headers: plugin,
            body: { license_key: manifest.licenseKey, instance_id: manifest.activatedInstance }
          })
          expect(validated.status, validated.text).toBe(200)
          expect(validated.body).toMatchObject({ valid: true, code: 'VALID' })
        }
        // The audit trail of that time (create, reveal, verify) and today's reveal after it.
        const audit = await emu.control('GET', `/products/${manifest.productId}/audit`)
        expect(audit.status, audit.text).toBe(200)
        const actions = (audit.body.entries as { action: string }[]).map((entry) => entry.action)
        expect(actions).toEqual(expect.arrayContaining(['create', 'reveal-secret', 'verify']))
        // The claimed reseller item is in the customer's library.
        if (manifest.claimedOrderItemId) {
          const claimed = withReadOnlyDatabase(databasePath, (db) =>
            db
              .prepare('SELECT claimed_by_customer_id FROM order_items WHERE id = ?')
              .pluck()
              .get(manifest.claimedOrderItemId)
          )
          expect(claimed).toBe(manifest.customerId)
        }
        // The unclaimed reseller order is listed as pending. Before migration 11 its token was kept
        // only as a hash, so no link; from it on, sealed: the link is the one issued then.
        if (manifest.pendingOrderId) {
          const listed = await emu.control('GET', '/reseller-orders')
          expect(listed.status, listed.text).toBe(200)
          expect(listed.body.orders).toEqual([
            expect.objectContaining({
              order: expect.objectContaining({ id: manifest.pendingOrderId }),
              ...(version >= 11
                ? { claimToken: expect.stringMatching(/^clm_/) }
                : { claimToken: null, claimUrl: null, unrecoverableReason: 'not-kept' })
            })
          ])
          if (version >= 11) expect(sha256(listed.body.orders[0].claimToken)).toBe(manifest.pendingClaimTokenSha256)
          const hash = withReadOnlyDatabase(databasePath, (db) =>
            db
              .prepare('SELECT i.claim_token_hash FROM order_items i WHERE i.order_id = ?')
              .pluck()
              .get(manifest.pendingOrderId)
          )
          expect(hash).toBe(manifest.pendingClaimTokenSha256)
        }
        for (const path of ['/developers', '/products', '/customers', '/licenses', '/state', '/info']) {
          const answer = await emu.control('GET', path)
          expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(200)
        }
      } finally {
        await emu.close().catch(() => undefined)
      }
      // Every row of every table of then is still there (today's migrations may add tables, not lose
      // rows); the request log's, since version 13, in the log's own file.
      const after: Counts = {
        ...rowCounts(databasePath),
        request_log: rowCounts(requestLogPathFor(databasePath)).request_log ?? 0
      }
      expect(rowCounts(databasePath)).not.toHaveProperty('request_log')
      for (const [table, count] of Object.entries(before)) {
        if (table === 'request_log' || table === 'credential_audit')
          expect(after[table] ?? 0).toBeGreaterThanOrEqual(count)
        else if (table !== 'schema_migrations') expect({ table, count: after[table] }).toEqual({ table, count })
      }
      expect(withReadOnlyDatabase(databasePath, (db) => db.pragma('integrity_check', { simple: true }))).toBe('ok')
    },
    60_000
  )
})
