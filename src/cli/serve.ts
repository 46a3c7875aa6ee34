import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildServer } from '../server/build-server'
import { loadOrCreateRuntimeKeyFile, runtimeKeyPathFor } from '../core/crypto/runtime-key-file'
import type { ServeOptions } from './serve-options'

export interface RunningServer {
  app: FastifyInstance
  baseUrl: string
  adminUrl: string
  stop(): Promise<void>
}

/** Starts the headless emulator: the same server and database code as the desktop app. */
export async function startServe(options: ServeOptions): Promise<RunningServer> {
  const inMemory = options.databasePath === ':memory:'
  if (!inMemory) mkdirSync(dirname(options.databasePath), { recursive: true })
  const runtimeKey = !options.runtimeKey
    ? null
    : inMemory
      ? randomBytes(32) // nothing outlives the process, so neither does its key
      : loadOrCreateRuntimeKeyFile(runtimeKeyPathFor(options.databasePath))
  const adminToken = options.adminToken ?? randomBytes(24).toString('base64url')
  const app = await buildServer({
    databasePath: options.databasePath,
    runtimeKey,
    adminToken,
    headerPrefix: options.headerPrefix,
    strict: options.strict,
    rendererDir: options.rendererDir ?? undefined,
    requestLogCapacity: options.requestLogSize,
    log: { level: options.logLevel, stream: process.stderr }
  })
  try {
    if (options.scenarioPath) app.core.state.import(readScenario(options.scenarioPath))
    await app.listen({ host: options.host, port: options.port })
  } catch (error) {
    await app.close()
    throw error
  }
  const address = app.server.address()
  const port = address && typeof address === 'object' ? address.port : options.port
  const host = options.host.includes(':') ? `[${options.host}]` : options.host
  const baseUrl = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`
  return {
    app,
    baseUrl,
    // The token travels in the fragment: browsers never send it to a server or put it in a log.
    adminUrl: `${baseUrl}/#admin-token=${encodeURIComponent(adminToken)}`,
    stop: () => app.close()
  }
}

function readScenario(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new Error(`cannot read the scenario ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new Error(`the scenario ${path} is not valid JSON`)
  }
}
