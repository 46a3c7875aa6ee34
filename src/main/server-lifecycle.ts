import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'

import { buildServer } from '../server/build-server'
import { listenOnPreferredPort } from './port'

/** The database file in the user-data directory; the runtime key sits beside it. */
export const DATABASE_FILE = 'emulator.db'
/** Loopback only: the emulator holds credentials and its control plane must not be on the LAN. */
export const SERVER_HOST = '127.0.0.1'

export interface EmbeddedServerOptions {
  dataDir: string
  runtimeKey: Buffer
  /** better_sqlite3.node built for Electron's ABI; undefined where node_modules' build fits. */
  nativeBinding: string | undefined
  /** The built UI (out/renderer), served at / so window and API share one origin. */
  rendererDir: string
  preferredPort: number
  /** Extra origins that may drive the control plane: the renderer dev server in `electron-vite dev`. */
  trustedOrigins?: readonly string[]
  /** Where the server logs (warnings and errors only); silent when absent. */
  logStream?: Writable
}

export interface EmbeddedServer {
  readonly app: FastifyInstance
  /** http://127.0.0.1:<port>, the port actually bound. */
  readonly baseUrl: string
  readonly origin: string
  readonly adminToken: string
  readonly databasePath: string
  /** Empties the emulator (the control plane's POST /_emulator/reset, without HTTP). */
  reset(): void
  /** Stops listening and closes the database; safe to call more than once. */
  stop(): Promise<void>
}

/**
 * Starts the same server `serve` starts, in this process, on loopback, with its data in the
 * user-data directory. A new admin token each start: only this process and its window know it.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  mkdirSync(options.dataDir, { recursive: true })
  const databasePath = join(options.dataDir, DATABASE_FILE)
  const adminToken = randomBytes(24).toString('base64url')
  const app = await buildServer({
    databasePath,
    nativeBinding: options.nativeBinding,
    runtimeKey: options.runtimeKey,
    adminToken,
    rendererDir: options.rendererDir,
    trustedOrigins: options.trustedOrigins,
    log: options.logStream ? { level: 'warn', stream: options.logStream } : false
  })
  let baseUrl: string
  try {
    baseUrl = await listenOnPreferredPort(app, { host: SERVER_HOST, preferredPort: options.preferredPort })
  } catch (error) {
    await app.close()
    throw error
  }
  let stopping: Promise<void> | null = null
  return {
    app,
    baseUrl,
    origin: new URL(baseUrl).origin,
    adminToken,
    databasePath,
    reset: () => app.core.state.reset(),
    stop() {
      // Closing Fastify runs its onClose hooks, which close the SQLite store (a WAL checkpoint).
      stopping ??= app.close()
      return stopping
    }
  }
}

/** What closeServerOnQuit needs from Electron's app. */
export interface QuittingApp {
  on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown
  quit(): void
  /** Starts the app again once this instance has exited (Electron waits for the exit). */
  relaunch(): void
}

/** The quit in progress, for a launch that arrives while the server closes. */
export interface QuitState {
  /** True from the moment the server began to close: nothing may open a window on it. */
  quitting(): boolean
  /** A launch that came while quitting: start a new instance once this one has exited. */
  relaunchAfterQuit(): void
}

/**
 * Holds the quit until the server has stopped and the database is closed, then quits for real.
 * 'will-quit' comes after every window closed, so nothing uses the server any more. Closing can
 * take seconds (a running recording's last exchanges wait while another program holds the
 * database's write lock), and
 * this instance still holds the single-instance lock meanwhile: a launch then would reach it and
 * open a window on a server that is going away, so it is turned into a relaunch after the exit.
 */
export function closeServerOnQuit(
  app: QuittingApp,
  server: Pick<EmbeddedServer, 'stop'>,
  onError: (error: unknown) => void
): QuitState {
  let quitting = false
  let closed = false
  let relaunch = false
  app.on('will-quit', (event) => {
    if (closed) return
    event.preventDefault()
    if (quitting) return
    quitting = true
    server
      .stop()
      .catch(onError)
      .finally(() => {
        closed = true
        if (relaunch) app.relaunch()
        app.quit()
      })
  })
  return {
    quitting: () => quitting,
    relaunchAfterQuit() {
      relaunch = true
    }
  }
}
