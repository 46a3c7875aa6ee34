import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

export type ControlCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>

const cli = fileURLToPath(new URL('../../bin/plugin-license-emulator.js', import.meta.url))

/**
 * A real `serve` process the test can stop and start again on the same port, database file and
 * admin token: what happens when QA restarts the emulator under an open UI.
 */
export class RestartableServe {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'ple-e2e-restart-'))
  readonly adminToken = randomBytes(16).toString('hex')
  baseUrl = ''
  adminUrl = ''
  private child: ChildProcess | null = null

  /** Starts on the port it had before (a free one the first time). */
  async start(): Promise<void> {
    const started = await this.spawn(this.baseUrl ? new URL(this.baseUrl).port : '0')
    this.child = started.child
    this.baseUrl = started.baseUrl
    this.adminUrl = started.adminUrl
  }

  /**
   * While stopped: runs the same database on another, free port for `change` (a control-plane
   * client of that run), then stops it. The UI, pointed at the usual port, sees none of it.
   */
  async changeWhileStopped(change: (control: ControlCall) => Promise<void>): Promise<void> {
    if (this.child) throw new Error('stop() first')
    const other = await this.spawn('0')
    try {
      await change((method, path, body) => this.call(other.baseUrl, method, path, body))
    } finally {
      const exited = new Promise((resolve) => other.child.once('exit', resolve))
      other.child.kill('SIGTERM')
      await exited
    }
  }

  private async spawn(port: string): Promise<{ child: ChildProcess; baseUrl: string; adminUrl: string }> {
    const child = spawn(process.execPath, [cli, 'serve', '--port', port, '--db', join(this.dataDir, 'emulator.db'), '--admin-token', this.adminToken], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    child.stderr?.on('data', (chunk) => (stderr += String(chunk)))
    const lines = createInterface({ input: child.stdout! })
    const ready = await new Promise<{ baseUrl: string; adminUrl: string }>((resolve, reject) => {
      let baseUrl = ''
      lines.on('line', (line) => {
        const listening = /listening on (http:\/\/\S+)$/.exec(line)
        if (listening) baseUrl = listening[1]!
        const admin = /^Admin UI: (\S+)$/.exec(line)
        if (admin && baseUrl) resolve({ baseUrl, adminUrl: admin[1]! })
      })
      child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready: ${stderr}`)))
    })
    return { child, ...ready }
  }

  async stop(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }

  control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    return this.call<T>(this.baseUrl, method, path, body)
  }

  private async call<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl}/_emulator${path}`, {
      method,
      headers: { 'x-emulator-token': this.adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const text = await response.text()
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T }
  }

  async dispose(): Promise<void> {
    await this.stop()
    rmSync(this.dataDir, { recursive: true, force: true })
  }
}
