import { existsSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { killAllCli, projectRoot, spawnCli } from '../support/cli-process'
import type { CliProcess, ServeReadyJson } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'
import { startUpstreamDouble } from '../support/upstream-double'

// What scripts rely on: `serve --ready-json`, the exit codes, and a clean stop on SIGTERM/SIGINT
// with requests in flight. A real process, a real SQLite file, real HTTP.

const ciScenario = join(projectRoot, 'resources', 'scenarios', 'ci.json')
const ciCredential = {
  'x-svc-app-id': 'app_CiSynth00000000000000001',
  'x-svc-plugin-key': 'pk_CiSynthPluginKey00000000000001',
  'x-svc-plugin-secret': 'sk_CiSynthPluginSecret000000000000001'
}

/** Waits until the process's stderr contains `text` (the process printing it is the event). */
async function stderrShows(cli: CliProcess, text: string): Promise<void> {
  while (!cli.stderr().includes(text)) {
    if (!cli.isRunning()) throw new Error(`ended before printing "${text}"; stderr:\n${cli.stderr()}`)
    await new Promise<void>((resolve) => cli.child.stderr!.once('data', () => resolve()))
  }
}

describe('serve: --ready-json, exit codes, shutdown', () => {
  let dir: ReturnType<typeof makeTempDir>
  let dbPath: string

  beforeEach(() => {
    dir = makeTempDir('cli-life')
    dbPath = join(dir.path, 'emu.db')
  })
  afterEach(async () => {
    await killAllCli()
    dir.remove()
  })
  afterAll(async () => killAllCli())

  it('--ready-json prints exactly one JSON line on stdout with what a script needs', async () => {
    const cli = spawnCli(['serve', '--port', '0', '--db', dbPath, '--admin-token', 'ready-json-token', '--ready-json'])
    const ready = JSON.parse(await cli.nextLine()) as ServeReadyJson
    expect(ready).toEqual({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminUrl: `${ready.baseUrl}/#admin-token=ready-json-token`,
      adminToken: 'ready-json-token',
      databasePath: dbPath,
      pid: cli.child.pid,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/)
    })
    // The lines for people went to stderr.
    expect(cli.stderr()).toContain(`listening on ${ready.baseUrl}`)
    const health = await fetch(`${ready.baseUrl}/_emulator/health`)
    expect(health.status).toBe(200)

    process.kill(ready.pid, 'SIGTERM')
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    expect(cli.stdoutLines()).toHaveLength(1)
  })

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s lets a request in flight finish, writes it to the inspector, checkpoints the WAL and exits 0',
    async (signal) => {
      const cli = spawnCli([
        'serve',
        '--port',
        '0',
        '--db',
        dbPath,
        '--scenario',
        ciScenario,
        '--ready-json',
        '--log-level',
        'info'
      ])
      const ready = JSON.parse(await cli.nextLine()) as ServeReadyJson
      const body = JSON.stringify({ license_key: 'CI001-PERPE-TUAL0-00000-00001', instance_id: 'ci-machine' })
      const half = Math.floor(body.length / 2)

      // The request is in flight: the server has its headers and half of its body.
      const response = new Promise<{ status: number; text: string; connection: string | undefined }>(
        (resolve, reject) => {
          const req = httpRequest(`${ready.baseUrl}/api/license/v1/activate`, {
            method: 'POST',
            headers: {
              ...ciCredential,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body))
            }
          })
          req.on('error', reject)
          req.on('response', (res: IncomingMessage) => {
            let text = ''
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => (text += chunk))
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }))
          })
          req.write(body.slice(0, half))
          void stderrShows(cli, `${signal}: finishing requests in flight`).then(() => req.end(body.slice(half)), reject)
        }
      )
      await stderrShows(cli, '"url":"/api/license/v1/activate"')
      process.kill(ready.pid, signal)

      const answered = await response
      expect(answered.status).toBe(201)
      expect(JSON.parse(answered.text)).toMatchObject({ ok: true })
      expect(await cli.exited).toEqual({ code: 0, signal: null })

      // The WAL was folded into the database file, and the inspector's queue was written.
      const wal = `${dbPath}-wal`
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
      const db = new BetterSqlite3(dbPath, { readonly: true, ...nativeBindingOption() })
      try {
        expect(db.prepare("SELECT count(*) FROM activations WHERE instance_id = 'ci-machine'").pluck().get()).toBe(1)
      } finally {
        db.close()
      }
      // So was the request log's, in its own file.
      const logPath = requestLogPathFor(dbPath)
      expect(existsSync(`${logPath}-wal`) ? statSync(`${logPath}-wal`).size : 0).toBe(0)
      const log = new BetterSqlite3(logPath, { readonly: true, ...nativeBindingOption() })
      try {
        const rows = log.prepare('SELECT method, path, status FROM request_log').all()
        expect(rows).toContainEqual({ method: 'POST', path: '/api/license/v1/activate', status: 201 })
      } finally {
        log.close()
      }
    }
  )

  it('stops as on a signal when the reader of its output goes away (serve | head -1): the request answered, exit 0', async () => {
    const cli = spawnCli(['serve', '--port', '0', '--db', dbPath, '--ready-json', '--log-level', 'info'])
    const ready = JSON.parse(await cli.nextLine()) as ServeReadyJson
    // The log's reader closes its end: the request's log line is the next write, and fails (EPIPE).
    cli.child.stderr!.destroy()
    const health = await fetch(`${ready.baseUrl}/_emulator/health`)
    expect(health.status).toBe(200)
    expect(await cli.exited).toEqual({ code: 0, signal: null })
    const wal = `${dbPath}-wal`
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
  })

  it("a second signal ends the wait for another program's write lock at exit: the recording's waiting exchange is counted as lost", async () => {
    const platform = await startUpstreamDouble()
    try {
      // Ten minutes of busy timeout: without the second signal the exit would wait all of it.
      const cli = spawnCli([
        'serve',
        '--port',
        '0',
        '--db',
        dbPath,
        '--upstream',
        platform.baseUrl,
        '--storage-busy-timeout-ms',
        '600000',
        '--admin-token',
        'second-signal-token',
        '--ready-json',
        '--log-level',
        'warn'
      ])
      const ready = JSON.parse(await cli.nextLine()) as ServeReadyJson
      const admin = { 'x-emulator-token': 'second-signal-token', 'content-type': 'application/json' }
      const started = await fetch(`${ready.baseUrl}/_emulator/recordings`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'stopped while locked' })
      })
      expect(started.status).toBe(201)
      // A sqlite3 shell's BEGIN IMMEDIATE: the emulator's writes are refused until it lets go.
      const other = new BetterSqlite3(dbPath, nativeBindingOption())
      other.exec('BEGIN IMMEDIATE')
      try {
        const forwarded = await fetch(`${ready.baseUrl}/api/library`)
        expect(forwarded.headers.get('x-emulator-source')).toBe('upstream')
        await stderrShows(cli, 'forwarded exchanges wait in memory')

        process.kill(ready.pid, 'SIGINT')
        await stderrShows(cli, 'waiting for it (up to the storage busy timeout)')
        process.kill(ready.pid, 'SIGINT')
        expect(await cli.exited).toEqual({ code: 0, signal: null })
        expect(cli.stderr()).toContain('SIGINT again: dropping open connections, no longer waiting for the database')
        expect(cli.stderr()).toContain('exchanges lost, counted beside the database')
      } finally {
        other.exec('ROLLBACK')
        other.close()
      }
      expect(existsSync(`${dbPath}.recordings-lost.json`)).toBe(true)
    } finally {
      await platform.close()
    }
  })

  it('exits 5 when another process holds the database locked', async () => {
    const holder = new BetterSqlite3(dbPath, nativeBindingOption())
    try {
      holder.pragma('journal_mode = DELETE')
      holder.exec('CREATE TABLE held (x); BEGIN EXCLUSIVE; INSERT INTO held VALUES (1);')
      const cli = spawnCli(['serve', '--port', '0', '--db', dbPath])
      expect(await cli.exited).toEqual({ code: 5, signal: null })
      expect(cli.stderr()).toContain('The database is locked by another process')
      expect(cli.stdoutLines()).toEqual([])
    } finally {
      holder.close()
    }
  })

  it('exits 5 when the database file is not a database', async () => {
    writeFileSync(dbPath, 'this is a text file, not SQLite '.repeat(40))
    const cli = spawnCli(['serve', '--port', '0', '--db', dbPath])
    expect(await cli.exited).toEqual({ code: 5, signal: null })
    expect(cli.stderr()).toContain('The database cannot be opened')
  })

  it('exits 4 when the scenario is not a scenario document', async () => {
    const scenario = join(dir.path, 'wrong.json')
    writeFileSync(scenario, JSON.stringify({ format: 'something-else', version: 1 }))
    const cli = spawnCli(['serve', '--port', '0', '--db', ':memory:', '--scenario', scenario])
    expect(await cli.exited).toEqual({ code: 4, signal: null })
    expect(cli.stderr()).toContain(scenario)
  })
})
