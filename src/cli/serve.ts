import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { FastifyInstance } from 'fastify'

import { loadOrCreateRuntimeKeyFile, runtimeKeyPathFor } from '../core/crypto/runtime-key-file'
import type { RecordingDocument } from '../core/recordings/recording-format'
import { acquireDatabaseLock, databaseLockPathFor } from '../core/store/database-lock'
import type { DatabaseLock } from '../core/store/database-lock'
import { requestLogPathFor } from '../core/store/request-log-database'
import { buildServer } from '../server/build-server'
import {
  documentIn,
  parseSavedJson,
  RECORDING_ANSWER_MEMBERS,
  SCENARIO_ANSWER_MEMBERS
} from '../shared/contract/saved-documents'
import { ScenarioError } from './exit-codes'
import { UsageError } from './serve-options'
import type { ServeOptions } from './serve-options'

export interface RunningServer {
  app: FastifyInstance
  baseUrl: string
  adminUrl: string
  adminToken: string
  databasePath: string
  /** Stops listening, lets requests in flight finish, writes the inspector's queue, closes the database. */
  stop(): Promise<void>
  /** Drops the connections still open (a second signal, or requests that never end). */
  dropConnections(): void
  /** Ends any wait for another program's write lock (a second signal): what still waits for it is counted as lost. */
  stopWaitingForStorage(): void
}

/** Starts the headless emulator: the same server and database code as the desktop app. */
export async function startServe(options: ServeOptions): Promise<RunningServer> {
  const inMemory = options.databasePath === ':memory:'
  // A start that fails (a bad database, the port in use, a bad scenario) leaves no file it made.
  const leftovers = inMemory ? null : filesAStartMayCreate(options.databasePath)
  let lock: DatabaseLock | null = null
  let app: FastifyInstance | null = null
  try {
    if (!inMemory) {
      leftovers?.noteDirectory(mkdirSync(dirname(options.databasePath), { recursive: true }))
      lock = acquireDatabaseLock(options.databasePath)
    }
    const runtimeKey = !options.runtimeKey
      ? null
      : inMemory
        ? randomBytes(32) // nothing outlives the process, so neither does its key
        : loadOrCreateRuntimeKeyFile(runtimeKeyPathFor(options.databasePath))
    const adminToken = options.adminToken ?? randomBytes(24).toString('base64url')
    app = await buildServer({
      databasePath: options.databasePath,
      runtimeKey,
      adminToken,
      headerPrefix: options.headerPrefix,
      strict: options.strict,
      rendererDir: options.rendererDir ?? undefined,
      requestLogCapacity: options.requestLogSize,
      storageBusyTimeoutMs: options.storageBusyTimeoutMs,
      log: { level: options.logLevel, stream: process.stderr },
      closeConnections: 'idle',
      upstream: options.upstream
        ? {
            url: options.upstream.url,
            routes: options.upstream.routes,
            ca: options.upstream.caPath ? readUpstreamCa(options.upstream.caPath) : undefined,
            connectTimeoutMs: options.upstream.connectTimeoutMs,
            firstByteTimeoutMs: options.upstream.firstByteTimeoutMs
          }
        : undefined
    })
    if (options.scenarioPath) await loadScenario(app, options.scenarioPath)
    if (options.replayPath)
      loadReplay(app, options.replayPath, { strict: options.replayStrict, resign: options.replayResign })
    await app.listen({ host: options.host, port: options.port })
    return running(app, options, adminToken, lock)
  } catch (error) {
    await app?.close().catch(() => undefined)
    lock?.release()
    leftovers?.remove()
    throw error
  }
}

/**
 * The files and folders a start creates (the database with its WAL and shared-memory files, the
 * runtime key, the lock, the request log's file, the folders above them), each noted only when it
 * was not there before. The log's file only with a new database: one a start made beside an
 * existing database holds the rows its migration moved there.
 */
function filesAStartMayCreate(databasePath: string) {
  const logPath = requestLogPathFor(databasePath)
  const candidates = [
    databasePath,
    `${databasePath}-wal`,
    `${databasePath}-shm`,
    runtimeKeyPathFor(databasePath),
    databaseLockPathFor(databasePath),
    ...(existsSync(databasePath) ? [] : [logPath]),
    `${logPath}-wal`,
    `${logPath}-shm`
  ]
  const absent = candidates.filter((path) => !existsSync(path))
  let createdDirectory: string | undefined
  return {
    /** mkdirSync's answer: the first folder it created, if any. */
    noteDirectory(created: string | undefined) {
      createdDirectory = created
    },
    remove() {
      for (const path of absent) rmSync(path, { force: true })
      if (createdDirectory) rmSync(createdDirectory, { recursive: true, force: true })
    }
  }
}

function running(
  app: FastifyInstance,
  options: ServeOptions,
  adminToken: string,
  lock: DatabaseLock | null
): RunningServer {
  const address = app.server.address()
  const port = address && typeof address === 'object' ? address.port : options.port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  const baseUrl = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`
  return {
    app,
    baseUrl,
    // The token travels in the fragment: browsers never send it to a server or put it in a log.
    adminUrl: `${baseUrl}/#admin-token=${encodeURIComponent(adminToken)}`,
    adminToken,
    databasePath: options.databasePath,
    stop: async () => {
      // A keep-alive connection whose request finishes during close() turns idle afterwards;
      // close it then, rather than when its keep-alive timeout runs out.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
      try {
        await app.close()
      } finally {
        clearInterval(sweep)
        lock?.release()
      }
    },
    dropConnections: () => app.server.closeAllConnections(),
    stopWaitingForStorage: () => app.core.storage.stopWaitingForLock()
  }
}

async function loadScenario(app: FastifyInstance, path: string): Promise<void> {
  const document = readScenario(path)
  try {
    // As a request's write does: wait (up to the busy timeout) for another program's write lock.
    await app.core.storage.whenWritable()
    app.core.state.import(document)
  } catch (error) {
    // The database refused the write: not the scenario's fault, so not its exit code (4).
    if (isStorageFault(error)) throw new ScenarioStorageError(path, error)
    throw new ScenarioError(`the scenario ${path} cannot be loaded: ${(error as Error).message}`)
  }
}

/** Whether `error` is the domain's storage fault (STORAGE_BUSY, _FULL, _READ_ONLY), as Store throws it. */
const isStorageFault = (error: unknown) => /^STORAGE_/.test(String((error as { code?: unknown } | null)?.code))

/**
 * The database refused the scenario's write. Its `code` is SQLite's, so the CLI answers as for any
 * database fault at start: exit 5 when another program holds the lock, its message otherwise.
 */
class ScenarioStorageError extends Error {
  readonly code: string
  constructor(path: string, cause: unknown) {
    super(`the scenario ${path} was not loaded: ${(cause as Error).message}`, { cause })
    const code = (cause as { code?: unknown }).code
    this.code = code === 'STORAGE_BUSY' ? 'SQLITE_BUSY' : String(code)
  }
}

function loadReplay(app: FastifyInstance, path: string, settings: { strict: boolean; resign: boolean }): void {
  const document = readScenario(path, 'recording')
  try {
    app.replay.set(document as RecordingDocument, settings)
  } catch (error) {
    throw new ScenarioError(`the recording ${path} cannot be replayed: ${(error as Error).message}`)
  }
}

function readScenario(path: string, what: 'scenario' | 'recording' = 'scenario'): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ScenarioError(
      `cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
    )
  }
  try {
    // A file saved from the control plane's answer (`curl -o`) holds the document in a member.
    return documentIn(parseSavedJson(text), what === 'scenario' ? SCENARIO_ANSWER_MEMBERS : RECORDING_ANSWER_MEMBERS)
  } catch {
    throw new ScenarioError(`the ${what} ${path} is not valid JSON`)
  }
}

/** --upstream-ca: the PEM text, or a bad option (exit 2) naming the file. */
function readUpstreamCa(path: string): string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--upstream-ca: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`)
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--upstream-ca: ${path} holds no PEM certificate.`)
  return text
}
