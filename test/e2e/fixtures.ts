import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base } from '@playwright/test'

import { spawnServe } from './serve-process'

/** A real `serve` process over a temp database, as QA runs it. */
export interface ServedEmulator {
  baseUrl: string
  adminToken: string
  /** The URL a person opens: the UI with the admin token in the fragment. */
  adminUrl: string
  dataDir: string
  /** Calls the control plane from the test (not from the page). */
  control<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown
  ): Promise<{ status: number; body: T }>
}

/** A `serve` of its own (the fixture's, or a second one a spec needs beside it). */
export async function startServe(): Promise<{ emulator: ServedEmulator; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ple-e2e-'))
  const adminToken = randomBytes(16).toString('hex')
  const { child, ...ready } = await spawnServe({ dataDir, adminToken, port: '0' })
  const control: ServedEmulator['control'] = async (method, path, body) => {
    const response = await fetch(`${ready.baseUrl}/_emulator${path}`, {
      method,
      headers: {
        'x-emulator-token': adminToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const text = await response.text()
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as never }
  }
  return {
    emulator: { ...ready, adminToken, dataDir, control },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** `emulator`: one `serve` per test file (worker), reset before each test. */
export const test = base.extend<{ emulator: ServedEmulator }, { servedEmulator: ServedEmulator }>({
  servedEmulator: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { emulator, stop } = await startServe()
      await use(emulator)
      await stop()
    },
    { scope: 'worker' }
  ],
  emulator: async ({ servedEmulator }, use) => {
    await servedEmulator.control('POST', '/reset')
    // Forwarding, replay and the drift report are the machine's, not the state's: a reset keeps
    // them, and one file's upstream (closed by now) must not answer the next file's calls.
    await servedEmulator.control('PUT', '/upstream', { url: null })
    await servedEmulator.control('PUT', '/replay', { recording: null })
    await servedEmulator.control('DELETE', '/drift')
    await use(servedEmulator)
  }
})

export { expect } from '@playwright/test'
