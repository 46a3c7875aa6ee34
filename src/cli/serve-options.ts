import { join } from 'node:path'
import { parseArgs } from 'node:util'

import { DomainError } from '../core/errors/domain-error'
import { createUpstreamSettings } from '../core/upstream/upstream-setting'
import { DEFAULT_HEADER_PREFIX, DEFAULT_PORT } from '../server/server-options'
import { defaultDataDir } from './data-dir'
import { resolveUserPath } from './user-path'

export interface ServeOptions {
  host: string
  port: number
  databasePath: string
  adminToken: string | null
  headerPrefix: string
  runtimeKey: boolean
  strict: boolean
  logLevel: string
  /** How many requests the inspector keeps. */
  requestLogSize: number
  /** How long a write waits for another process's write lock before 503 STORAGE_BUSY (ms). */
  storageBusyTimeoutMs: number
  /** A scenario document to load at start (replacing the state). */
  scenarioPath: string | null
  /** A recording document to replay from the start (docs/upstream.md), and whether unmatched requests get 404. */
  replayPath: string | null
  replayStrict: boolean
  /** With --replay: recorded license tokens re-signed with this emulator's key (docs/upstream.md). */
  replayResign: boolean
  /** Print one JSON line on stdout when ready (for scripts), instead of the two lines for people. */
  readyJson: boolean
  /** Forwarding to the real platform (docs/upstream.md); null: off. */
  upstream: {
    url: string
    routes: string[] | undefined
    /** --upstream-ca: a PEM file trusted besides the system's CAs (read at start). */
    caPath: string | null
    connectTimeoutMs: number | undefined
    firstByteTimeoutMs: number | undefined
  } | null
  /** The built UI to serve at /; set by the entry point, which knows where the bundle lives. */
  rendererDir?: string | undefined
}

/** What --log-level takes: pino's levels, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const

export const SERVE_USAGE = `Usage: plugin-license-emulator serve [options]

  --host HOST             interface to listen on (default 127.0.0.1)
  --port PORT             port (default ${DEFAULT_PORT}; 0 picks a free one)
  --db PATH|:memory:      SQLite database (default ${join(defaultDataDir(), 'emulator.db')})
  --admin-token TOKEN     control-plane token, 8 characters or more (default: a new
                          random one each start)
  --header-prefix PREFIX  the svc in x-svc-app-id (default ${DEFAULT_HEADER_PREFIX})
  --no-runtime-key        no key file: new credentials are unrecoverable
  --strict                hide debugging details, as a production service would
  --scenario FILE         load a scenario document at start (replaces the state)
  --replay FILE           answer matching requests from a recording document
  --replay-strict         with --replay: unmatched requests get 404 NO_RECORDED_MATCH
  --replay-resign         with --replay: re-sign recorded license tokens with this emulator's key
  --log-level LEVEL       ${LOG_LEVELS.join(', ').replace('warn', 'warn (default)')}
  --request-log-size N    requests the inspector keeps (default 5000)
  --storage-busy-timeout-ms N  a write waits this long for another process's
                          write lock, then answers 503 STORAGE_BUSY (default 5000)
  --upstream URL          forward the service API to the real platform at URL
                          (http or https; docs/upstream.md)
  --upstream-routes LIST  comma-separated path patterns forwarded (default
                          /api/**,/.well-known/**)
  --upstream-ca FILE      PEM certificate(s) trusted besides the system's CAs
  --upstream-connect-timeout-ms N     connecting may take this long (default 5000)
  --upstream-first-byte-timeout-ms N  the first byte may take this long (default 30000)
  --ready-json            when ready, print one JSON line on stdout (baseUrl, adminUrl,
                          adminToken, databasePath, pid, version); the two lines for
                          people go to stderr instead
  -h, --help              this text
  -v, --version           print the version

  Exit codes: 0 stopped by SIGTERM/SIGINT, 1 other failure, 2 bad option, 3 port in use,
  4 scenario or recording unreadable or invalid, 5 database locked or not a database.`

/** A bad command line: the message, then the usage of the command that was given. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string = SERVE_USAGE
  ) {
    super(message)
  }
}

/** Parses `serve`'s flags (docs/api.md section 7). Throws UsageError with a message for a person. */
export function parseServeOptions(args: readonly string[]): ServeOptions | 'help' | 'version' {
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: String(DEFAULT_PORT) },
        db: { type: 'string' },
        'admin-token': { type: 'string' },
        'header-prefix': { type: 'string', default: DEFAULT_HEADER_PREFIX },
        'no-runtime-key': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        scenario: { type: 'string' },
        replay: { type: 'string' },
        'replay-strict': { type: 'boolean', default: false },
        'replay-resign': { type: 'boolean', default: false },
        'log-level': { type: 'string', default: 'warn' },
        'request-log-size': { type: 'string', default: '5000' },
        'storage-busy-timeout-ms': { type: 'string', default: '5000' },
        'ready-json': { type: 'boolean', default: false },
        upstream: { type: 'string' },
        'upstream-routes': { type: 'string' },
        'upstream-ca': { type: 'string' },
        'upstream-connect-timeout-ms': { type: 'string' },
        'upstream-first-byte-timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false }
      }
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values } = parsed
  if (values.help) return 'help'
  if (values.version) return 'version'
  // Digits only: Number() would take '' (as 0, a random port), ' 80', '0x50' and '1e3'.
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0..65535, not "${values.port}".`)
  const prefix = values['header-prefix']
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/i.test(prefix))
    throw new UsageError('--header-prefix takes letters, digits and dashes.')
  if (values.db !== undefined && values.db.trim() === '') throw new UsageError('--db takes a file path or :memory:.')
  const adminToken = values['admin-token'] ?? null
  if (adminToken !== null && adminToken.length < 8) throw new UsageError('--admin-token must be at least 8 characters.')
  const requestLogSize = /^\d+$/.test(values['request-log-size']) ? Number(values['request-log-size']) : NaN
  if (!(requestLogSize >= 1 && requestLogSize <= 1_000_000))
    throw new UsageError('--request-log-size must be a whole number from 1 to 1000000.')
  const busyText = values['storage-busy-timeout-ms']
  const storageBusyTimeoutMs = /^\d{1,7}$/.test(busyText) ? Number(busyText) : NaN
  // 0 is allowed: answer STORAGE_BUSY at once (a CI job that would rather fail fast than wait).
  if (!(storageBusyTimeoutMs >= 0 && storageBusyTimeoutMs <= 600_000))
    throw new UsageError('--storage-busy-timeout-ms must be a whole number of milliseconds from 0 to 600000.')
  if (!(LOG_LEVELS as readonly string[]).includes(values['log-level'])) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not "${values['log-level']}".`)
  }
  if (values.replay !== undefined && values.replay.trim() === '') throw new UsageError('--replay takes a file path.')
  if (values['replay-strict'] && values.replay === undefined)
    throw new UsageError('--replay-strict goes with --replay FILE.')
  if (values['replay-resign'] && values.replay === undefined)
    throw new UsageError('--replay-resign goes with --replay FILE.')
  const upstream = upstreamOf(values)
  return {
    upstream,
    host: values.host,
    port,
    databasePath:
      values.db === ':memory:' ? ':memory:' : resolveUserPath(values.db ?? join(defaultDataDir(), 'emulator.db')),
    adminToken,
    headerPrefix: prefix.toLowerCase(),
    runtimeKey: !values['no-runtime-key'],
    strict: values.strict,
    logLevel: values['log-level'],
    requestLogSize,
    storageBusyTimeoutMs,
    scenarioPath: values.scenario ? resolveUserPath(values.scenario) : null,
    replayPath: values.replay ? resolveUserPath(values.replay) : null,
    replayStrict: values['replay-strict'],
    replayResign: values['replay-resign'],
    readyJson: values['ready-json']
  }
}

/** The --upstream flags, checked as PUT /_emulator/upstream checks them. */
function upstreamOf(values: {
  upstream?: string | undefined
  'upstream-routes'?: string | undefined
  'upstream-ca'?: string | undefined
  'upstream-connect-timeout-ms'?: string | undefined
  'upstream-first-byte-timeout-ms'?: string | undefined
}): ServeOptions['upstream'] {
  const url = values.upstream
  if (url === undefined) {
    const stray = (['upstream-routes', 'upstream-ca'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`--${stray} needs --upstream URL.`)
    return null
  }
  const routes = values['upstream-routes']
    ?.split(',')
    .map((route) => route.trim())
    .filter((route) => route !== '')
  let checked
  try {
    checked = createUpstreamSettings({ url, routes }).get()
  } catch (error) {
    if (error instanceof DomainError)
      throw new UsageError(`--upstream${error.message.includes('/routes') ? '-routes' : ''}: ${error.message}`)
    throw error
  }
  const timeout = (name: 'upstream-connect-timeout-ms' | 'upstream-first-byte-timeout-ms') => {
    const text = values[name]
    if (text === undefined) return undefined
    const ms = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN
    if (!(ms >= 1)) throw new UsageError(`--${name} must be a whole number of milliseconds from 1.`)
    return ms
  }
  const caPath = values['upstream-ca']
  return {
    url: checked.url ?? url,
    routes: routes && routes.length > 0 ? [...checked.routes] : undefined,
    caPath: caPath === undefined ? null : resolveUserPath(caPath),
    connectTimeoutMs: timeout('upstream-connect-timeout-ms'),
    firstByteTimeoutMs: timeout('upstream-first-byte-timeout-ms')
  }
}
