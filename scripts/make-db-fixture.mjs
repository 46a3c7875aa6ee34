#!/usr/bin/env node
// Writes a fixture database with the build in the current directory (an earlier commit's checkout,
// built): runs its `serve` on OUT/emulator.db, creates data through its API, stops it, and writes
// OUT/manifest.json with what today's build must find. test/fixtures/databases/README.md says
// when and how. Usage: node make-db-fixture.mjs OUT_DIR (from the old checkout's root).
import { execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

const out = resolve(process.argv[2] ?? 'fixture')
mkdirSync(out, { recursive: true })
const db = join(out, 'emulator.db')
const adminToken = randomBytes(16).toString('hex')
const sha256 = (text) => createHash('sha256').update(text).digest('hex')

const child = spawn(
  process.execPath,
  ['bin/plugin-license-emulator.js', 'serve', '--port', '0', '--db', db, '--admin-token', adminToken],
  {
    stdio: ['ignore', 'pipe', 'inherit']
  }
)
const baseUrl = await new Promise((resolveUrl, reject) => {
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)
    if (match) resolveUrl(match[1])
  })
  child.once('exit', () => reject(new Error('serve exited')))
})

async function call(method, path, { body, headers = {}, token } = {}) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(path.startsWith('/_emulator') ? { 'x-emulator-token': adminToken } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers
    },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  const parsed = text ? JSON.parse(text) : {}
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
  return parsed
}
const optional = async (label, work) => {
  try {
    return await work()
  } catch (error) {
    console.error(`(this build has no ${label}: ${error.message.slice(0, 120)})`)
    return null
  }
}

const developer = (
  await call('POST', '/_emulator/developers', { body: { email: 'fixture-dev@example.test', name: 'Fixture Studio' } })
).developer
const devToken = (await call('POST', `/_emulator/developers/${developer.id}/session`, { body: {} })).token
const product = (
  await call('POST', '/_emulator/products', { body: { developerId: developer.id, name: 'Fixture Synth' } })
).product
const created = await call('POST', `/api/developer/plugin-keys/products/${product.id}`, { token: devToken, body: {} })
const reveal = created.one_time_reveal
await call('POST', `/api/developer/plugin-keys/products/${product.id}/reveal-secret`, { token: devToken, body: {} })
await call('POST', '/api/plugin-connections/verify', {
  body: { productId: product.id, appId: reveal.appId, pluginKey: reveal.pluginKey, pluginSecret: reveal.pluginSecret }
})
const plugin = {
  'x-svc-app-id': reveal.appId,
  'x-svc-plugin-key': reveal.pluginKey,
  'x-svc-plugin-secret': reveal.pluginSecret
}
const customer = (
  await call('POST', '/_emulator/customers', {
    body: { email: 'fixture-customer@example.test', name: 'Fixture Customer' }
  })
).customer
const bought = await optional('purchases', () =>
  call('POST', '/_emulator/purchases', { body: { customerId: customer.id, productId: product.id } })
)
const licenseKey = bought?.license?.key ?? null
if (licenseKey)
  await call('POST', '/api/license/v1/activate', {
    headers: plugin,
    body: { license_key: licenseKey, instance_id: 'fixture-studio-mac' }
  })
await optional('subscriptions', () =>
  call('POST', '/_emulator/purchases', {
    body: { customerId: customer.id, productId: product.id, kind: 'subscription' }
  })
)
const reseller = await optional('reseller orders', () =>
  call('POST', '/_emulator/reseller-orders', { body: { productId: product.id } })
)
if (reseller) {
  const session = (await call('POST', `/_emulator/customers/${customer.id}/session`, { body: {} })).token
  await call('POST', '/api/library/claim', { token: session, body: { claim: reseller.claimToken } })
}
// One left unclaimed: an order waiting for its claim, as a build of that version stored it.
const pending = reseller
  ? await call('POST', '/_emulator/reseller-orders', { body: { productId: product.id, reseller: 'Fixture Reseller' } })
  : null

child.kill('SIGTERM')
await new Promise((done) => child.once('exit', done))
writeFileSync(
  join(out, 'manifest.json'),
  JSON.stringify(
    {
      builtBy: execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim(),
      developerId: developer.id,
      productId: product.id,
      appId: reveal.appId,
      // The secret itself stays out of the repository's text: today's reveal is compared by digest.
      pluginSecretSha256: sha256(reveal.pluginSecret),
      pluginKeySha256: sha256(reveal.pluginKey),
      customerId: customer.id,
      licenseKey,
      activatedInstance: licenseKey ? 'fixture-studio-mac' : null,
      claimedOrderItemId: reseller?.item?.id ?? null,
      pendingOrderId: pending?.order?.id ?? null,
      // Its claim token stays out of the repository's text too: compared by digest.
      pendingClaimTokenSha256: pending ? sha256(pending.claimToken) : null
    },
    null,
    2
  ) + '\n'
)
console.log(`fixture written to ${out}`)
