import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openStore } from '../../src/core/store/store'
import { killAllCli, spawnCli, startServeCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

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
    expect(readdirSync(dir.path).sort()).toEqual(before)
    expect(readdirSync(join(dir.path, 'exports'))).toEqual([])
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
