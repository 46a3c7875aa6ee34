import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'

import { buildServer } from '../../src/server/build-server'
import type { ServerOptions } from '../../src/server/server-options'
import { responseContract } from './response-contract'
import type { ResponseContract } from './response-contract'
import { makeTempDir } from './temp-dir'

export interface HttpResult<T = Record<string, any>> {
  status: number
  headers: Headers
  // Tests read arbitrary response fields; `any` keeps assertions short.
  body: T
  text: string
}

export interface RequestOptions {
  body?: unknown
  rawBody?: string | Buffer
  token?: string
  headers?: Record<string, string>
}

/** A real emulator on 127.0.0.1 over a real SQLite file in a temp dir, with its log captured. */
export interface TestEmulator {
  app: FastifyInstance
  baseUrl: string
  adminToken: string
  databasePath: string
  logOutput(): string
  // The constraint (not only the default) keeps `Awaited<ReturnType<TestEmulator['request']>>` readable.
  request<T extends Record<string, any> = Record<string, any>>(
    method: string,
    path: string,
    options?: RequestOptions
  ): Promise<HttpResult<T>>
  control<T extends Record<string, any> = Record<string, any>>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>
  ): Promise<HttpResult<T>>
  createDeveloper(input?: { email?: string; role?: 'developer' | 'admin' }): Promise<{ id: string; token: string }>
  createProduct(developerId: string, name?: string): Promise<{ id: string; appId: string }>
  close(): Promise<void>
}

let counter = 0

export async function startEmulator(overrides: Partial<ServerOptions> = {}): Promise<TestEmulator> {
  const dir = makeTempDir('api')
  const databasePath = overrides.databasePath ?? join(dir.path, 'emulator.db')
  const adminToken = overrides.adminToken ?? randomBytes(16).toString('hex')
  const logChunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logChunks.push(String(chunk))
      done()
    }
  })
  const app = await buildServer({
    runtimeKey: randomBytes(32),
    ...overrides,
    databasePath,
    adminToken,
    log: { level: 'debug', stream }
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address !== 'object') throw new Error('server did not listen')
  const baseUrl = `http://127.0.0.1:${address.port}`

  let contract: ResponseContract | undefined
  const request: TestEmulator['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | Buffer | undefined
    if (options.rawBody !== undefined) body = options.rawBody
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    const response = await fetch(baseUrl + path, { method, headers, body })
    const text = await response.text()
    let parsed: any = undefined
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    // Every answer is held to the published OpenAPI document (route, method, status, body schema).
    contract ??= responseContract((await app.openApiDocument()) as Record<string, any>)
    const violation = contract.check(method, path, response.status, response.headers.get('content-type'), parsed)
    if (violation) throw new Error(`Response outside the OpenAPI document: ${violation}\n${text.slice(0, 500)}`)
    return { status: response.status, headers: response.headers, body: parsed, text }
  }

  const control: TestEmulator['control'] = (method, path, body, headers = {}) =>
    request(method, `/_emulator${path}`, { body, headers: { 'x-emulator-token': adminToken, ...headers } })

  return {
    app,
    baseUrl,
    adminToken,
    databasePath,
    logOutput: () => logChunks.join(''),
    request,
    control,
    async createDeveloper(input = {}) {
      counter += 1
      const created = await control('POST', '/developers', {
        email: input.email ?? `dev${counter}-${randomBytes(3).toString('hex')}@example.test`,
        role: input.role ?? 'developer'
      })
      if (created.status !== 201) throw new Error(`developer not created: ${created.text}`)
      const session = await control('POST', `/developers/${created.body.developer.id}/session`, {})
      if (session.status !== 200) throw new Error(`session not minted: ${session.text}`)
      return { id: created.body.developer.id as string, token: session.body.token as string }
    },
    async createProduct(developerId, name = 'Test Synth') {
      const created = await control('POST', '/products', { developerId, name })
      if (created.status !== 201) throw new Error(`product not created: ${created.text}`)
      return { id: created.body.product.id as string, appId: created.body.product.appId as string }
    },
    async close() {
      await app.close()
      dir.remove()
    }
  }
}

/**
 * The emulator of one describe block (or of a file, called at its top level): registers the
 * beforeAll that starts it and the afterAll that closes it, and returns a handle that reaches
 * the running emulator on each read (as fastify/demo's `build(t)` ties the app to its test).
 * Options given as a function are read when the emulator starts, after the hooks before it.
 */
export function useEmulator(options: Partial<ServerOptions> | (() => Partial<ServerOptions>) = {}): TestEmulator {
  let running: TestEmulator | undefined
  beforeAll(async () => {
    running = await startEmulator(typeof options === 'function' ? options() : options)
  })
  afterAll(async () => {
    await running?.close()
    running = undefined
  })
  const current = (): TestEmulator => {
    if (!running)
      throw new Error(
        'useEmulator: the emulator is used outside its describe block (before beforeAll or after afterAll)'
      )
    return running
  }
  return {
    get app() {
      return current().app
    },
    get baseUrl() {
      return current().baseUrl
    },
    get adminToken() {
      return current().adminToken
    },
    get databasePath() {
      return current().databasePath
    },
    logOutput: () => current().logOutput(),
    request: (method, path, requestOptions) => current().request(method, path, requestOptions),
    control: (method, path, body, headers) => current().control(method, path, body, headers),
    createDeveloper: (input) => current().createDeveloper(input),
    createProduct: (developerId, name) => current().createProduct(developerId, name),
    async close() {
      const closing = current()
      running = undefined
      await closing.close()
    }
  }
}

/** An emulator of its own for one test: started, handed to `use`, and closed whatever happens. */
export async function withEmulator<T>(use: (emulator: TestEmulator) => Promise<T>): Promise<T>
export async function withEmulator<T>(
  options: Partial<ServerOptions>,
  use: (emulator: TestEmulator) => Promise<T>
): Promise<T>
export async function withEmulator<T>(
  ...args: [(emulator: TestEmulator) => Promise<T>] | [Partial<ServerOptions>, (emulator: TestEmulator) => Promise<T>]
): Promise<T> {
  const [options, use] = args.length === 1 ? [{}, args[0]] : args
  const emulator = await startEmulator(options)
  try {
    return await use(emulator)
  } finally {
    await emulator.close()
  }
}
