import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, inject, it } from 'vitest'

import { PRESET_CREDENTIAL } from '../../src/core/scenarios/presets'
import { killAllCli, spawnCommand } from '../support/cli-process'
import type { ServeReadyJson } from '../support/cli-process'

// The published package, as a plugin developer gets it: packed, installed without
// devDependencies into an empty project (test/package/global-setup.ts), run with npx.

/**
 * Budgets docs/package.md states: what installing the package costs a CI job. Measured (0.1.0,
 * Node 20, Linux x64) with the server's dependencies installed and TypeBox bundled: tarball
 * 0.51 MB, installed 49.6 MB, of which better-sqlite3 compiled from source is 28.2 MB.
 */
const TARBALL_BUDGET_BYTES = 1_000_000
const INSTALLED_BUDGET_BYTES = 60_000_000

const packed = inject('packedPackage')

/** Apparent size of every file under `path` (symlinks counted as links, not followed). */
function treeBytes(path: string): number {
  const stat = lstatSync(path)
  if (!stat.isDirectory()) return stat.size
  return readdirSync(path).reduce((sum, name) => sum + treeBytes(join(path, name)), 0)
}

afterEach(async () => killAllCli())

describe('the npm package', () => {
  it('holds the built CLI, server, UI and resources, and no sources, tests or bench', () => {
    const files = packed.files
    for (const needed of [
      'bin/plugin-license-emulator.js',
      'out/main/cli.js',
      'out/renderer/index.html',
      'resources/recording.schema.json',
      'resources/scenario.schema.json',
      'resources/scenarios/ci.json',
      'package.json',
      'README.md'
    ]) {
      expect(files).toContain(needed)
    }
    expect(files.some((f) => /^out\/main\/chunks\/build-server-.*\.js$/.test(f))).toBe(true)
    expect(files.filter((f) => /^(src|test|bench|scripts|docs|\.ci)\//.test(f))).toEqual([])
    expect(files.filter((f) => f.endsWith('.ts') || f.endsWith('.map'))).toEqual([])
  })

  it(`stays within its size budgets: tarball ${TARBALL_BUDGET_BYTES / 1e6} MB, installed ${INSTALLED_BUDGET_BYTES / 1e6} MB`, () => {
    const installed = treeBytes(join(packed.projectDir, 'node_modules'))
    process.stdout.write(
      `package sizes: tarball ${(packed.tarballBytes / 1e6).toFixed(2)} MB, installed ${(installed / 1e6).toFixed(1)} MB\n`
    )
    expect(packed.tarballBytes).toBeLessThanOrEqual(TARBALL_BUDGET_BYTES)
    expect(installed).toBeLessThanOrEqual(INSTALLED_BUDGET_BYTES)
  })

  it('installs without devDependencies: no Electron, Vite or React', () => {
    const modules = join(packed.projectDir, 'node_modules')
    expect(existsSync(join(modules, 'plugin-license-emulator', 'out', 'main', 'cli.js'))).toBe(true)
    expect(existsSync(join(modules, 'better-sqlite3'))).toBe(true)
    for (const dev of ['electron', 'electron-vite', 'vite', 'react', 'vitest', 'typescript'])
      expect(existsSync(join(modules, dev)), dev).toBe(false)
  })

  it('installs what the server runs as dependencies npm can audit, and bundles none but TypeBox', () => {
    const modules = join(packed.projectDir, 'node_modules')
    const installed = JSON.parse(readFileSync(join(modules, 'plugin-license-emulator', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    for (const runtime of ['fastify', '@fastify/swagger', 'typebox', 'jose', 'better-sqlite3', 'undici']) {
      expect(installed.dependencies, runtime).toHaveProperty([runtime])
      expect(existsSync(join(modules, runtime)), runtime).toBe(true)
    }
    // The bundle imports them by name instead of carrying a copy; TypeBox alone is bundled (its ~700
    // modules cost 130 ms of every start: electron.vite.config.ts), and stays a dependency npm audits.
    const server = readdirSync(join(modules, 'plugin-license-emulator', 'out', 'main', 'chunks'))
      .map((name) => readFileSync(join(modules, 'plugin-license-emulator', 'out', 'main', 'chunks', name), 'utf8'))
      .join('\n')
    expect(server).toMatch(/from ["']fastify["']/)
    expect(server).not.toContain('FST_ERR_DEC_ALREADY_PRESENT') // one of Fastify's own error codes
    expect(server).not.toMatch(/from ["']typebox/)
  })

  it('`npx plugin-license-emulator serve --port 0 --db :memory:` serves health, the UI, the OpenAPI document, a full license round trip and forwarding', async () => {
    const cli = spawnCommand(
      'npx',
      ['--no-install', 'plugin-license-emulator', 'serve', '--port', '0', '--db', ':memory:', '--ready-json'],
      {
        cwd: packed.projectDir
      }
    )
    const ready = JSON.parse(await cli.nextLine()) as ServeReadyJson
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(ready.databasePath).toBe(':memory:')
    const admin = { 'x-emulator-token': ready.adminToken }

    const health = await fetch(`${ready.baseUrl}/_emulator/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ ok: true, version: ready.version })

    const index = await fetch(`${ready.baseUrl}/`)
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toContain('text/html')
    const html = await index.text()
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)
    expect(script, html).not.toBeNull()
    const bundle = await fetch(new URL(script![1]!, `${ready.baseUrl}/`))
    expect(bundle.status).toBe(200)
    expect((await bundle.text()).length).toBeGreaterThan(1000)

    const openapi = await fetch(`${ready.baseUrl}/openapi.json`)
    expect(openapi.status).toBe(200)
    const document = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> }
    expect(document.openapi).toMatch(/^3\./)
    expect(Object.keys(document.paths)).toContain('/api/license/v1/validate')

    // A library with a credential and licenses, then what a plugin does with one of them.
    expect(
      (await fetch(`${ready.baseUrl}/_emulator/presets/full-library`, { method: 'POST', headers: admin })).status
    ).toBe(200)
    const plugin = {
      'content-type': 'application/json',
      'x-svc-app-id': PRESET_CREDENTIAL.appId,
      'x-svc-plugin-key': PRESET_CREDENTIAL.pluginKey,
      'x-svc-plugin-secret': PRESET_CREDENTIAL.pluginSecret
    }
    const license = { license_key: 'DEMO1-PERPE-TUAL0-00000-00001', instance_id: 'packed-ci-machine' }
    const call = async (path: string) => {
      const response = await fetch(`${ready.baseUrl}/api/license/v1/${path}`, {
        method: 'POST',
        headers: plugin,
        body: JSON.stringify(license)
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    expect((await call('activate')).status).toBe(201)
    const valid = await call('validate')
    expect(valid.status).toBe(200)
    expect(valid.body).toMatchObject({ valid: true, code: 'VALID' })
    expect(typeof valid.body.license_token).toBe('string')
    expect((await call('deactivate')).status).toBe(200)
    expect((await call('validate')).body).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' })

    // Forwarding loads undici only once an upstream is set: it must resolve from the installed package.
    const upstream = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"from":"upstream"}')
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = upstream.address() as AddressInfo
      const set = await fetch(`${ready.baseUrl}/_emulator/upstream`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}` })
      })
      expect(set.status).toBe(200)
      const forwarded = await fetch(`${ready.baseUrl}/api/library`)
      expect(forwarded.headers.get('x-emulator-source')).toBe('upstream')
      expect(await forwarded.json()).toEqual({ ok: true, from: 'upstream' })
    } finally {
      upstream.close()
    }

    // The pid is the emulator's own process (not npx's): a script stops it with it.
    process.kill(ready.pid, 'SIGTERM')
    expect((await cli.exited).code).toBe(0)
  })
})
