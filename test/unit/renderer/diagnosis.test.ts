import { describe, expect, it } from 'vitest'

import { ApiError } from '../../../src/renderer/src/api/errors'
import { diagnose, licensingHint } from '../../../src/renderer/src/screens/tester/diagnosis'

const failure = (code: string, reason?: string) =>
  ApiError.fromBody(401, { ok: false, error: code, message: 'It failed.', ...(reason ? { reason } : {}) })

describe('which value is wrong', () => {
  it('maps each PLUGIN_CONNECTION_FAILED reason to the value to fix', () => {
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'UNKNOWN_PRODUCT'), false).fields).toEqual(['productId'])
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'APP_ID_MISMATCH'), false).fields).toEqual(['appId'])
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'KEY_MISMATCH'), false).fields).toEqual(['pluginKey'])
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'SECRET_MISMATCH'), false).fields).toEqual(['pluginSecret'])
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'CREDENTIAL_REVOKED'), false).fields).toEqual([
      'pluginKey',
      'pluginSecret'
    ])
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED', 'UNKNOWN_PRODUCT'), false).hint).toContain('not the App ID')
  })

  it('maps the licensing credential reasons too', () => {
    expect(diagnose(failure('PRODUCT_CREDENTIAL_INVALID', 'KEY_UNKNOWN'), false).fields).toEqual(['pluginKey'])
    expect(diagnose(failure('PRODUCT_CREDENTIAL_INVALID', 'MISSING_CREDENTIAL'), false).fields).toEqual([
      'appId',
      'pluginKey',
      'pluginSecret'
    ])
    expect(diagnose(failure('PRODUCT_CREDENTIAL_INVALID', 'SECRET_MISMATCH'), false).title).toBe(
      'The plugin secret does not match the plugin key.'
    )
  })

  it('explains a missing reason in strict mode', () => {
    const strict = diagnose(failure('PLUGIN_CONNECTION_FAILED'), true)
    expect(strict.fields).toEqual([])
    expect(strict.hint).toContain('Strict mode hides')
    expect(diagnose(failure('PLUGIN_CONNECTION_FAILED'), false).hint).not.toContain('Strict mode')
  })

  it('gives licensing codes a next step', () => {
    expect(diagnose(failure('TOO_MANY_ACTIVATIONS'), false).hint).toContain('Deactivate another instance')
    expect(licensingHint('TRIAL_EXPIRED')).toContain('trial')
    expect(licensingHint('SOMETHING_NEW')).toBe('')
  })
})
