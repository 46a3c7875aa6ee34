import { credentialHeaders } from '../../api/service'
import type { CredentialValues, RequestEntry } from '../../api/types'
import { PREVIEW } from './curl'

/**
 * "Send again": a recorded plugin call re-issued through the connection tester's path (so the
 * inspector lists it as sent by the tester). The log holds previews of secrets, never values:
 * the credential comes from the tester's form (the product's values loaded there), and a
 * request whose body held a secret cannot be sent again.
 */
export type ResendPlan =
  | { ok: true; method: string; path: string; headers: Record<string, string>; body?: unknown }
  | { ok: false; reason: string }

function holdsPreview(value: unknown): boolean {
  if (typeof value === 'string') return PREVIEW.test(value)
  if (Array.isArray(value)) return value.some(holdsPreview)
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsPreview)
  return false
}

export function resendPlan(entry: RequestEntry, tester: CredentialValues, prefix: string): ResendPlan {
  const usesCredential = entry.surface === 'license-v1' || entry.surface === 'plugin-connections'
  if (!usesCredential) return { ok: false, reason: 'Only licensing and connection calls can be sent again.' }
  const { body, bodyInfo } = entry.request
  if (bodyInfo.truncated || (bodyInfo.kind !== 'json' && bodyInfo.kind !== 'none'))
    return { ok: false, reason: 'The recorded body is not whole JSON, so it cannot be sent again as it was.' }
  const ready = tester.productId !== '' && tester.pluginKey !== '' && tester.pluginSecret !== ''
  if (!ready || (entry.productId !== null && tester.productId !== entry.productId))
    return {
      ok: false,
      reason: `Load ${entry.productId ?? 'the product'}'s credential in the Connection tester first: the log keeps no secret.`
    }
  if (entry.surface === 'plugin-connections') {
    // verify carries the credential in its body: the tester's values stand in for the previews.
    const sent = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {}
    return {
      ok: true,
      method: entry.method,
      path: entry.path,
      headers: {},
      body: {
        ...sent,
        productId: tester.productId,
        appId: tester.appId,
        pluginKey: tester.pluginKey,
        pluginSecret: tester.pluginSecret
      }
    }
  }
  if (holdsPreview(body)) return { ok: false, reason: 'The recorded body held a secret the log keeps no value of.' }
  return {
    ok: true,
    method: entry.method,
    path: entry.path,
    headers: credentialHeaders(prefix, tester),
    ...(bodyInfo.kind === 'json' ? { body } : {})
  }
}
