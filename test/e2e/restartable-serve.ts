import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { spawnServe } from './serve-process'

export type ControlCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>

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

  private spawn(port: string): Promise<{ child: ChildProcess; baseUrl: string; adminUrl: string }> {
    return spawnServe({ dataDir: this.dataDir, adminToken: this.adminToken, port })
  }

  async stop(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }

  control<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: T }> {
    return this.call<T>(this.baseUrl, method, path, body)
  }

  private async call<T>(
    baseUrl: string,
    method: string,
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl}/_emulator${path}`, {
      method,
      headers: {
        'x-emulator-token': this.adminToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
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
