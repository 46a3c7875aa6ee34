import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { cliEntry, killAllCli, projectRoot, spawnCommand } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

// What a start loads (bench/README.md, cold start): Fastify's default validator compiler (Ajv) is
// never loaded, fast-json-stringify's compiler only when a route that needs it first answers,
// @fastify/swagger's document builder (yaml, json-schema-resolver) only when the OpenAPI document
// is first asked for, and Node's bundled undici (which an ESM import of node:http loads on Node 22
// and 24) not at all.
// The real command line, with a preload that writes on exit the CommonJS modules it loaded and
// Node's own (process.moduleLoadList).
const dir = makeTempDir('cli-start-modules')
const preload = join(dir.path, 'record-loaded-modules.cjs')
writeFileSync(
  preload,
  `process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_MODULES_FILE, [...Object.keys(require.cache), ...process.moduleLoadList].join('\\n')))\n`
)

const AJV = /[\\/]node_modules[\\/](ajv|@fastify[\\/]ajv-compiler)[\\/]/
const SERIALIZER_COMPILER = /[\\/]node_modules[\\/]@fastify[\\/]fast-json-stringify-compiler[\\/]/
const DOCUMENT_BUILDER = /[\\/]node_modules[\\/](yaml|json-schema-resolver|@fastify[\\/]swagger[\\/]lib)[\\/]/

async function serveUntilStopped(name: string, calls: (baseUrl: string) => Promise<void>): Promise<string[]> {
  const loadedFile = join(dir.path, `${name}.txt`)
  const cli = spawnCommand(
    process.execPath,
    ['--require', preload, cliEntry, 'serve', '--port', '0', '--db', join(dir.path, `${name}.db`)],
    { cwd: projectRoot, env: { ...process.env, LOADED_MODULES_FILE: loadedFile } }
  )
  const match = /listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await cli.nextLine())
  if (!match) throw new Error(`unexpected first line: ${cli.stdoutLines()[0]}`)
  await calls(match[1]!)
  cli.child.kill('SIGINT')
  expect((await cli.exited).code).toBe(0)
  return readFileSync(loadedFile, 'utf8').split('\n')
}

describe('what serve loads', () => {
  afterEach(async () => {
    await killAllCli()
  })
  afterAll(() => dir.remove())

  it("answers health and a licensing call without loading Ajv, the response serializers compiler or Node's undici", async () => {
    const loaded = await serveUntilStopped('licensing', async (baseUrl) => {
      const health = await fetch(`${baseUrl}/_emulator/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ ok: true, storage: { writable: true } })
      const validate = await fetch(`${baseUrl}/api/license/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ license_key: 'NOPE' })
      })
      expect(validate.status).toBeGreaterThanOrEqual(400)
      expect(await validate.json()).toMatchObject({ ok: false, error: expect.any(String) })
    })
    // The preload saw Fastify itself: the list is real.
    expect(loaded.some((path) => /[\\/]node_modules[\\/]fastify[\\/]fastify\.js$/.test(path))).toBe(true)
    expect(loaded.filter((path) => AJV.test(path) || SERIALIZER_COMPILER.test(path))).toEqual([])
    expect(loaded.filter((path) => DOCUMENT_BUILDER.test(path))).toEqual([])
    // Node's own modules are listed too (the HTTP server's), and its bundled undici is not among them.
    expect(loaded).toContain('NativeModule _http_server')
    expect(loaded.filter((name) => name.includes('undici'))).toEqual([])
  })

  it('loads the serializers compiler when a route that needs it first answers, and answers as before', async () => {
    const loaded = await serveUntilStopped('control', async (baseUrl) => {
      const unauthorised = await fetch(`${baseUrl}/_emulator/developers`)
      expect(unauthorised.status).toBe(401)
      expect(await unauthorised.json()).toMatchObject({
        ok: false,
        error: 'AUTH_REQUIRED',
        message: expect.any(String)
      })
    })
    expect(loaded.some((path) => SERIALIZER_COMPILER.test(path))).toBe(true)
    expect(loaded.filter((path) => /[\\/]node_modules[\\/]@fastify[\\/]ajv-compiler[\\/]/.test(path))).toEqual([])
  })

  it('builds the OpenAPI document when it is first asked for, and serves the same one after', async () => {
    let first: unknown
    const loaded = await serveUntilStopped('openapi', async (baseUrl) => {
      const answer = await fetch(`${baseUrl}/openapi.json`)
      expect(answer.status).toBe(200)
      first = await answer.json()
      expect(first).toMatchObject({
        openapi: '3.1.0',
        paths: { '/api/license/v1/validate': { post: expect.any(Object) } }
      })
      expect(await (await fetch(`${baseUrl}/openapi.json`)).json()).toEqual(first)
    })
    expect(loaded.some((path) => DOCUMENT_BUILDER.test(path))).toBe(true)
    expect(loaded.filter((path) => AJV.test(path))).toEqual([])
  })
})
