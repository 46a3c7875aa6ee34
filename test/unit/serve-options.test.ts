import { homedir } from 'node:os'
import { isAbsolute, join, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

import { LOG_LEVELS, parseServeOptions, SERVE_USAGE, UsageError } from '../../src/cli/serve-options'
import type { ServeOptions } from '../../src/cli/serve-options'

function parse(...args: string[]): ServeOptions {
  const options = parseServeOptions(args)
  if (options === 'help' || options === 'version') throw new Error(`expected options, got ${options}`)
  return options
}

function usageErrorOf(...args: string[]): UsageError {
  try {
    parseServeOptions(args)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(args)}`)
}

describe('serve options', () => {
  it('defaults to 127.0.0.1:4747, prefix svc, runtime key on, not strict', () => {
    const options = parse()
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 4747,
      headerPrefix: 'svc',
      runtimeKey: true,
      strict: false,
      adminToken: null,
      logLevel: 'warn',
      requestLogSize: 5000,
      scenarioPath: null,
      readyJson: false
    })
    expect(isAbsolute(options.databasePath)).toBe(true)
    expect(options.databasePath.endsWith('emulator.db')).toBe(true)
  })

  it('takes --request-log-size and refuses sizes that are not whole numbers from 1 to 1000000', () => {
    expect(parse('--request-log-size', '200').requestLogSize).toBe(200)
    for (const bad of ['0', '-5', '2.5', 'lots', '1000001']) {
      expect(() => parse('--request-log-size', bad)).toThrow(UsageError)
    }
  })

  it('takes --storage-busy-timeout-ms from 0 (answer at once) and refuses what is not whole milliseconds', () => {
    expect(parse().storageBusyTimeoutMs).toBe(5000)
    expect(parse('--storage-busy-timeout-ms', '0').storageBusyTimeoutMs).toBe(0)
    expect(parse('--storage-busy-timeout-ms', '250').storageBusyTimeoutMs).toBe(250)
    for (const bad of ['-1', '1.5', 'soon', '', '600001']) {
      expect(usageErrorOf(`--storage-busy-timeout-ms=${bad}`).message).toMatch(/--storage-busy-timeout-ms must be/)
    }
  })

  it('takes --port 0 (a free port) and the edges of the port range', () => {
    expect(parse('--port', '0').port).toBe(0)
    expect(parse('--port=65535').port).toBe(65535)
    expect(parse('--port', '8080').port).toBe(8080)
  })

  it('takes --db :memory: as is, and makes a file path absolute', () => {
    expect(parse('--db', ':memory:').databasePath).toBe(':memory:')
    expect(parse('--db', 'data/emu.db').databasePath).toBe(resolve('data/emu.db'))
    expect(parse('--db', '/tmp/x/emu.db').databasePath).toBe(resolve('/tmp/x/emu.db'))
  })

  it('reads a leading ~ in a path option as the home directory, as a shell would (quoted, cmd, a config file)', () => {
    expect(parse('--db', '~/emu.db').databasePath).toBe(join(homedir(), 'emu.db'))
    // `~\` only where a backslash separates folders; elsewhere it is part of a name.
    expect(parse('--db', '~\\emu.db').databasePath).toBe(
      sep === '\\' ? join(homedir(), 'emu.db') : resolve('~\\emu.db')
    )
    expect(parse('--scenario', '~/qa/day.json').scenarioPath).toBe(join(homedir(), 'qa', 'day.json'))
    expect(parse('--replay', '~/rec.json').replayPath).toBe(join(homedir(), 'rec.json'))
    // A name that only starts with ~ is a name.
    expect(parse('--db', '~backup.db').databasePath).toBe(resolve('~backup.db'))
  })

  it('--no-runtime-key turns the runtime key off', () => {
    expect(parse('--no-runtime-key').runtimeKey).toBe(false)
  })

  it('--replay-strict and --replay-resign go with --replay FILE', () => {
    expect(parse('--replay', 'rec.json', '--replay-resign')).toMatchObject({ replayResign: true, replayStrict: false })
    expect(parse('--replay', 'rec.json')).toMatchObject({ replayResign: false })
    expect(() => parse('--replay-resign')).toThrow('--replay-resign goes with --replay FILE.')
  })

  it('--strict turns strict mode on', () => {
    expect(parse('--strict').strict).toBe(true)
  })

  it('takes host, admin token, header prefix (lower-cased) and log level', () => {
    expect(
      parse('--host', '0.0.0.0', '--admin-token', 'abcdefgh12', '--header-prefix', 'AcMe', '--log-level', 'debug')
    ).toMatchObject({
      host: '0.0.0.0',
      adminToken: 'abcdefgh12',
      headerPrefix: 'acme',
      logLevel: 'debug'
    })
  })

  it('answers version for --version and -v', () => {
    expect(parseServeOptions(['--version'])).toBe('version')
    expect(parseServeOptions(['-v'])).toBe('version')
  })

  it('takes every log level the usage names, and the usage names every level it takes', () => {
    for (const level of LOG_LEVELS) {
      expect(parse('--log-level', level).logLevel).toBe(level)
      expect(SERVE_USAGE).toContain(level)
    }
    expect(usageErrorOf('--log-level', 'loud').message).toContain(LOG_LEVELS.join(', '))
  })

  it('answers help for --help and -h', () => {
    expect(parseServeOptions(['--help'])).toBe('help')
    expect(parseServeOptions(['-h'])).toBe('help')
  })

  it.each([['70000'], ['65536'], ['abc'], ['1.5'], [''], ['0x50'], ['1e3'], [' 80']])('refuses --port "%s"', (port) => {
    expect(usageErrorOf(`--port=${port}`).message).toContain('--port')
  })

  it('refuses a negative port', () => {
    usageErrorOf('--port=-1')
  })

  it.each([['has space'], ['under_score'], [''], ['-leading'], ['x'.repeat(33)], ['ünï']])(
    'refuses --header-prefix "%s"',
    (prefix) => {
      expect(usageErrorOf(`--header-prefix=${prefix}`).message).toContain('--header-prefix')
    }
  )

  it('refuses an unknown flag, naming it', () => {
    expect(usageErrorOf('--bogus').message).toContain('--bogus')
  })

  it('refuses a stray positional argument', () => {
    usageErrorOf('extra')
  })

  it('refuses a flag without its value', () => {
    usageErrorOf('--port')
  })

  it('refuses an admin token shorter than 8 characters', () => {
    expect(usageErrorOf('--admin-token', 'short').message).toContain('--admin-token')
  })

  it('refuses an unknown log level and an empty --db', () => {
    expect(usageErrorOf('--log-level', 'loud').message).toContain('--log-level')
    expect(usageErrorOf('--db=').message).toContain('--db')
  })

  it('takes --upstream with its routes, CA file and timeouts (docs/upstream.md); off by default', () => {
    expect(parse().upstream).toBeNull()
    expect(
      parse(
        '--upstream',
        'https://api.example.com/',
        '--upstream-routes',
        '/api/license/**, /.well-known/**',
        '--upstream-ca',
        'ca.pem',
        '--upstream-first-byte-timeout-ms',
        '250'
      ).upstream
    ).toEqual({
      url: 'https://api.example.com',
      routes: ['/api/license/**', '/.well-known/**'],
      caPath: resolve('ca.pem'),
      connectTimeoutMs: undefined,
      firstByteTimeoutMs: 250
    })
  })

  it('refuses a bad upstream URL, a bad route, a stray --upstream-ca and a bad timeout', () => {
    expect(usageErrorOf('--upstream', 'ftp://example.test').message).toContain('--upstream')
    expect(usageErrorOf('--upstream', 'http://127.0.0.1:1', '--upstream-routes', '/api/**x').message).toContain(
      '--upstream-routes'
    )
    expect(usageErrorOf('--upstream-ca', 'ca.pem').message).toContain('needs --upstream')
    expect(usageErrorOf('--upstream', 'http://127.0.0.1:1', '--upstream-connect-timeout-ms', '0').message).toContain(
      '--upstream-connect-timeout-ms'
    )
  })
})
