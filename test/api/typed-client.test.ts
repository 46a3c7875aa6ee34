import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

import { projectRoot } from '../support/cli-process'
import { useEmulator } from '../support/emulator'

// A typed client as a plugin developer's toolchain makes one: openapi-typescript generates types
// from the served /openapi.json, tsc --strict checks test/typed-client/plugin-developer-flow.ts
// (openapi-fetch) against them, and the flow runs against the real server.
const work = join(projectRoot, '.tmp', 'typed-client')
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name)

function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd: work, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

describe('a client generated from /openapi.json (openapi-typescript + openapi-fetch)', () => {
  const emu = useEmulator()
  beforeAll(async () => {
    rmSync(work, { recursive: true, force: true })
    mkdirSync(work, { recursive: true })
    writeFileSync(join(work, 'openapi.json'), JSON.stringify((await emu.request('GET', '/openapi.json')).body))
    copyFileSync(
      join(projectRoot, 'test', 'typed-client', 'plugin-developer-flow.ts'),
      join(work, 'plugin-developer-flow.ts')
    )
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'bundler',
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          types: []
        },
        files: ['plugin-developer-flow.ts', 'openapi.d.ts']
      })
    )
  })

  it('generates types, type-checks the flow under --strict, and runs it: verify, activate, validate, deactivate', async () => {
    const generated = run(bin('openapi-typescript'), ['openapi.json', '--output', 'openapi.d.ts'])
    expect(generated.status, generated.output).toBe(0)
    const typecheck = run(bin('tsc'), ['-p', 'tsconfig.json'])
    expect(typecheck.status, typecheck.output).toBe(0)

    // The flow is type-checked above against the generated types; here it is only run.
    const flow = (await import(pathToFileURL(join(work, 'plugin-developer-flow.ts')).href)) as {
      runPluginDeveloperFlow(baseUrl: string, adminToken: string): Promise<Record<string, unknown>>
    }
    const result = await flow.runPluginDeveloperFlow(emu.baseUrl, emu.adminToken)
    expect(result).toEqual({
      verified: true,
      activated: true,
      valid: true,
      code: 'VALID',
      deactivated: true,
      revealedAppId: expect.stringMatching(/^app_/)
    })
  })

  it('really type-checks: a call with a field the document does not declare fails tsc', () => {
    const broken = join(work, 'broken.ts')
    writeFileSync(
      broken,
      `import createClient from 'openapi-fetch'\nimport type { paths } from './openapi'\n` +
        `const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4747' })\n` +
        `void client.POST('/api/license/v1/activate', { body: { licence_key: 'x', instance_id: 'y' } })\n`
    )
    const typecheck = run(bin('tsc'), [
      '--strict',
      '--noEmit',
      '--skipLibCheck',
      '--module',
      'ESNext',
      '--moduleResolution',
      'bundler',
      '--target',
      'ES2022',
      '--lib',
      'ES2023,DOM',
      broken
    ])
    expect(typecheck.status).not.toBe(0)
    expect(typecheck.output).toContain('license_key')
  })
})
