import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'

import { latestSchemaVersion } from '../../src/core/store/migrations'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import { openStore } from '../../src/core/store/store'
import { killAllCli, projectRoot, spawnCli, startServeCli } from '../support/cli-process'
import { withReadOnlyDatabase } from '../support/database'
import { startEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'

/** Names in a folder but SQLite's WAL companions (`x.db-wal`, `x.db-shm`), which any reader of a WAL database may create. */
const withoutWalFiles = (names: readonly string[]) => names.filter((name) => !/\.db-(wal|shm)$/.test(name))

// The command line never surprises: each command refuses what it does not take with its own usage,
// a failed start leaves no file it made, one database serves one process. A real process, real files.

describe('the command line', () => {
  let dir: ReturnType<typeof makeTempDir>

  beforeEach(() => {
    dir = makeTempDir('cli-cmd')
  })
  afterEach(async () => {
    await killAllCli()
    dir.remove()
  })
  afterAll(async () => killAllCli())

  it('export-state --db on a path that does not exist exits 5 with a clear message and creates nothing', async () => {
    const missing = join(dir.path, 'nested', 'missing.db')
    const cli = spawnCli(['export-state', '--db', missing])
    expect(await cli.exited).toEqual({ code: 5, signal: null })
    expect(cli.stderr()).toContain(`There is no database at ${missing}`)
    expect(cli.stdoutLines()).toEqual([])
    expect(readdirSync(dir.path)).toEqual([])
  })

  it('export-state --out a folder, or under a file, says why in words, exits 1 and leaves no file', async () => {
    const db = join(dir.path, 'emu.db')
    openStore({ path: db }).close()
    mkdirSync(join(dir.path, 'exports'))
    writeFileSync(join(dir.path, 'notes.txt'), 'a file')
    const before = readdirSync(dir.path).sort()
    const cases = [
      { out: join(dir.path, 'exports'), why: 'it is a folder; give a file name' },
      { out: join(dir.path, 'notes.txt', 'state.json'), why: 'a part of the path is a file, not a folder' }
    ]
    for (const { out, why } of cases) {
      const cli = spawnCli(['export-state', '--db', db, '--out', out])
      expect(await cli.exited, out).toEqual({ code: 1, signal: null })
      expect(cli.stderr(), out).toBe(`Cannot write the export to ${out}: ${why}. Nothing was written there.\n`)
    }
    // SQLite's own -wal and -shm beside the database may appear: a reader of a WAL database needs them.
    expect(withoutWalFiles(readdirSync(dir.path)).sort()).toEqual(before)
    expect(readdirSync(join(dir.path, 'exports'))).toEqual([])
  })

  /** Another program inside a write transaction (a database viewer): a second connection holding BEGIN IMMEDIATE. */
  const holdWriteLock = (path: string) => {
    const holder = new BetterSqlite3(path, { ...nativeBindingOption(), timeout: 0 })
    holder.exec('BEGIN IMMEDIATE')
    return () => {
      holder.exec('ROLLBACK')
      holder.close()
    }
  }
  const ciScenario = join(projectRoot, 'resources', 'scenarios', 'ci.json')

  it('export-state reads while another program holds the write lock: at once, everything, the file untouched', async () => {
    const db = join(dir.path, 'emu.db')
    const emu = await startEmulator({ databasePath: db })
    expect((await emu.control('PUT', '/state', JSON.parse(readFileSync(ciScenario, 'utf8')))).status).toBe(200)
    const customers = (await emu.control('GET', '/customers')).body.customers as { id: string }[]
    await emu.close()
    const bytes = readFileSync(db)
    const release = holdWriteLock(db)
    try {
      const started = performance.now()
      const cli = spawnCli(['export-state', '--db', db])
      expect(await cli.exited, cli.stderr()).toEqual({ code: 0, signal: null })
      // Far below the 5 s a write would wait for the lock: the export never waits for it.
      expect(performance.now() - started).toBeLessThan(4000)
      const exported = JSON.parse(cli.stdoutLines().join('\n')) as { customers: { id: string }[] }
      expect(exported.customers.map((customer) => customer.id).sort()).toEqual(customers.map((c) => c.id).sort())
    } finally {
      release()
    }
    // Read-only: no migration, no checkpoint, no lock file of serve's.
    expect(readFileSync(db).equals(bytes)).toBe(true)
    expect(existsSync(`${db}.lock`)).toBe(false)
  })

  it('export-state refuses a file that is no emulator database, or an older one, with exit 5, and leaves it as it was', async () => {
    const empty = join(dir.path, 'empty.db')
    writeFileSync(empty, '')
    const text = join(dir.path, 'notes.db')
    writeFileSync(text, 'this is a text file, not SQLite '.repeat(40))
    const older = join(dir.path, 'older.db')
    openStore({ path: older, migrateTo: latestSchemaVersion - 1 }).close()
    const before = { empty: readFileSync(empty), text: readFileSync(text), older: readFileSync(older) }
    const cases = [
      { db: empty, says: `${empty} is not an emulator database` },
      { db: text, says: `Cannot export ${text}: file is not a database` },
      { db: older, says: `${older} was written by an older emulator (schema version ${latestSchemaVersion - 1}` }
    ]
    for (const { db, says } of cases) {
      const cli = spawnCli(['export-state', '--db', db])
      expect(await cli.exited, db).toEqual({ code: 5, signal: null })
      expect(cli.stderr(), db).toContain(says)
      // A command that reads a file is no emulator that failed to start, and :memory: has nothing to export.
      expect(cli.stderr(), db).not.toContain('could not start')
      expect(cli.stderr(), db).not.toContain(':memory:')
      expect(cli.stdoutLines(), db).toEqual([])
    }
    expect({ empty: readFileSync(empty), text: readFileSync(text), older: readFileSync(older) }).toEqual(before)
    expect(withoutWalFiles(readdirSync(dir.path)).sort()).toEqual(['empty.db', 'notes.db', 'older.db'])
  })

  it('serve --scenario on a database another program holds the write lock of exits 5 (locked), not 4 (bad scenario), after the wait', async () => {
    const db = join(dir.path, 'emu.db')
    await (await startEmulator({ databasePath: db })).close()
    const release = holdWriteLock(db)
    try {
      const started = performance.now()
      const cli = spawnCli([
        'serve',
        '--port',
        '0',
        '--db',
        db,
        '--scenario',
        ciScenario,
        '--storage-busy-timeout-ms',
        '600'
      ])
      expect(await cli.exited, cli.stderr()).toEqual({ code: 5, signal: null })
      expect(cli.stderr()).toContain('locked by another process')
      expect(cli.stderr()).not.toContain('cannot be loaded')
      // The message says it waited 0.6 s: it did.
      expect(cli.stderr()).toContain('waited 0.6 s')
      expect(performance.now() - started).toBeGreaterThanOrEqual(600)
    } finally {
      release()
    }
  })

  it('serve --scenario waits for another program to let go of the write lock, then loads it', async () => {
    const db = join(dir.path, 'emu.db')
    await (await startEmulator({ databasePath: db })).close()
    const release = holdWriteLock(db)
    const serving = startServeCli([
      '--port',
      '0',
      '--db',
      db,
      '--scenario',
      ciScenario,
      '--admin-token',
      'tok-cli-wait-0123'
    ])
    // Let go well inside the 5 s a write waits: the start goes on instead of failing.
    setTimeout(release, 700)
    const { baseUrl } = await serving
    const state = await fetch(`${baseUrl}/_emulator/state`, { headers: { 'x-emulator-token': 'tok-cli-wait-0123' } })
    const scenario = JSON.parse(readFileSync(ciScenario, 'utf8')) as { customers: unknown[] }
    expect(((await state.json()) as { state: { customers: unknown[] } }).state.customers).toHaveLength(
      scenario.customers.length
    )
  })

  it('export-state with a bad option prints export-state usage, not serve usage', async () => {
    const cli = spawnCli(['export-state', '--bogus'])
    expect(await cli.exited).toEqual({ code: 2, signal: null })
    expect(cli.stderr()).toContain("Unknown option '--bogus'")
    expect(cli.stderr()).toContain('Usage: plugin-license-emulator export-state')
    expect(cli.stderr()).not.toContain('Usage: plugin-license-emulator serve')
  })

  it('scenario-schema refuses an unknown option with its own usage; --help prints it', async () => {
    const refused = spawnCli(['scenario-schema', '--out', 'x.json'])
    expect(await refused.exited).toEqual({ code: 2, signal: null })
    expect(refused.stderr()).toContain("Unknown option '--out'")
    expect(refused.stderr()).toContain('Usage: plugin-license-emulator scenario-schema')
    expect(refused.stdoutLines()).toEqual([])

    const help = spawnCli(['scenario-schema', '--help'])
    expect(await help.exited).toEqual({ code: 0, signal: null })
    expect(help.stdoutLines()[0]).toBe('Usage: plugin-license-emulator scenario-schema')
  })

  it('serve --version prints the version and exits 0', async () => {
    const cli = spawnCli(['serve', '--version'])
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    expect(cli.stdoutLines()).toHaveLength(1)
    expect(cli.stdoutLines()[0]).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('a start that fails on a port in use leaves no file behind (database, WAL, runtime key, lock, folder)', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    try {
      const port = (blocker.address() as { port: number }).port
      const cli = spawnCli(['serve', '--port', String(port), '--db', join(dir.path, 'fresh', 'emu.db')])
      expect(await cli.exited).toEqual({ code: 3, signal: null })
      expect(readdirSync(dir.path)).toEqual([])
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
    }
  })

  it('a start that fails on a port in use keeps the request log file its migration moved an old log into', async () => {
    const fixture = new URL('../fixtures/databases/v12-7a9c86c/', import.meta.url).pathname
    const dbPath = join(dir.path, 'old.db')
    copyFileSync(join(fixture, 'emulator.db'), dbPath)
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    try {
      const port = (blocker.address() as { port: number }).port
      const cli = spawnCli(['serve', '--port', String(port), '--db', dbPath, '--no-runtime-key'])
      expect(await cli.exited).toEqual({ code: 3, signal: null })
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
    }
    // The old database is at the new version, its log in the log's file, nothing else left behind.
    expect(readdirSync(dir.path).sort()).toEqual(['old.db', 'old.db.requests'])
    withReadOnlyDatabase(`${dbPath}.requests`, (db) =>
      expect(db.prepare('SELECT COUNT(*) FROM request_log').pluck().get()).toBe(5)
    )
  })

  it('a start that fails on a file that is not a database leaves that file alone and adds nothing', async () => {
    const notADatabase = join(dir.path, 'text.db')
    writeFileSync(notADatabase, 'this is a text file, not SQLite '.repeat(40))
    const cli = spawnCli(['serve', '--port', '0', '--db', notADatabase])
    expect(await cli.exited).toEqual({ code: 5, signal: null })
    expect(readdirSync(dir.path)).toEqual(['text.db'])
  })

  it('a second serve on the same database exits 5 and the first keeps serving', async () => {
    const dbPath = join(dir.path, 'emu.db')
    const first = await startServeCli(['--port', '0', '--db', dbPath])
    const second = spawnCli(['serve', '--port', '0', '--db', dbPath])
    expect(await second.exited).toEqual({ code: 5, signal: null })
    expect(second.stderr()).toContain('The database is locked by another process')
    expect(second.stdoutLines()).toEqual([])
    expect(existsSync(dbPath)).toBe(true)
    expect((await fetch(`${first.baseUrl}/_emulator/health`)).status).toBe(200)

    // Once the first stops, the database is free again.
    first.cli.child.kill('SIGTERM')
    expect(await first.cli.exited).toEqual({ code: 0, signal: null })
    const third = await startServeCli(['--port', '0', '--db', dbPath])
    expect((await fetch(`${third.baseUrl}/_emulator/health`)).status).toBe(200)
  })
})
