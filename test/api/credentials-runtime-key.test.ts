import { createCipheriv, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { startEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'
import { ownedProduct } from '../support/credentials'

// hasRecoverableSecret tells the truth: it follows the runtime key that sealed the secret (recorded
// as a fingerprint, never the key), so a database opened under another key (copied to another
// machine, a replaced key file) says the secret cannot be revealed, and why.
describe('a database opened under another runtime key', () => {
  it('reports secrets sealed under another key as not recoverable, says why, and recovers with the original key', async () => {
    const dir = makeTempDir('runtime-key')
    const databasePath = `${dir.path}/emulator.db`
    const keyA = randomBytes(32)
    const keyB = randomBytes(32)

    const first = await startEmulator({ databasePath, runtimeKey: keyA })
    const owned = await ownedProduct(first)
    const created = await owned.api.create(owned.product.id)
    expect(created.status).toBe(201)
    expect(created.body.credential).toMatchObject({ hasRecoverableSecret: true, secretSealedUnderAnotherKey: false })
    await first.close()

    const elsewhere = await startEmulator({ databasePath, runtimeKey: keyB })
    const seen = await elsewhere.request('GET', `/api/developer/plugin-keys/products/${owned.product.id}`, { token: owned.developer.token })
    expect(seen.status).toBe(200)
    expect(seen.body.credential).toMatchObject({ hasRecoverableSecret: false, secretSealedUnderAnotherKey: true })
    const listed = await elsewhere.request('GET', '/api/developer/plugin-keys/products', { token: owned.developer.token })
    expect(listed.body.credentials[0]).toMatchObject({ hasRecoverableSecret: false, secretSealedUnderAnotherKey: true })
    const reveal = await elsewhere.request('POST', `/api/developer/plugin-keys/products/${owned.product.id}/reveal-secret`, { token: owned.developer.token, body: {} })
    expect(reveal.status).toBe(409)
    expect(reveal.body.error).toBe('PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect(reveal.body.message).toMatch(/another runtime key/)
    // Nothing about the key itself is stored: the database holds a 16-hex fingerprint, not the key.
    await elsewhere.close()
    const db = new Database(databasePath, { readonly: true })
    const row = db.prepare('SELECT sealed_material, sealed_key_id FROM product_credentials').get() as { sealed_material: string; sealed_key_id: string }
    db.close()
    expect(row.sealed_key_id).toMatch(/^[0-9a-f]{16}$/)
    expect(row.sealed_material).not.toContain(keyA.toString('hex'))
    expect(row.sealed_material).not.toContain(keyA.toString('base64'))

    const back = await startEmulator({ databasePath, runtimeKey: keyA })
    const again = await back.request('POST', `/api/developer/plugin-keys/products/${owned.product.id}/reveal-secret`, { token: owned.developer.token, body: {} })
    expect(again.status).toBe(200)
    expect(again.body.credential).toMatchObject({ hasRecoverableSecret: true, secretSealedUnderAnotherKey: false })
    await back.close()
  })

  it('re-seals a legacy value (which names no key) under the key that opens it, and leaves one it cannot open unrecoverable', async () => {
    const dir = makeTempDir('runtime-key-legacy')
    const databasePath = `${dir.path}/emulator.db`
    const key = randomBytes(32)
    const first = await startEmulator({ databasePath, runtimeKey: key })
    const mine = await ownedProduct(first)
    const theirs = await ownedProduct(first)
    expect((await mine.api.create(mine.product.id)).status).toBe(201)
    expect((await theirs.api.create(theirs.product.id)).status).toBe(201)
    await first.close()

    // Rewrite both as the v1 format older databases hold: one under this key, one under another.
    const legacySeal = (plaintext: string, sealKey: Buffer) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv, { authTagLength: 16 })
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
    }
    const db = new Database(databasePath)
    const material = JSON.stringify({ pluginKey: 'pk_legacy', pluginSecret: 'sk_legacy' })
    db.prepare('UPDATE product_credentials SET sealed_material = ? WHERE product_id = ?').run(legacySeal(material, key), mine.product.id)
    db.prepare('UPDATE product_credentials SET sealed_material = ? WHERE product_id = ?').run(legacySeal(material, randomBytes(32)), theirs.product.id)
    expect((db.prepare('SELECT COUNT(*) AS n FROM product_credentials WHERE sealed_key_id IS NULL').get() as { n: number }).n).toBe(2)
    db.close()

    const again = await startEmulator({ databasePath, runtimeKey: key })
    const upgraded = await again.request('GET', `/api/developer/plugin-keys/products/${mine.product.id}`, { token: mine.developer.token })
    expect(upgraded.body.credential).toMatchObject({ hasRecoverableSecret: true, secretSealedUnderAnotherKey: false })
    const revealed = await again.request('POST', `/api/developer/plugin-keys/products/${mine.product.id}/reveal-secret`, { token: mine.developer.token, body: {} })
    expect(revealed.status).toBe(200)
    expect(revealed.body.one_time_reveal.pluginSecret).toBe('sk_legacy')
    const foreign = await again.request('GET', `/api/developer/plugin-keys/products/${theirs.product.id}`, { token: theirs.developer.token })
    expect(foreign.body.credential).toMatchObject({ hasRecoverableSecret: false, secretSealedUnderAnotherKey: true })
    await again.close()
  })
})
