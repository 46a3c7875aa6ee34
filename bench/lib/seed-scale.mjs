// The scale database: many licenses and activations, built fast and before the server starts.
//
// How (the brief's preferred path): `serve` is started once on a fresh file, so the project's own
// openStore creates and migrates it and writes its signing keys; one small scenario document
// (a developer, the product and its credential) is imported with PUT /_emulator/state, so the
// credential rows are the server's own; then `serve` is stopped. The bulk rows (customers,
// licenses, activations) are then written with plain better-sqlite3 in ONE transaction of three
// INSERT ... SELECT statements over a recursive counter, so SQLite generates the rows itself with
// no per-row JavaScript. The server is then started again on that file and measured.
import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'

import { startEmulator } from './emulator.mjs'

const CREATED = '2025-01-01T00:00:00.000Z'
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const token = () => [...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('')

/** The license key and an activated instance of license `i`, activation `k`; the SQL below writes the same. */
export const scaleLicenseKey = (i) => `SCALE-${String(i).padStart(7, '0')}`
export const scaleInstanceId = (i, k) => `inst-${String(i).padStart(7, '0')}-${String(k).padStart(2, '0')}`

/**
 * @param {string} databasePath  a path where no database exists yet
 * @param {{ customers: number, licenses: number, activationsPerLicense: number }} size
 * @returns {Promise<{ plugin: import('./fixtures.mjs').PluginCredential, seedMs: number, migrateMs: number, rows: Record<string, number>, fileMiB: number }>}
 */
export async function seedScaleDatabase(databasePath, size) {
  const plugin = {
    productId: 'prd_scale',
    appId: `app_${token()}`,
    pluginKey: `pk_${token()}`,
    pluginSecret: `sk_${token()}`
  }
  const migrateStart = performance.now()
  const emu = await startEmulator({ databasePath })
  let exit
  try {
    await emu.control('PUT', '/state', {
      format: 'plugin-license-emulator/scenario',
      version: 1,
      name: 'bench scale base',
      developers: [{ id: 'dev_scale', email: 'scale@bench.test', role: 'developer', createdAt: CREATED }],
      products: [
        { id: plugin.productId, developerId: 'dev_scale', name: 'Scale Synth', appId: plugin.appId, createdAt: CREATED }
      ],
      credentials: [
        {
          id: 'cred_scale',
          productId: plugin.productId,
          status: 'active',
          createdAt: CREATED,
          pluginKey: plugin.pluginKey,
          pluginSecret: plugin.pluginSecret
        }
      ]
    })
  } finally {
    exit = await emu.stop()
  }
  if (exit.code !== 0) throw new Error(`serve did not stop cleanly (${JSON.stringify(exit)}): ${emu.stderr()}`)
  const migrateMs = performance.now() - migrateStart

  const seedStart = performance.now()
  // The better-sqlite3 build for this Node when node_modules holds another ABI's (src/core/store/native-binding.ts).
  const nativeBinding = process.env.PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING || undefined
  const db = new Database(databasePath, nativeBinding ? { nativeBinding } : {})
  try {
    // Same journal as the server (WAL); no fsync while seeding: a crash here only loses a bench file.
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = OFF')
    db.pragma('foreign_keys = ON')
    const counter = (n) => `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n - 1})`
    const { customers, licenses, activationsPerLicense } = size
    db.transaction(() => {
      db.prepare(
        `${counter(customers)}
         INSERT INTO customers (id, user_id, email, name, created_at)
         SELECT printf('cus_s%07d', i), printf('user_s%07d', i), printf('s%07d@scale.test', i), printf('Scale Customer %d', i), '${CREATED}' FROM seq`
      ).run()
      db.prepare(
        `${counter(licenses)}
         INSERT INTO licenses (id, license_key, customer_id, product_id, kind, status, max_activations, created_at)
         SELECT printf('lic_s%07d', i), printf('SCALE-%07d', i), printf('cus_s%07d', i % ${customers}), '${plugin.productId}',
                'perpetual', 'active', ${activationsPerLicense * 2}, '${CREATED}' FROM seq`
      ).run()
      db.prepare(
        `${counter(licenses * activationsPerLicense)}
         INSERT INTO activations (id, license_id, instance_id, platform, first_seen_at, last_seen_at)
         SELECT printf('act_s%08d', i), printf('lic_s%07d', i / ${activationsPerLicense}),
                printf('inst-%07d-%02d', i / ${activationsPerLicense}, i % ${activationsPerLicense}), 'windows', '${CREATED}', '${CREATED}' FROM seq`
      ).run()
    })()
    db.pragma('wal_checkpoint(TRUNCATE)')
    const count = (table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()
    const rows = { customers: count('customers'), licenses: count('licenses'), activations: count('activations') }
    const pageCount = db.pragma('page_count', { simple: true })
    const pageSize = db.pragma('page_size', { simple: true })
    return {
      plugin,
      seedMs: performance.now() - seedStart,
      migrateMs,
      rows,
      fileMiB: Math.round((pageCount * pageSize) / 1048576)
    }
  } finally {
    db.close()
  }
}
