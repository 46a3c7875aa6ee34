import { parseEnv } from 'node:util'
import { describe, expect, it } from 'vitest'

import {
  configFileName,
  cppString,
  envQuote,
  renderConfig,
  slugify,
  toCppHeader,
  toEnv,
  toJson
} from '../../src/shared/plugin-config/runtime-config'
import type { RuntimeConfig } from '../../src/shared/plugin-config/runtime-config'

const config: RuntimeConfig = {
  appId: 'app_Abc123',
  pluginKey: 'pk_Key456',
  pluginSecret: 'sk_Secret789',
  productId: 'prod_1',
  developerId: 'dev_1',
  environment: 'emulator',
  apiBaseUrl: 'http://127.0.0.1:4747',
  headerPrefix: 'svc',
  publicKeyHex: 'ab'.repeat(32),
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n'
}

describe('package runtime config export', () => {
  it('writes JSON with exactly the config fields, in order', () => {
    const parsed = JSON.parse(toJson(config)) as Record<string, string>
    expect(Object.keys(parsed)).toEqual([
      'appId',
      'pluginKey',
      'pluginSecret',
      'productId',
      'developerId',
      'environment',
      'apiBaseUrl',
      'headerPrefix',
      'publicKeyHex',
      'publicKeyPem'
    ])
    expect(parsed).toEqual(config)
  })

  it('never carries anything but the config (no developer session token)', () => {
    const withExtra = { ...config, developerJwt: 'eyJ.secret.jwt' } as RuntimeConfig
    for (const format of ['json', 'env', 'cpp'] as const)
      expect(renderConfig(format, withExtra)).not.toContain('eyJ.secret.jwt')
  })

  it('writes a .env file with quoted values in the names the native client reads', () => {
    const env = toEnv(config)
    expect(env).toContain('PLE_APP_ID="app_Abc123"\n')
    expect(env).toContain('PLE_PLUGIN_SECRET="sk_Secret789"\n')
    expect(env).toContain('PLE_BASE_URL="http://127.0.0.1:4747"\n')
    expect(env).toContain(`PLE_PUBLIC_KEY_HEX="${'ab'.repeat(32)}"\n`)
    expect(env).toContain('PLE_HEADER_PREFIX="svc"\n')
    expect(env).toContain('x-svc-plugin-secret')
    // Node reads it back as the client's environment, the PEM's line breaks included.
    const parsed = parseEnv(env)
    expect(parsed).toMatchObject({
      PLE_APP_ID: 'app_Abc123',
      PLE_PRODUCT_ID: 'prod_1',
      PLE_PUBLIC_KEY_PEM: config.publicKeyPem
    })
    expect(env.endsWith('\n')).toBe(true)
    expect(envQuote('a"b$c\\d\ne')).toBe('"a\\"b\\$c\\\\d\\ne"')
  })

  it('writes a C++ header of constexpr strings', () => {
    const header = toCppHeader({ ...config, headerPrefix: 'Acme' })
    expect(header).toContain('#pragma once')
    expect(header).toContain('namespace plugin_license_config {')
    expect(header).toContain('inline constexpr const char* kPluginSecret = "sk_Secret789";')
    expect(header).toContain('inline constexpr const char* kAppIdHeader = "x-acme-app-id";')
    expect(header).toContain('inline constexpr const char* kApiBaseUrl = "http://127.0.0.1:4747";')
    expect(header).toContain(`inline constexpr const char* PLE_PUBLIC_KEY_HEX = "${'ab'.repeat(32)}";`)
    expect(header).toContain('inline constexpr const char* kHeaderPrefix = "Acme";')
  })

  it('escapes C++ string literals, including non-ASCII as UTF-8 octal', () => {
    expect(cppString('plain')).toBe('"plain"')
    expect(cppString('a"b\\c')).toBe('"a\\"b\\\\c"')
    expect(cppString('line\nbreak\ttab')).toBe('"line\\nbreak\\ttab"')
    expect(cppString('why??=')).toBe('"why\\?\\?="')
    expect(cppString('é')).toBe('"\\303\\251"')
  })

  it('names files after the product', () => {
    expect(slugify('Demo Synth')).toBe('demo-synth')
    expect(slugify('  Überdrive ³ ')).toBe('uberdrive-3')
    expect(slugify('***')).toBe('product')
    expect(configFileName('json', 'Demo Synth')).toBe('demo-synth.plugin-config.json')
    expect(configFileName('env', 'Demo Synth')).toBe('demo-synth.plugin.env')
    expect(configFileName('cpp', 'Demo Synth')).toBe('demo-synth_plugin_config.h')
  })
})
