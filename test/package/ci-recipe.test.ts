import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { parse } from 'yaml'

import { projectRoot } from '../support/cli-process'
import { fencedBlocks, matchesShownAnswer } from '../support/markdown-docs'
import { makeTempDir } from '../support/temp-dir'

// docs/ci.md's workflow, run here: every `run:` step of its YAML as written, in order, as a GitHub
// runner would (bash -e, $RUNNER_TEMP, $GITHUB_ENV carried between steps), in a folder that holds
// the packed package where the workflow expects it ($EMULATOR_TARBALL, relative to the repository).
// The hosted actions (checkout, setup-node, upload-artifact) are the only steps left out, and
// "Run the plugin's tests" gets a stand-in that is what a plugin's test does.

interface Step {
  id?: string
  name?: string
  uses?: string
  run?: string
  if?: string
}

const packed = inject('packedPackage')
const doc = readFileSync(join(projectRoot, 'docs', 'ci.md'), 'utf8')
const blocks = fencedBlocks(doc)
const yamlBlock = blocks.find((block) => block.lang === 'yaml')!.text
/** The answer docs/ci.md shows for the wait step (the one JSON block of "What each part does"). */
const shownHealth = blocks.find((block) => block.lang === 'json')!.text
const workflow = parse(yamlBlock) as { jobs: { test: { env: Record<string, string>; steps: Step[] } } }
const job = workflow.jobs.test
const scenario = JSON.parse(readFileSync(join(projectRoot, 'resources', 'scenarios', 'ci.json'), 'utf8')) as {
  products: Array<{ id: string; appId: string }>
  credentials: Array<{ productId: string; pluginKey: string; pluginSecret: string }>
}

/** The stand-in for the plugin's own tests: activate and validate with the exported variables. */
const pluginTests = `
set -o pipefail
for var in PLE_BASE_URL PLE_APP_ID PLE_PLUGIN_KEY PLE_PLUGIN_SECRET; do test -n "\${!var}" || { echo "$var is empty" >&2; exit 1; }; done
call() {
  curl -fsS -X POST "$PLE_BASE_URL/api/license/v1/$1" -H 'content-type: application/json' \\
    -H "x-svc-app-id: $PLE_APP_ID" -H "x-svc-plugin-key: $PLE_PLUGIN_KEY" -H "x-svc-plugin-secret: $PLE_PLUGIN_SECRET" \\
    -d '{"license_key":"CI001-PERPE-TUAL0-00000-00001","instance_id":"ci-runner"}'
}
call activate > "$RUNNER_TEMP/activate.json"
call validate > "$RUNNER_TEMP/validate.json"
grep -q '"code":"VALID"' "$RUNNER_TEMP/validate.json"
`

const runner = makeTempDir('ci-recipe')
// Removing the runner folder deletes the installed package: about 5,000 files now that the server's
// dependencies are installed rather than bundled, which takes more than the default 10 s on a busy machine.
afterAll(() => {
  const pid = readEnvFile().EMULATOR_PID
  if (pid) {
    try {
      process.kill(Number(pid), 'SIGKILL')
    } catch {
      // stopped by the workflow's last step, as it should be
    }
  }
  runner.remove()
}, 60_000)

const githubEnv = join(runner.path, 'github-env')
writeFileSync(githubEnv, '')

/** $GITHUB_ENV as the runner reads it between steps (NAME=value lines). */
function readEnvFile(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of readFileSync(githubEnv, 'utf8').split('\n')) {
    const at = line.indexOf('=')
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1)
  }
  return env
}

function runStep(step: Step, script: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', ['--noprofile', '--norc', '-e', '-c', script], {
    cwd: runner.path,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      ...job.env,
      RUNNER_TEMP: runner.path,
      GITHUB_ENV: githubEnv,
      ...readEnvFile()
    }
  })
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: `${step.name ?? step.uses ?? step.id}: ${result.stderr}`
  }
}

describe('docs/ci.md: the GitHub Actions workflow', () => {
  it('has the hosted steps a plugin repository needs, and no expression inside a run step', () => {
    const uses = job.steps.flatMap((step) => (step.uses ? [step.uses.split('@')[0]] : []))
    expect(uses).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact'])
    expect(job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))?.if).toBe('failure()')
    expect(job.steps.some((step) => step.id === 'plugin-tests')).toBe(true)
    for (const step of job.steps) if (step.run) expect(step.run, step.name).not.toContain('${{')
  })

  it('documents the credential and license keys that ci.json holds', () => {
    const credential = scenario.credentials[0]!
    const product = scenario.products.find((p) => p.id === credential.productId)!
    for (const value of [product.appId, credential.pluginKey, credential.pluginSecret])
      expect(doc).toContain(`\`${value}\``)
    const keys = (scenario as unknown as { licenses: Array<{ key: string }> }).licenses.map((l) => l.key)
    expect(keys).toHaveLength(7)
    for (const key of keys) expect(doc).toContain(`\`${key}\``)
  })

  it('its run steps install the packed emulator, start it, export the credential, pass a plugin test, export the inspector and stop', () => {
    // The install step compiles better-sqlite3 when the target folder is empty; start from the
    // install global-setup made of the same tarball, so npm finds it up to date.
    cpSync(packed.projectDir, join(runner.path, 'emulator'), { recursive: true })
    // The plugin repository's copy of the tarball, where the workflow's env says it is.
    const tarballInRepository = join(runner.path, job.env.EMULATOR_TARBALL!)
    expect(basename(tarballInRepository)).toBe(basename(packed.tarball))
    mkdirSync(dirname(tarballInRepository), { recursive: true })
    cpSync(packed.tarball, tarballInRepository)

    const runSteps = job.steps.filter((step) => step.run !== undefined)
    expect(runSteps.map((step) => step.name)).toEqual([
      'Install the license emulator',
      'Start the license emulator in the background',
      "Wait for the emulator's health",
      "Export the scenario's credential",
      "Run the plugin's tests",
      "Export the emulator's request inspector",
      'Stop the license emulator'
    ])
    for (const step of runSteps) {
      // The failure() steps run too: the point is that they work when a plugin test fails.
      const result = runStep(step, step.id === 'plugin-tests' ? pluginTests : step.run!)
      expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0)
      if (step.name === "Wait for the emulator's health")
        expect(
          matchesShownAnswer(result.stdout, shownHealth),
          `printed ${result.stdout}, docs/ci.md shows ${shownHealth}`
        ).toBe(true)
    }

    const env = readEnvFile()
    const credential = scenario.credentials[0]!
    expect(env).toMatchObject({
      PLE_APP_ID: scenario.products.find((p) => p.id === credential.productId)!.appId,
      PLE_PLUGIN_KEY: credential.pluginKey,
      PLE_PLUGIN_SECRET: credential.pluginSecret,
      PLE_PRODUCT_ID: credential.productId,
      PLE_BASE_URL: `http://127.0.0.1:${job.env.EMULATOR_PORT}`
    })

    const ready = JSON.parse(readFileSync(join(runner.path, 'emulator-ready.json'), 'utf8')) as {
      baseUrl: string
      pid: number
    }
    expect(ready.baseUrl).toBe(env.PLE_BASE_URL)
    expect(ready.pid).toBe(Number(env.EMULATOR_PID))

    // The artifact: the plugin's requests with their answers, and no secret in plain.
    const exported = readFileSync(join(runner.path, 'emulator-requests.json'), 'utf8')
    const entries = JSON.parse(exported) as Array<{ method: string; path: string; status: number; response: unknown }>
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /api/license/v1/validate 200',
      'POST /api/license/v1/activate 201'
    ])
    expect(exported).not.toContain(credential.pluginSecret)
    expect(exported).not.toContain(credential.pluginKey)
    expect(existsSync(join(runner.path, 'emulator.log'))).toBe(true)

    // The stop step waited for the process to end.
    expect(() => process.kill(ready.pid, 0)).toThrow()
  })
})
