#!/usr/bin/env node
// `npm test`: every suite, one after another, then one totals line ("N passed, N failed") as the
// last line of output, which CI reads. Exit code is non-zero when anything failed or did not run.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const reports = join(root, '.tmp', 'test-reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

const suites = [
  {
    name: 'vitest (unit + api + native + package)',
    command: 'npx',
    args: [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, 'vitest.json')}`
    ],
    totals: () => {
      const report = JSON.parse(readFileSync(join(reports, 'vitest.json'), 'utf8'))
      return {
        passed: report.numPassedTests,
        failed: report.numFailedTests + (report.numRuntimeErrorTests ?? 0),
        skipped: report.numPendingTests + report.numTodoTests
      }
    }
  },
  {
    name: 'playwright (ui in Chromium, electron app)',
    command: 'npx',
    args: ['playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, 'playwright.json') },
    totals: () => {
      const report = JSON.parse(readFileSync(join(reports, 'playwright.json'), 'utf8'))
      // Say plainly why anything was skipped (the Electron tests where the binary is missing).
      for (const { title, reason } of skippedTests(report)) process.stdout.write(`skipped: ${title}: ${reason}\n`)
      const stats = report.stats
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped }
    }
  }
]

/** Skipped Playwright tests with the reason given to test.skip. */
function skippedTests(report) {
  const out = []
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'skipped') continue
        const note = (test.annotations ?? []).find((a) => a.type === 'skip')
        out.push({ title: `[${test.projectName}] ${spec.title}`, reason: note?.description ?? 'no reason given' })
      }
    }
    for (const child of suite.suites ?? []) visit(child)
  }
  for (const suite of report.suites ?? []) visit(suite)
  return out
}

let passed = 0
let failed = 0
let skipped = 0
let broken = false

// The command-line tests (test/api/cli-serve.test.ts) run the built bundle out/main/cli.js: build it
// first, so a fresh checkout and a stale bundle both test the current sources. A failed build is
// one failed test; the suites still run (unit tests need no bundle).
process.stdout.write('\n=== build (electron-vite)\n')
const build = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
  shell: process.platform === 'win32'
})
// The vitest projects' own build step (test/support/build-bundle.ts) is skipped: this one is fresh.
if (build.status === 0) process.env.PLE_BUNDLE_FRESH = '1'
else {
  process.stdout.write(
    `build: electron-vite build failed (${build.error ? build.error.message : `exit ${build.status ?? build.signal}`}); counted as one failure\n`
  )
  failed += 1
  broken = true
}

for (const suite of suites) {
  process.stdout.write(`\n=== ${suite.name}\n`)
  const run = spawnSync(suite.command, suite.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...suite.env }
  })
  let totals = null
  try {
    totals = suite.totals()
  } catch {
    totals = null
  }
  if (!totals) {
    process.stdout.write(`${suite.name}: no report (exit ${run.status}); counted as one failure\n`)
    failed += 1
    broken = true
    continue
  }
  passed += totals.passed
  failed += totals.failed
  skipped += totals.skipped
  if (run.status !== 0 && totals.failed === 0) {
    process.stdout.write(`${suite.name}: exited ${run.status} with no failed test; counted as one failure\n`)
    failed += 1
    broken = true
  }
}

// The last line is the totals alone, exactly `N passed, N failed` (what CI reads); skips go just above.
if (skipped) process.stdout.write(`\n${skipped} skipped (reasons above)`)
process.stdout.write(`\n${passed} passed, ${failed} failed\n`)
process.exitCode = failed > 0 || broken || passed === 0 ? 1 : 0
