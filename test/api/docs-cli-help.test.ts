import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { EXIT } from '../../src/cli/exit-codes'
import { cliEntry, killAllCli, projectRoot, spawnCommand } from '../support/cli-process'
import { fencedBlocks, readDoc, sectionOf } from '../support/markdown-docs'

// docs/cli.md shows the command line's usage as the command prints it, and this test holds each
// block to the real output (docs/testing.md, "The docs are tested"): the help text has one source,
// the code, and a flag added there without its line in docs/cli.md fails here.

const DOC = join('docs', 'cli.md')
const MARKER = /^output of: plugin-license-emulator(.*)$/
/** The home the docs' `--db` default is shown for (the one environment change). */
const SHOWN_ENV = { ...process.env, HOME: '/home/you', XDG_DATA_HOME: undefined }

function run(args: readonly string[]) {
  return spawnCommand(process.execPath, [cliEntry, ...args], { cwd: projectRoot, env: SHOWN_ENV })
}

/** The `--db` default is the OS's data folder (docs/cli.md has a table): shown for Linux, compared on any OS. */
const sameOnEveryOs = (usage: string) =>
  usage.replace(/\(default [^()]*emulator\.db\)/, '(default <data dir>/emulator.db)')

const text = (lines: readonly string[]) => sameOnEveryOs(lines.join('\n').trimEnd())

afterEach(async () => killAllCli())

describe('docs/cli.md', () => {
  const doc = readDoc(DOC)
  const shown = fencedBlocks(doc).flatMap((block) => {
    const marker = block.marker === null ? null : MARKER.exec(block.marker)
    return marker ? [{ args: marker[1]!.trim().split(/\s+/).filter(Boolean), text: block.text, line: block.line }] : []
  })

  it('shows the usage of the top level and of every command', () => {
    expect(shown.map((block) => block.args.join(' '))).toEqual([
      '--help',
      'serve --help',
      'export-state --help',
      'scenario-schema --help'
    ])
  })

  it.each(shown.map((block) => [block.args.join(' '), block] as const))(
    'shows what `plugin-license-emulator %s` prints',
    async (_name, block) => {
      const cli = run(block.args)
      expect(await cli.exited).toEqual({ code: 0, signal: null })
      expect(
        text(cli.stdoutLines()),
        `${DOC} line ${block.line} differs from the command's output: update that block to what ` +
          `\`HOME=/home/you node bin/plugin-license-emulator.js ${block.args.join(' ')}\` prints`
      ).toBe(sameOnEveryOs(block.text.trimEnd()))
    }
  )

  it("has a line in serve's usage for every option serve parses", () => {
    const source = readFileSync(join(projectRoot, 'src', 'cli', 'serve-options.ts'), 'utf8')
    const parsed = [...source.matchAll(/^\s+'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => m[1]!)
    expect(parsed).toContain('port')
    const serveBlock = shown.find((block) => block.args[0] === 'serve')!.text
    for (const option of parsed)
      expect(
        serveBlock,
        `serve parses --${option}: give it a line in SERVE_USAGE (src/cli/serve-options.ts), then show serve --help in ${DOC}`
      ).toMatch(new RegExp(`--${option}\\b`))
  })

  it('has a row in its exit-code table for each exit code the command line uses, and no other', () => {
    const table = sectionOf(doc, 'Exit codes')
    const rows = [...table.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]))
    expect(rows).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b))
  })
})

describe('the command line without a command', () => {
  it('prints the top-level usage on stderr and exits 2', async () => {
    const cli = run([])
    expect(await cli.exited).toEqual({ code: 2, signal: null })
    expect(cli.stdoutLines()).toEqual([])
    expect(cli.stderr()).toMatch(/^No command given\.\n\nUsage: plugin-license-emulator <command> \[options\]\n/)
    for (const command of ['serve', 'export-state', 'scenario-schema', 'version', 'help'])
      expect(cli.stderr()).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
  })

  it('help serve prints what serve --help prints', async () => {
    const help = run(['help', 'serve'])
    const serve = run(['serve', '--help'])
    expect(await help.exited).toEqual({ code: 0, signal: null })
    expect(await serve.exited).toEqual({ code: 0, signal: null })
    expect(help.stdoutLines()).toEqual(serve.stdoutLines())
  })

  it('help for a command that does not exist exits 2 with the top-level usage', async () => {
    const cli = run(['help', 'frobnicate'])
    expect(await cli.exited).toEqual({ code: 2, signal: null })
    expect(cli.stderr()).toContain('No help for "frobnicate".')
    expect(cli.stderr()).toContain('Usage: plugin-license-emulator <command> [options]')
  })
})
