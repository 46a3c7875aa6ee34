import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createSecretBox, runtimeKeyId } from '../../src/core/crypto/secret-box'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import {
  credentialPath,
  expectError,
  issueCredential,
  managementClient,
  ownedProduct,
  verifyBody,
  verifyConnection
} from '../support/credentials'
import type { Material } from '../support/credentials'
import { startEmulator, useEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'

// hasRecoverableSecret tells whether the runtime key this emulator runs with opens the sealed
// copy: a database file opened under another runtime key (a copied database, a replaced key file).
describe('a database file opened under another runtime key', () => {
  const dir = makeTempDir('runtime-key')
  const databasePath = join(dir.path, 'emulator.db')
  const adminToken = randomBytes(16).toString('hex')
  const keyA = randomBytes(32)
  const keyB = randomBytes(32)
  let emulator: TestEmulator | null = null
  let developer: { id: string; token: string }
  let productId: string
  let material: Material
  let credentialId: string

  const reopen = async (runtimeKey: Buffer | null) => {
    await emulator?.close()
    emulator = await startEmulator({ databasePath, adminToken, runtimeKey })
    return emulator
  }

  beforeAll(async () => {
    const first = await reopen(keyA)
    const owned = await ownedProduct(first)
    developer = owned.developer
    productId = owned.product.id
    const issued = await issueCredential(owned.api, productId)
    expect(issued.credential).toMatchObject({ hasRecoverableSecret: true, unrecoverableReason: null })
    material = issued.material
    credentialId = issued.credential.id
  })
  afterAll(async () => {
    await emulator?.close()
    dir.remove()
  })

  it('stores a key id beside the sealed secret, never the key', () => {
    const db = new BetterSqlite3(databasePath, { readonly: true, ...nativeBindingOption() })
    try {
      const row = db
        .prepare('SELECT sealed_key_id, sealed_material FROM product_credentials WHERE id = ?')
        .get(credentialId) as {
        sealed_key_id: string
        sealed_material: string
      }
      expect(row.sealed_key_id).toBe(runtimeKeyId(keyA))
      expect(row.sealed_key_id).not.toContain(keyA.toString('hex').slice(0, 8))
      expect(row.sealed_key_id).not.toContain(keyA.toString('base64').slice(0, 8))
      expect(row.sealed_material).not.toContain(material.pluginSecret)
    } finally {
      db.close()
    }
  })

  it('says hasRecoverableSecret false under key B, with the reason, and reveal-secret names it', async () => {
    const second = await reopen(keyB)
    const api = managementClient(second, developer.token)
    const current = await api.get(productId)
    expect(current.status).toBe(200)
    expect(current.body.credential).toMatchObject({
      id: credentialId,
      status: 'active',
      hasRecoverableSecret: false,
      unrecoverableReason: 'other-runtime-key'
    })
    const listed = await api.list(productId)
    expect(listed.body.credentials[0]).toMatchObject({
      id: credentialId,
      hasRecoverableSecret: false,
      unrecoverableReason: 'other-runtime-key'
    })

    const revealed = await api.act(productId, 'reveal-secret')
    expectError(revealed, 409, 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect(revealed.body.message).toContain('sealed under another runtime key')
    expect(revealed.body.recovery.rotateSecret).toBe(credentialPath(productId, 'rotate-secret'))
    expect(revealed.text).not.toContain(material.pluginSecret)
    // The credential itself still works: only its sealed copy is out of reach.
    expect((await verifyConnection(second, verifyBody(productId, material))).status).toBe(200)
  })

  it('rotating under key B gives values key B can reveal', async () => {
    const second = emulator as TestEmulator
    const api = managementClient(second, developer.token)
    const rotated = await api.act(productId, 'rotate-secret')
    expect(rotated.status).toBe(201)
    expect(rotated.body.credential).toMatchObject({ hasRecoverableSecret: true, unrecoverableReason: null })
    const revealed = await api.act(productId, 'reveal-secret')
    expect(revealed.status).toBe(200)
    expect(revealed.body.one_time_reveal.pluginSecret).toBe(rotated.body.one_time_reveal.pluginSecret)
  })

  it('back under key A, the credential sealed under key B is the one out of reach', async () => {
    const first = await reopen(keyA)
    const api = managementClient(first, developer.token)
    const listed = await api.list(productId)
    const byId = new Map((listed.body.credentials as Array<Record<string, unknown>>).map((c) => [c.id, c]))
    expect(byId.get(credentialId)).toMatchObject({ status: 'revoked', hasRecoverableSecret: true })
    const current = await api.get(productId)
    expect(current.body.credential).toMatchObject({
      status: 'active',
      hasRecoverableSecret: false,
      unrecoverableReason: 'other-runtime-key'
    })
    expectError(await api.act(productId, 'reveal-secret'), 409, 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
  })

  it('without a runtime key, says so', async () => {
    const keyless = await reopen(null)
    const current = await managementClient(keyless, developer.token).get(productId)
    expect(current.body.credential).toMatchObject({
      hasRecoverableSecret: false,
      unrecoverableReason: 'no-runtime-key'
    })
  })
})

describe('a secret sealed before key ids were kept (schema version 4)', () => {
  const dir = makeTempDir('runtime-key-v4')
  const databasePath = join(dir.path, 'emulator.db')
  const adminToken = randomBytes(16).toString('hex')
  const key = randomBytes(32)
  let emulator: TestEmulator | null = null
  afterAll(async () => {
    await emulator?.close()
    dir.remove()
  })

  it('is labelled with the current key when that key opens it, and stays out of reach otherwise', async () => {
    emulator = await startEmulator({ databasePath, adminToken, runtimeKey: key })
    const owned = await ownedProduct(emulator)
    const other = await ownedProduct(emulator)
    await issueCredential(owned.api, owned.product.id)
    await issueCredential(other.api, other.product.id)
    await emulator.close()
    emulator = null

    // As a version-4 build left it: no key ids. One value was sealed under a key since lost.
    const db = new BetterSqlite3(databasePath, nativeBindingOption())
    db.prepare('UPDATE product_credentials SET sealed_key_id = NULL').run()
    sealUnderAnotherKey(other.product.id, db)
    db.close()

    emulator = await startEmulator({ databasePath, adminToken, runtimeKey: key })
    const ownedApi = managementClient(emulator, owned.developer.token)
    const otherApi = managementClient(emulator, other.developer.token)
    expect((await ownedApi.get(owned.product.id)).body.credential).toMatchObject({
      hasRecoverableSecret: true,
      unrecoverableReason: null
    })
    expect((await ownedApi.act(owned.product.id, 'reveal-secret')).status).toBe(200)
    expect((await otherApi.get(other.product.id)).body.credential).toMatchObject({
      hasRecoverableSecret: false,
      unrecoverableReason: 'other-runtime-key'
    })
  })
})

/** Replaces a product's sealed copy with one sealed under a random key, as another machine's emulator would have. */
function sealUnderAnotherKey(productId: string, db: BetterSqlite3.Database): void {
  const sealed = createSecretBox(randomBytes(32)).seal(JSON.stringify({ pluginKey: 'pk_x', pluginSecret: 'sk_x' }))
  db.prepare("UPDATE product_credentials SET sealed_material = ? WHERE product_id = ? AND status = 'active'").run(
    sealed,
    productId
  )
}

describe('sealedKeyId in a scenario document', () => {
  const emulator = useEmulator()

  it('is refused when it is not a key id, naming the path, and nothing changes', async () => {
    expect((await emulator.control('POST', '/presets/full-library')).status).toBe(200)
    const exported = (await emulator.control('GET', '/state')).body.state as {
      credentials: Array<Record<string, unknown>>
    }
    expect(exported.credentials[0]?.sealedKeyId).toMatch(/^rk_[0-9a-f]{16}$/)
    const refused = await emulator.control('PUT', '/state', {
      ...exported,
      credentials: [{ ...exported.credentials[0], sealedKeyId: 'my-runtime-key' }]
    })
    expectError(refused, 400, 'VALIDATION_ERROR')
    expect(refused.body.message).toContain('/credentials/0/sealedKeyId')
    expect((await emulator.control('GET', '/state')).body.state).toEqual(exported)
  })
})
