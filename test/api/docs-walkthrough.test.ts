import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { killAllCli, projectRoot, spawnCommand } from '../support/cli-process'
import { fencedBlocks, matchesShownAnswer, readDoc, sectionOf } from '../support/markdown-docs'
import { makeTempDir } from '../support/temp-dir'

// The README's "A first verified connection", run as written (docs/testing.md, "The docs are
// tested"): the sh blocks come from the Markdown, not from a copy. The changes, and only these:
// - the first block (`npm run --silent serve -- …`) runs as `node bin/plugin-license-emulator.js
//   serve …`, which is what `npm run serve` runs after its build (the suite built the bundle), with
//   `--port <a free port>` added, so the test never takes 4747 from a developer's running emulator;
// - `127.0.0.1:4747` becomes `127.0.0.1:<that port>` in the other blocks and in the answers shown.
// The other blocks run in order in one bash, as a second terminal would; each block's output is
// compared with the block shown under it, `…` standing for a value that differs on each run.

const SECTION = 'A first verified connection'
const NPM_SERVE = 'npm run --silent serve --'
const SHOWN_PORT = '127.0.0.1:4747'

interface Step {
  command: string
  shown: string | null
  line: number
}

/** The section's sh blocks, each with the answer block right under it (none: it prints nothing). */
function walkthroughSteps(): Step[] {
  const readme = readDoc('README.md')
  const section = sectionOf(readme, SECTION)
  const linesBefore = readme.slice(0, readme.indexOf(section)).split('\n').length - 1
  const blocks = fencedBlocks(section)
  const steps: Step[] = []
  blocks.forEach((block, index) => {
    if (block.lang !== 'sh') return
    const next = blocks[index + 1]
    const shown = next && next.lang !== 'sh' ? next.text : null
    steps.push({ command: block.text, shown, line: linesBefore + block.line })
  })
  return steps
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

function runBash(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const work = makeTempDir('docs-walkthrough')
afterAll(async () => {
  await killAllCli()
  work.remove()
})

describe(`README: "${SECTION}"`, () => {
  const steps = walkthroughSteps()

  it('starts serve in its own terminal, then shows an answer under every step that prints one', () => {
    expect(steps.length).toBeGreaterThanOrEqual(4)
    expect(steps[0]!.command.startsWith(NPM_SERVE), 'the first block starts the emulator through npm').toBe(true)
    expect(steps[0]!.shown, "the first block shows serve's two ready lines").not.toBeNull()
    // The substitution below is what npm runs: its serve script builds, then runs the built command line.
    const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.serve).toMatch(/&& node bin\/plugin-license-emulator\.js serve$/)
  })

  it('answers each step as the page shows', async () => {
    const port = await freePort()
    const here = `127.0.0.1:${port}`
    const [serve, ...client] = steps
    const serveCommand = `exec ${serve!.command.replace(NPM_SERVE, 'node bin/plugin-license-emulator.js serve')} --port ${port}`
    const server = spawnCommand('bash', ['--noprofile', '--norc', '-c', serveCommand], { cwd: projectRoot })
    const ready = [await server.nextLine(), await server.nextLine()].join('\n')
    expect(
      matchesShownAnswer(ready, serve!.shown!.replaceAll(SHOWN_PORT, here)),
      `serve printed:\n${ready}\nREADME shows:\n${serve!.shown}`
    ).toBe(true)

    // One bash for every client block, as one terminal: variables carry from block to block.
    const marker = '@@docs-walkthrough-step-end@@'
    const script = client
      .map((step) => `${step.command.replaceAll(SHOWN_PORT, here)}\nprintf '\\n${marker}\\n'`)
      .join('\n')
    const result = await runBash(script, work.path)
    const outputs = result.stdout.split(`\n${marker}\n`)
    expect(outputs, `every block ran to its end; stderr:\n${result.stderr}`).toHaveLength(client.length + 1)
    client.forEach((step, index) => {
      const output = outputs[index]!
      const shown = (step.shown ?? '').replaceAll(SHOWN_PORT, here)
      expect(
        matchesShownAnswer(output, shown),
        `README.md line ${step.line}: the block printed\n${output}\nand the page shows\n${step.shown ?? '(nothing)'}\nstderr:\n${result.stderr}`
      ).toBe(true)
    })
    expect(server.isRunning(), `serve still serves; its stderr:\n${server.stderr()}`).toBe(true)
  }, 120_000)
})
