import type { Writable } from 'node:stream'

import type { Clock } from '../core/clock/clock'
import type { UpstreamOptions } from './upstream/upstream-plugin'

export interface ServerOptions {
  /** SQLite file path, or ':memory:'. */
  databasePath: string
  /** better_sqlite3.node built for the running ABI (the desktop app's Electron build). */
  nativeBinding?: string | undefined
  /** 32-byte runtime key, or null: new credentials are then unrecoverable. */
  runtimeKey: Buffer | null
  /** Required by every control-plane route but health (`x-emulator-token`). */
  adminToken: string
  /** The `svc` in `x-svc-app-id`; docs/api.md section 5. */
  headerPrefix?: string | undefined
  /** Hide debugging details (such as verification `reason`) like a production service. */
  strict?: boolean | undefined
  /** Base URL given to plugins in `apiBaseUrl`; by default the address the server listens on. */
  publicBaseUrl?: string | undefined
  /** Origins besides the server's own that may drive the control plane (the renderer dev server). */
  trustedOrigins?: readonly string[] | undefined
  /** Largest accepted request body in bytes. */
  bodyLimit?: number | undefined
  /** Log destination and level; false (default) is silent. Secrets never reach it. */
  log?: false | { level?: string; stream?: Writable }
  /** The emulator clock; a fresh system clock by default. */
  clock?: Clock | undefined
  /** Lifetime of signed license tokens in seconds (default 24 h). */
  licenseTokenTtlS?: number | undefined
  /** How many requests the inspector keeps (default 5000). */
  requestLogCapacity?: number | undefined
  /** The built renderer (out/renderer): served at / so the same UI runs in a browser and in Electron. */
  rendererDir?: string | undefined
  /**
   * How long a write waits for another process's write lock before answering 503 STORAGE_BUSY, in
   * ms (default 5000). The wait never blocks other requests.
   */
  storageBusyTimeoutMs?: number | undefined
  /** Version reported by health and the OpenAPI document. */
  version?: string | undefined
  /**
   * What close() does with open connections: 'all' drops them (the desktop app quitting, test
   * teardown; the default), 'idle' lets requests in flight finish first (`serve` on SIGTERM).
   */
  closeConnections?: 'all' | 'idle' | undefined
  /** Forwarding to the real platform at start (docs/upstream.md); off by default. */
  upstream?: UpstreamOptions | undefined
  /** `serve --replay FILE [--replay-strict]`: a recording document in force from the start (docs/upstream.md). */
  replay?: { document: unknown; strict: boolean; resign?: boolean } | undefined
}

export { DEFAULT_HEADER_PREFIX } from '../core/settings/runtime-settings'
export const DEFAULT_BODY_LIMIT = 1024 * 1024
export const DEFAULT_PORT = 4747
