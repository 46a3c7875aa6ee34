// Microbenchmark of the customer library's service time, in process (no HTTP, no load generator):
// what `GET /api/library` spends in the core (LibraryService.library) plus writing the route's body
// (jsonChunks: JSON.stringify's text, in chunks of about 64 KiB for a large library), for the bench customers with 10 and 1,000 items (bench/lib/fixtures.mjs), and how
// that time splits: the view assembled from the customer's rows, and the serialisation; plus the
// SQLite reads of those rows (LibraryRepository.holdings, rows mapped to records), which a repeated
// read skips while no data table is written (core/library/holdings-cache.ts), and the body's bytes
// per item.
//
//   npm run bench:library                                       # mean/median of 50 runs after warm-up
//   npm run bench:library -- --iterations 200
//   npm run bench:library -- --save /tmp/library-before          # also write the bodies
//
// The clock is fixed and the database (with its signing keys) is kept at DB_PATH between runs, so
// the download token, and therefore every body, is the same from one run to the next: `--save`
// writes <prefix>-10.json, <prefix>-1000.json and <prefix>-webview-{10,1000}.json to compare with
// `cmp`. Delete DB_PATH to start from a fresh import.
import { existsSync, writeFileSync } from 'node:fs'

import { createClock } from '../src/core/clock/clock'
import { createEmulatorCore } from '../src/core/emulator-core'
import { createLibraryRepository } from '../src/core/library/library-repository'
import { openStore } from '../src/core/store/store'
import { jsonChunks } from '../src/server/http/json-chunks'
import { libraryLinks } from '../src/server/http/library-links'
// @ts-expect-error -- bench/lib is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedFixtures from './lib/fixtures.mjs'

/** What this script reads of bench/lib/fixtures.mjs (its Fixtures typedef). */
const { buildFixtures } = untypedFixtures as {
  buildFixtures: () => { document: unknown; libraryCustomerIds: Record<number, string> }
}

const DB_PATH = '/tmp/library-service-time.db'
const FIXED_NOW_MS = Date.parse('2025-06-01T12:00:00.000Z')
const BASE_URL = 'http://127.0.0.1:4747'

const argValue = (name: string): string | undefined => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const iterations = Number(argValue('--iterations') ?? 50)
const savePrefix = argValue('--save')
/** --json: one JSON line of the figures instead of the text (what `npm run bench` reads). */
const asJson = process.argv.includes('--json')
const say = (line: string) => {
  if (!asJson) console.log(line)
}
const figures: Record<
  string,
  { medianMs: number; bytes: number; bytesPerItem: number; sqliteMs: number; viewMs: number; serialiseMs: number }
> = {}

const fresh = !existsSync(DB_PATH)
const store = openStore({ path: DB_PATH })
const core = await createEmulatorCore({
  store,
  clock: createClock(() => FIXED_NOW_MS),
  runtimeKey: Buffer.alloc(32, 1),
  apiBaseUrl: () => BASE_URL
})
const fixtures = buildFixtures()
if (fresh) core.state.import(fixtures.document)

/** What the route does: the service call, then `{ ok, ...payload }` written as sendJsonInChunks writes it. */
async function libraryBody(customerId: string): Promise<string | Buffer[]> {
  const customer = core.customers.require(customerId)
  const payload = await core.library.library(customer, {
    links: libraryLinks(BASE_URL),
    storefront: undefined,
    instanceId: undefined
  })
  return jsonChunks({ ok: true, ...payload })
}
async function webviewBody(customerId: string): Promise<string | Buffer[]> {
  const customer = core.customers.require(customerId)
  const payload = await core.library.webview(customer, { links: libraryLinks(BASE_URL), productId: null })
  return jsonChunks({ ok: true, ...payload })
}

const byteLength = (body: string | Buffer[]) =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((sum, chunk) => sum + chunk.length, 0)
const whole = (body: string | Buffer[]) => (typeof body === 'string' ? body : Buffer.concat(body))

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** Median milliseconds of `run` over `iterations` runs after a warm-up. */
async function medianMs(run: () => unknown): Promise<number> {
  for (let i = 0; i < Math.max(20, iterations / 2); i++) await run()
  const samples: number[] = []
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint()
    await run()
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return median(samples)
}

async function time(label: string, run: () => Promise<string | Buffer[]>) {
  for (let i = 0; i < Math.max(20, iterations / 2); i++) await run()
  const samples: number[] = []
  let bytes = 0
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint()
    bytes = byteLength(await run())
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length
  say(
    `${label.padEnd(16)} mean ${mean.toFixed(2).padStart(6)} ms  median ${median(samples).toFixed(2).padStart(6)} ms  (${iterations} runs, ${bytes} bytes)`
  )
  return { bytes, medianMs: median(samples) }
}

// The same reads the view makes, on their own: what a library read costs more after a write.
const queries = createLibraryRepository(store)

for (const size of [10, 1000]) {
  const customerId = fixtures.libraryCustomerIds[size] as string
  if (savePrefix) {
    writeFileSync(`${savePrefix}-${size}.json`, whole(await libraryBody(customerId)))
    writeFileSync(`${savePrefix}-webview-${size}.json`, whole(await webviewBody(customerId)))
  }
  const { bytes, medianMs: totalMs } = await time(`library ${size}`, () => libraryBody(customerId))
  const customer = core.customers.require(customerId)
  const context = { links: libraryLinks(BASE_URL), storefront: undefined, instanceId: undefined }
  const payload = await core.library.library(customer, context)
  const sqliteMs = await medianMs(() => queries.holdings(customerId))
  const coreMs = await medianMs(() => core.library.library(customer, context))
  const serialiseMs = await medianMs(() => jsonChunks({ ok: true, ...payload }))
  figures[`library-${size}`] = {
    medianMs: totalMs,
    bytes,
    bytesPerItem: Math.round(bytes / size),
    sqliteMs,
    // Nothing is written between the runs: the core's time is the view over the kept rows.
    viewMs: coreMs,
    serialiseMs
  }
  say(
    `  split (medians): view ${coreMs.toFixed(2)} ms, serialisation ${serialiseMs.toFixed(2)} ms; ` +
      `after a write, SQLite reads ${sqliteMs.toFixed(2)} ms more; ${Math.round(bytes / size).toLocaleString('en-US')} bytes per item`
  )
}
if (!asJson) await time('webview 1000', () => webviewBody(fixtures.libraryCustomerIds[1000] as string))
if (asJson) console.log(JSON.stringify(figures))
store.close()
