import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** The project root and the entry script of the command line (it runs out/main/cli.js, built by build-bundle.ts). */
export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
export const cliEntry = fileURLToPath(new URL('../../bin/plugin-license-emulator.js', import.meta.url))

export interface CliExit {
  code: number | null
  signal: NodeJS.Signals | null
}

/** A running `plugin-license-emulator` process, read line by line. */
export interface CliProcess {
  readonly child: ChildProcess
  /** The next stdout line; rejects if the process ends first. */
  nextLine(): Promise<string>
  /** Every stdout line read so far, and all of stderr so far. */
  stdoutLines(): readonly string[]
  stderr(): string
  /** Resolves when the process has ended and its output is fully read. */
  readonly exited: Promise<CliExit>
  isRunning(): boolean
  /** SIGKILL if still running, then wait for the end. Safe to call twice. */
  kill(): Promise<void>
}

const running = new Set<CliProcess>()

/** Starts `node bin/plugin-license-emulator.js ...args`. Register `killAllCli` in afterEach. */
export function spawnCli(args: readonly string[]): CliProcess {
  return spawnCommand(process.execPath, [cliEntry, ...args], { cwd: projectRoot })
}

/** Starts any command (`npx plugin-license-emulator ...` in an installed project), read like spawnCli. */
export function spawnCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv }
): CliProcess {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const lines: string[] = []
  let consumed = 0
  let ended = false
  const waiters: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = []
  let stderrText = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderrText += chunk
  })

  const reader = createInterface({ input: child.stdout, crlfDelay: Infinity })
  reader.on('line', (line) => {
    lines.push(line)
    const waiter = waiters.shift()
    if (waiter) {
      consumed += 1
      waiter.resolve(line)
    }
  })
  const stdoutClosed = new Promise<void>((resolve) => reader.once('close', resolve))
  const stderrClosed = new Promise<void>((resolve) => child.stderr.once('close', resolve))

  const exited = new Promise<CliExit>((resolve) => {
    child.once('exit', (code, signal) => {
      void Promise.all([stdoutClosed, stderrClosed]).then(() => {
        ended = true
        for (const waiter of waiters.splice(0)) {
          waiter.reject(
            new Error(`the CLI ended (code ${code}, signal ${signal}) before printing a line; stderr:\n${stderrText}`)
          )
        }
        running.delete(cli)
        resolve({ code, signal })
      })
    })
  })

  const cli: CliProcess = {
    child,
    nextLine() {
      if (consumed < lines.length) return Promise.resolve(lines[consumed++]!)
      if (ended) return Promise.reject(new Error(`the CLI has ended; stderr:\n${stderrText}`))
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }))
    },
    stdoutLines: () => lines,
    stderr: () => stderrText,
    exited,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (cli.isRunning()) child.kill('SIGKILL')
      await exited
    }
  }
  running.add(cli)
  return cli
}

/** Kills every CLI process a test started and left running. */
export async function killAllCli(): Promise<void> {
  await Promise.all([...running].map((cli) => cli.kill()))
}

/** The one line `serve --ready-json` prints on stdout when it is ready. */
export interface ServeReadyJson {
  baseUrl: string
  adminUrl: string
  adminToken: string
  databasePath: string
  pid: number
  version: string
}

/** A `serve` process that printed its two ready lines. */
export interface ServingCli {
  cli: CliProcess
  baseUrl: string
  port: number
  adminUrl: string
}

/** Starts `serve` with `args` and waits for its ready lines (never for a fixed time). */
export async function startServeCli(args: readonly string[]): Promise<ServingCli> {
  const cli = spawnCli(['serve', ...args])
  const first = await cli.nextLine()
  const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first)
  if (!match) throw new Error(`unexpected first line: ${first}`)
  const adminLine = await cli.nextLine()
  const adminUrl = adminLine.replace(/^Admin UI: /, '')
  return { cli, baseUrl: match[1]!, port: Number(match[2]), adminUrl }
}
