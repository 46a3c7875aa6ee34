#!/usr/bin/env node
// The limit for validate: the least work any correct licensing server must do for one validate,
// and nothing else. Fastify parses the JSON body; the key and secret from the headers are hashed
// with SHA-256 and compared with the stored hashes; one SQLite read finds the credential by App
// ID and one finds the license by key; one Ed25519 signature (node:crypto) signs the license
// token; the answer is JSON. Nothing is recorded: no request log, no last-used stamp, no audit.
// The bench loads it exactly as it loads the emulator's validate, so every licensing run can be
// read as a share of what is possible at all on this machine.
//
// For the session phase (a plugin's CI session, bench/lib/phase-session.mjs) it answers the rest of
// that session with the same least work: verify (the credential read and both hashes compared),
// activate (the credential, the license, its live activations counted, one row inserted, one
// signature), deactivate (the credential, the license, one row updated) and the library (a bearer
// token present, one read of 10 licenses; no token check: a lower bound).
//
// Usage: node bench/limit-server.mjs --port 0 --db FILE --fixtures FILE
//   --fixtures: JSON { plugin: { appId, pluginKey, pluginSecret, productId }, validateLicenses: [{ key }] }
//   (the bench's own fixtures); the database is filled to LIMIT_LICENSES licenses around them.
import { generateKeyPairSync, hash, sign, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import Fastify from 'fastify'

export const LIMIT_LICENSES = 10_000

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, db: { type: 'string' }, fixtures: { type: 'string' } }
})
if (!values.db || !values.fixtures) {
  process.stderr.write('usage: node bench/limit-server.mjs --port 0 --db FILE --fixtures FILE\n')
  process.exit(2)
}
const fixtures = JSON.parse(readFileSync(values.fixtures, 'utf8'))
// The one-shot hash, as the emulator's (node:crypto `hash`, a third of createHash's time for a short value).
const sha256 = (text) => Buffer.from(hash('sha256', text, 'hex'), 'hex')

// The better-sqlite3 build for this Node when node_modules holds another ABI's (src/core/store/native-binding.ts).
const nativeBinding = process.env.PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING || undefined
const db = new Database(values.db, nativeBinding ? { nativeBinding } : {})
db.pragma('journal_mode = WAL')
db.exec(`
  CREATE TABLE IF NOT EXISTS credentials (app_id TEXT PRIMARY KEY, product_id TEXT NOT NULL, key_hash BLOB NOT NULL, secret_hash BLOB NOT NULL);
  CREATE TABLE IF NOT EXISTS licenses (license_key TEXT PRIMARY KEY, id TEXT NOT NULL, product_id TEXT NOT NULL, status TEXT NOT NULL,
    kind TEXT NOT NULL, expires_at TEXT, max_activations INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS activations (id INTEGER PRIMARY KEY, license_id TEXT NOT NULL, instance_id TEXT NOT NULL,
    deactivated_at TEXT);
  CREATE INDEX IF NOT EXISTS activations_by_license ON activations (license_id, instance_id);
  DELETE FROM credentials; DELETE FROM licenses; DELETE FROM activations;
`)
const { plugin } = fixtures
db.prepare('INSERT INTO credentials VALUES (?, ?, ?, ?)').run(
  plugin.appId,
  plugin.productId,
  sha256(plugin.pluginKey),
  sha256(plugin.pluginSecret)
)
const insertLicense = db.prepare('INSERT INTO licenses VALUES (?, ?, ?, ?, ?, ?, ?)')
db.transaction(() => {
  const keys = fixtures.validateLicenses.map((license) => license.key)
  for (let i = keys.length; i < LIMIT_LICENSES; i++) keys.push(`LIMIT-${String(i).padStart(5, '0')}-BENCH`)
  const activateKeys = new Set(fixtures.activateKeys ?? [])
  keys.push(...activateKeys)
  keys.forEach((key, i) =>
    insertLicense.run(
      key,
      `lic_limit_${i}`,
      plugin.productId,
      'active',
      'perpetual',
      null,
      activateKeys.has(key) ? 1e8 : 2
    )
  )
})()

const credentialByAppId = db.prepare('SELECT product_id, key_hash, secret_hash FROM credentials WHERE app_id = ?')
const licenseByKey = db.prepare(
  'SELECT id, product_id, status, kind, expires_at, max_activations FROM licenses WHERE license_key = ?'
)
const liveActivations = db
  .prepare('SELECT count(*) FROM activations WHERE license_id = ? AND deactivated_at IS NULL')
  .pluck()
const insertActivation = db.prepare('INSERT INTO activations (license_id, instance_id) VALUES (?, ?)')
const deactivateActivation = db.prepare(
  'UPDATE activations SET deactivated_at = ? WHERE license_id = ? AND instance_id = ? AND deactivated_at IS NULL'
)
const libraryLicenses = db.prepare('SELECT id, status, kind, expires_at FROM licenses LIMIT 10')
const { privateKey } = generateKeyPairSync('ed25519')
const b64url = (value) => Buffer.from(value).toString('base64url')
const header = b64url(JSON.stringify({ alg: 'EdDSA', kid: 'limit', typ: 'license+jwt' }))

/** The credential the three headers (or a verify body) present, or null. */
function credentialOf(appId, key, secret) {
  const credential = credentialByAppId.get(appId)
  if (
    !credential ||
    typeof key !== 'string' ||
    typeof secret !== 'string' ||
    !timingSafeEqual(sha256(key), credential.key_hash) ||
    !timingSafeEqual(sha256(secret), credential.secret_hash)
  )
    return null
  return credential
}
const authFailed = { ok: false, error: 'PLUGIN_AUTH_FAILED', message: 'The product credential is not valid.' }
const headerCredential = (request) =>
  credentialOf(
    request.headers['x-svc-app-id'],
    request.headers['x-svc-plugin-key'],
    request.headers['x-svc-plugin-secret']
  )

function licenseToken(request, license) {
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    iss: 'limit',
    aud: request.headers['x-svc-app-id'],
    sub: license.id,
    iat: now,
    exp: now + 86_400,
    instance_id: request.body.instance_id,
    license: {
      kind: license.kind,
      status: license.status,
      expires_at: license.expires_at,
      max_activations: license.max_activations
    }
  }
  const signingInput = `${header}.${b64url(JSON.stringify(claims))}`
  return `${signingInput}.${sign(null, Buffer.from(signingInput), privateKey).toString('base64url')}`
}

const app = Fastify({ logger: false })
app.post('/api/license/v1/validate', async (request, reply) => {
  const credential = headerCredential(request)
  if (!credential) return reply.code(401).send(authFailed)
  const license = licenseByKey.get(request.body?.license_key)
  if (!license || license.product_id !== credential.product_id) return { ok: true, valid: false, code: 'NOT_FOUND' }
  const token = licenseToken(request, license)
  return {
    ok: true,
    valid: true,
    code: 'VALID',
    license: { id: license.id, status: license.status, kind: license.kind, expires_at: license.expires_at },
    license_token: token
  }
})

app.post('/api/plugin-connections/verify', async (request, reply) => {
  const body = request.body ?? {}
  const credential = credentialOf(body.appId, body.pluginKey, body.pluginSecret)
  if (!credential) return reply.code(401).send(authFailed)
  return { ok: true, status: 'connected', productId: credential.product_id }
})

app.post('/api/license/v1/activate', async (request, reply) => {
  const credential = headerCredential(request)
  if (!credential) return reply.code(401).send(authFailed)
  const license = licenseByKey.get(request.body?.license_key)
  if (!license || license.product_id !== credential.product_id)
    return reply.code(404).send({ ok: false, error: 'NOT_FOUND', message: 'No such license.' })
  if (liveActivations.get(license.id) >= license.max_activations)
    return reply.code(409).send({ ok: false, error: 'TOO_MANY_ACTIVATIONS', message: 'No seat left.' })
  insertActivation.run(license.id, request.body.instance_id)
  const token = licenseToken(request, license)
  return reply.code(201).send({ ok: true, activated: true, license: { id: license.id }, license_token: token })
})

app.post('/api/license/v1/deactivate', async (request, reply) => {
  const credential = headerCredential(request)
  if (!credential) return reply.code(401).send(authFailed)
  const license = licenseByKey.get(request.body?.license_key)
  if (!license || license.product_id !== credential.product_id)
    return reply.code(404).send({ ok: false, error: 'NOT_FOUND', message: 'No such license.' })
  const changed = deactivateActivation.run(new Date().toISOString(), license.id, request.body.instance_id).changes
  if (changed === 0) return reply.code(409).send({ ok: false, error: 'NOT_ACTIVATED', message: 'Not active.' })
  return { ok: true, deactivated: true }
})

app.get('/api/library', async (request, reply) => {
  if (!request.headers.authorization?.startsWith('Bearer '))
    return reply.code(401).send({ ok: false, error: 'UNAUTHORIZED', message: 'A library token is needed.' })
  return { ok: true, items: libraryLicenses.all() }
})

await app.listen({ host: '127.0.0.1', port: Number(values.port) })
const address = app.server.address()
process.stdout.write(
  `Limit server listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : values.port}\n`
)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(
      () => {
        db.close()
        process.exit(0)
      },
      () => process.exit(1)
    )
  })
}
