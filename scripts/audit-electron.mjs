#!/usr/bin/env node
// `npm run audit:electron`: Doyensec's Electronegativity over src/ (main, preload, renderer), for
// the Electron version in node_modules. Fails (exit 1) on any HIGH or MEDIUM finding, whatever its
// confidence, that is not in REVIEWED below, and on any file it could not parse (an unparsed file
// is an unaudited one). LOW and INFORMATIONAL findings are printed, not failed.
//
// Individual reviewed call sites in main are marked where they are, with Electronegativity's own
// inline comment (`// eng-disable CHECK_ID -- why`), so the reason sits beside the code.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const root = resolve(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const electronegativity = require('@doyensec/electronegativity')

/** Checks not run at all. */
const EXCLUDED = [
  {
    // Global checks are named by class. This one downloads Electron's release list from GitHub
    // at every run: offline (development machines, CI) it cannot work, and online the result
    // changes with each Electron release rather than with this code. Keeping Electron current is
    // dependency maintenance (`npm outdated electron`), not a configuration finding.
    check: 'AvailableSecurityFixesGlobalCheck',
    why: 'needs network access; reports new Electron releases, not this code'
  }
]

/** Findings looked at and accepted: check id, files (relative to src/), and why. */
const REVIEWED = [
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: /^renderer\//,
    why:
      "in the renderer, openExternal is the preload bridge's (window.emulatorDesktop.openExternal), not Electron's shell, " +
      'which a sandboxed renderer cannot reach; main checks the URL (src/main/ipc.ts, http(s) only) and from a frame of its own origin only'
  }
]

const FAILING_SEVERITY = 2 // MEDIUM (HIGH is 3)

const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version
// --input DIR audits another tree (to try the audit itself on a known-bad sample).
const { values: args } = parseArgs({ options: { input: { type: 'string' } } })
const input = resolve(args.input ?? join(root, 'src'))

console.log(`Electronegativity over ${input} for Electron ${electronVersion}`)
for (const { check, why } of EXCLUDED) console.log(`  not run: ${check} (${why})`)

const result = await electronegativity({
  input,
  isRelative: true,
  customScan: [],
  excludeFromScan: EXCLUDED.map(({ check }) => check.toLowerCase()),
  electronVersionOverride: electronVersion,
  parserPlugins: []
})

const unparsed = result.errors.filter((error) => !error.tolerable)
const rows = result.issues.map((issue) => {
  const reviewed = REVIEWED.find(
    (entry) => entry.check === issue.id && entry.file.test(issue.file.replaceAll('\\', '/'))
  )
  const failing = issue.severity.value >= FAILING_SEVERITY && !reviewed
  return { issue, reviewed, failing }
})

console.log(`${result.atomicChecks + result.globalChecks} checks, ${result.issues.length} finding(s)\n`)
for (const { issue, reviewed, failing } of rows) {
  const status = failing ? 'FAIL' : reviewed ? 'reviewed' : 'note'
  const where = `${issue.file}:${issue.location.line}:${issue.location.column}`
  console.log(`${status.padEnd(8)} ${issue.severity.name}/${issue.confidence.name} ${issue.id} ${where}`)
  console.log(`         ${issue.description} (${issue.shortenedURL})`)
  if (reviewed) console.log(`         accepted: ${reviewed.why}`)
}
for (const error of unparsed) console.log(`FAIL     could not parse ${error.file}: ${error.message} (not audited)`)

const failures = rows.filter((row) => row.failing).length + unparsed.length
console.log(
  failures === 0
    ? '\naudit:electron passed: no HIGH or MEDIUM finding left unreviewed'
    : `\naudit:electron failed: ${failures} problem(s) above`
)
process.exitCode = failures === 0 ? 0 : 1
