import { randomBytes } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { killAllCli, spawnCli, startServeCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

// The real command line: `node bin/plugin-license-emulator.js serve ...` running out/main/cli.js,
// over a real SQLite file, talked to over HTTP. docs/api.md section 7.

interface JsonResult {
  status: number
  body: Record<string, any>
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {}
): Promise<JsonResult> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body)
  })
  const text = await response.text()
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} }
}

/** Through the control plane and the management API: a developer, a product and its first credential. */
async function seedCredential(baseUrl: string, adminToken: string) {
  const admin = { 'x-emulator-token': adminToken }
  const email = `cli-${randomBytes(4).toString('hex')}@example.test`
  const developer = await call(baseUrl, 'POST', '/_emulator/developers', { headers: admin, body: { email } })
  expect(developer.status).toBe(201)
  const developerId = developer.body.developer.id as string
  const session = await call(baseUrl, 'POST', `/_emulator/developers/${developerId}/session`, {
    headers: admin,
    body: {}
  })
  expect(session.status).toBe(200)
  const product = await call(baseUrl, 'POST', '/_emulator/products', {
    headers: admin,
    body: { developerId, name: 'CLI Synth' }
  })
  expect(product.status).toBe(201)
  const productId = product.body.product.id as string
  const bearer = { authorization: `Bearer ${session.body.token as string}` }
  const created = await call(baseUrl, 'POST', `/api/developer/plugin-keys/products/${productId}`, {
    headers: bearer,
    body: {}
  })
  expect(created.status).toBe(201)
  return { email, developerId, productId, bearer, credential: created.body.credential as Record<string, any> }
}

describe('plugin-license-emulator serve (built CLI)', () => {
  let dir: ReturnType<typeof makeTempDir>
  let dbPath: string
  let adminToken: string

  beforeEach(() => {
    dir = makeTempDir('cli')
    dbPath = join(dir.path, 'emu.db')
    adminToken = randomBytes(16).toString('hex')
  })

  afterEach(async () => {
    await killAllCli()
    dir.remove()
  })

  afterAll(async () => {
    await killAllCli()
  })

  it('prints the base URL, then the admin URL with the token in the fragment, and answers health', async () => {
    const { cli, baseUrl, port, adminUrl } = await startServeCli([
      '--port',
      '0',
      '--db',
      dbPath,
      '--admin-token',
      adminToken
    ])
    expect(cli.stdoutLines()[0]).toContain(`listening on http://127.0.0.1:${port}`)
    expect(port).toBeGreaterThan(0)

    const admin = new URL(adminUrl)
    expect(admin.origin).toBe(baseUrl)
    expect(admin.search).toBe('')
    expect(admin.hash).toBe(`#admin-token=${adminToken}`)

    const health = await call(baseUrl, 'GET', '/_emulator/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ ok: true })
    expect(typeof health.body.version).toBe('string')

    // The token given on the command line is the one the control plane checks.
    expect((await call(baseUrl, 'GET', '/_emulator/developers')).status).toBe(401)
    expect(
      (await call(baseUrl, 'GET', '/_emulator/developers', { headers: { 'x-emulator-token': 'wrong-token-123' } }))
        .status
    ).toBe(401)
    expect(
      (await call(baseUrl, 'GET', '/_emulator/developers', { headers: { 'x-emulator-token': adminToken } })).status
    ).toBe(200)
  })

  it('keeps the runtime key beside the database (mode 0600) and makes credentials recoverable', async () => {
    const { baseUrl } = await startServeCli(['--port', '0', '--db', dbPath, '--admin-token', adminToken])
    const keyPath = `${dbPath}.runtime-key`
    expect(existsSync(keyPath)).toBe(true)
    if (process.platform !== 'win32') expect((statSync(keyPath).mode & 0o777).toString(8)).toBe('600')

    const seeded = await seedCredential(baseUrl, adminToken)
    expect(seeded.credential.hasRecoverableSecret).toBe(true)
    const revealed = await call(
      baseUrl,
      'POST',
      `/api/developer/plugin-keys/products/${seeded.productId}/reveal-secret`,
      {
        headers: seeded.bearer,
        body: {}
      }
    )
    expect(revealed.status).toBe(200)
  })

  it('--no-runtime-key makes no key file, and new credentials are unrecoverable', async () => {
    const { baseUrl } = await startServeCli([
      '--port',
      '0',
      '--db',
      dbPath,
      '--admin-token',
      adminToken,
      '--no-runtime-key'
    ])
    expect(existsSync(`${dbPath}.runtime-key`)).toBe(false)

    const seeded = await seedCredential(baseUrl, adminToken)
    expect(seeded.credential.hasRecoverableSecret).toBe(false)
    // docs/api.md section 2: the reason is the missing runtime key, not "not kept".
    expect(seeded.credential.unrecoverableReason).toBe('no-runtime-key')
    const revealed = await call(
      baseUrl,
      'POST',
      `/api/developer/plugin-keys/products/${seeded.productId}/reveal-secret`,
      {
        headers: seeded.bearer,
        body: {}
      }
    )
    expect(revealed.status).toBe(409)
    expect(revealed.body.error).toBe('PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect(existsSync(`${dbPath}.runtime-key`)).toBe(false)
  })

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s closes the server and the database cleanly and exits 0',
    async (signal) => {
      const { cli, baseUrl } = await startServeCli(['--port', '0', '--db', dbPath, '--admin-token', adminToken])
      const seeded = await seedCredential(baseUrl, adminToken)

      cli.child.kill(signal)
      const exit = await cli.exited
      expect(exit).toEqual({ code: 0, signal: null })
      expect(cli.stderr()).toContain(
        `${signal}: finishing requests in flight, then closing the server and the database`
      )
      await expect(fetch(`${baseUrl}/_emulator/health`)).rejects.toThrow()

      const db = new BetterSqlite3(dbPath, { readonly: true, ...nativeBindingOption() })
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
        expect(db.prepare('SELECT email FROM developers WHERE id = ?').pluck().get(seeded.developerId)).toBe(
          seeded.email
        )
        expect(db.prepare('SELECT name FROM products WHERE id = ?').pluck().get(seeded.productId)).toBe('CLI Synth')
        expect(
          db
            .prepare("SELECT count(*) FROM product_credentials WHERE product_id = ? AND status = 'active'")
            .pluck()
            .get(seeded.productId)
        ).toBe(1)
      } finally {
        db.close()
      }
    }
  )

  it('keeps its data across a restart on the same database', async () => {
    const first = await startServeCli(['--port', '0', '--db', dbPath, '--admin-token', adminToken])
    const seeded = await seedCredential(first.baseUrl, adminToken)
    first.cli.child.kill('SIGTERM')
    expect((await first.cli.exited).code).toBe(0)

    const second = await startServeCli(['--port', '0', '--db', dbPath, '--admin-token', adminToken])
    const products = await call(second.baseUrl, 'GET', '/_emulator/products', {
      headers: { 'x-emulator-token': adminToken }
    })
    expect(products.status).toBe(200)
    expect((products.body.products as Array<{ id: string }>).map((p) => p.id)).toContain(seeded.productId)
    // The key file from the first run still opens the sealed secret.
    const revealed = await call(
      second.baseUrl,
      'POST',
      `/api/developer/plugin-keys/products/${seeded.productId}/reveal-secret`,
      {
        headers: seeded.bearer,
        body: {}
      }
    )
    expect(revealed.status).toBe(200)
  })

  it('a second serve on a port in use fails with a clear message and exit code 3', async () => {
    const first = await startServeCli(['--port', '0', '--db', dbPath, '--admin-token', adminToken])
    const second = spawnCli([
      'serve',
      '--port',
      String(first.port),
      '--db',
      join(dir.path, 'second.db'),
      '--admin-token',
      adminToken
    ])
    const exit = await second.exited
    expect(exit).toEqual({ code: 3, signal: null })
    expect(second.stderr()).toContain(`Port ${first.port} on 127.0.0.1 is already in use`)
    expect(second.stderr()).toContain('--port 0')
    expect(second.stdoutLines()).toEqual([])

    // The first one is unharmed.
    expect((await call(first.baseUrl, 'GET', '/_emulator/health')).status).toBe(200)
  })

  it('serve --bogus exits 2 with the usage text', async () => {
    const cli = spawnCli(['serve', '--bogus'])
    const exit = await cli.exited
    expect(exit).toEqual({ code: 2, signal: null })
    expect(cli.stderr()).toContain("Unknown option '--bogus'")
    expect(cli.stderr()).toContain('Usage: plugin-license-emulator serve [options]')
    expect(cli.stdoutLines()).toEqual([])
  })

  it('serve with a bad port exits 2 before touching the database', async () => {
    const cli = spawnCli(['serve', '--port', '99999', '--db', dbPath])
    expect(await cli.exited).toEqual({ code: 2, signal: null })
    expect(cli.stderr()).toContain('--port must be 0..65535')
    expect(existsSync(dbPath)).toBe(false)
  })

  it('an unknown command exits 2 with the general usage', async () => {
    const cli = spawnCli(['frobnicate'])
    expect(await cli.exited).toEqual({ code: 2, signal: null })
    expect(cli.stderr()).toContain('Unknown command "frobnicate"')
    expect(cli.stderr()).toContain('Usage: plugin-license-emulator <command> [options]')
  })

  it('version prints the version and exits 0', async () => {
    const cli = spawnCli(['version'])
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    expect(cli.stdoutLines()).toHaveLength(1)
    expect(cli.stdoutLines()[0]).toMatch(/^\d+\.\d+\.\d+/)
  })
})
