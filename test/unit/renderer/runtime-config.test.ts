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
} from '../../../src/renderer/src/screens/credentials/runtime-config'
import type { RuntimeConfig } from '../../../src/renderer/src/screens/credentials/runtime-config'

const config: RuntimeConfig = {
  appId: 'app_Abc123',
  pluginKey: 'pk_Key456',
  pluginSecret: 'sk_Secret789',
  productId: 'prod_1',
  developerId: 'dev_1',
  environment: 'emulator',
  apiBaseUrl: 'http://127.0.0.1:4747'
}

describe('package runtime config export', () => {
  it('writes JSON with exactly the seven fields, in order', () => {
    const parsed = JSON.parse(toJson(config)) as Record<string, string>
    expect(Object.keys(parsed)).toEqual(['appId', 'pluginKey', 'pluginSecret', 'productId', 'developerId', 'environment', 'apiBaseUrl'])
    expect(parsed).toEqual(config)
  })

  it('never carries anything but the config (no developer session token)', () => {
    const withExtra = { ...config, developerJwt: 'eyJ.secret.jwt' } as RuntimeConfig
    for (const format of ['json', 'env', 'cpp'] as const) expect(renderConfig(format, withExtra, 'svc')).not.toContain('eyJ.secret.jwt')
  })

  it('writes a .env file with quoted values and the header names', () => {
    const env = toEnv(config, 'svc')
    expect(env).toContain('PLUGIN_APP_ID="app_Abc123"\n')
    expect(env).toContain('PLUGIN_SECRET="sk_Secret789"\n')
    expect(env).toContain('PLUGIN_API_BASE_URL="http://127.0.0.1:4747"\n')
    expect(env).toContain('x-svc-plugin-secret')
    expect(env.endsWith('\n')).toBe(true)
    expect(envQuote('a"b$c\\d\ne')).toBe('"a\\"b\\$c\\\\d\\ne"')
  })

  it('writes a C++ header of constexpr strings', () => {
    const header = toCppHeader(config, 'Acme')
    expect(header).toContain('#pragma once')
    expect(header).toContain('namespace plugin_license_config {')
    expect(header).toContain('inline constexpr const char* kPluginSecret = "sk_Secret789";')
    expect(header).toContain('inline constexpr const char* kAppIdHeader = "x-acme-app-id";')
    expect(header).toContain('inline constexpr const char* kApiBaseUrl = "http://127.0.0.1:4747";')
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
