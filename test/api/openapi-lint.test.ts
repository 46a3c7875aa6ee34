import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

import { projectRoot } from '../support/cli-process'
import { useEmulator } from '../support/emulator'

// The served /openapi.json held to the linters plugin developers run on it: Redocly's recommended
// rules and Spectral's spectral:oas, both as installed devDependencies, over the real document.
const lintDir = join(projectRoot, '.tmp', 'openapi-lint')
const rules = join(projectRoot, 'test', 'api', 'openapi-lint')
const bin = (name: string) => join(projectRoot, 'node_modules', '.bin', name)

/** The retired legacy routes answer only 410: no success answer to declare (docs/api.md section 1). */
const LEGACY_WITHOUT_SUCCESS = [
  '#/paths/~1api~1developer~1plugin-keys/post/responses',
  '#/paths/~1api~1developer~1plugin-keys~1reveal-secret/post/responses',
  '#/paths/~1api~1developer~1plugin-keys~1secret/get/responses'
]

function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd: lintDir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off' }
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('GET /openapi.json, held to Redocly and Spectral', () => {
  let documentPath: string
  const emu = useEmulator()
  beforeAll(async () => {
    mkdirSync(lintDir, { recursive: true })
    documentPath = join(lintDir, 'openapi.json')
    writeFileSync(documentPath, JSON.stringify((await emu.request('GET', '/openapi.json')).body, null, 2))
  })

  it('redocly lint (recommended): no error; the only warnings are the legacy routes with no success answer', () => {
    const result = run(bin('redocly'), ['lint', documentPath, '--config', join(rules, 'redocly.yaml'), '--format=json'])
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>
    }
    const errors = report.problems.filter((problem) => problem.severity === 'error')
    expect(errors.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([])
    const warnings = report.problems.filter((problem) => problem.severity !== 'error')
    expect(warnings.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`).sort()).toEqual(
      LEGACY_WITHOUT_SUCCESS.map((pointer) => `operation-2xx-response ${pointer}`).sort()
    )
  })

  it('spectral lint (spectral:oas): no error and no warning (the one exception is documented in its ruleset)', () => {
    const result = run(bin('spectral'), [
      'lint',
      documentPath,
      '--ruleset',
      join(rules, 'spectral.yaml'),
      '--format',
      'json',
      '--quiet'
    ])
    const findings = JSON.parse(result.stdout || '[]') as Array<{
      code: string
      severity: number
      path: string[]
      message: string
    }>
    expect(findings.map((f) => `${f.code} ${f.path.join('.')}: ${f.message}`)).toEqual([])
  })

  it('really lints: a copy with an operation missing its security and operationId is refused by both', () => {
    const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Record<string, any>
    const health = document.paths['/_emulator/health'].get
    delete health.operationId
    delete health.security
    delete document.servers
    const brokenPath = join(lintDir, 'broken.json')
    writeFileSync(brokenPath, JSON.stringify(document))
    const redocly = run(bin('redocly'), ['lint', brokenPath, '--config', join(rules, 'redocly.yaml'), '--format=json'])
    expect(redocly.status).not.toBe(0)
    const spectral = run(bin('spectral'), [
      'lint',
      brokenPath,
      '--ruleset',
      join(rules, 'spectral.yaml'),
      '--format',
      'json',
      '--quiet'
    ])
    expect(JSON.parse(spectral.stdout || '[]').map((f: { code: string }) => f.code)).toContain('operation-operationId')
  })
})
