import type { ApiError } from '../../api/errors'

/** The four values a plugin holds. */
export type CredentialField = 'productId' | 'appId' | 'pluginKey' | 'pluginSecret'

export const FIELD_LABELS: Record<CredentialField, string> = {
  productId: 'Product ID',
  appId: 'App ID',
  pluginKey: 'Plugin key',
  pluginSecret: 'Plugin secret'
}

export interface Diagnosis {
  /** One line: what went wrong. */
  title: string
  /** What to do about it. */
  hint: string
  /** The values that are wrong (highlighted in the form). */
  fields: CredentialField[]
}

/**
 * Turns a failed verify or licensing call into "which value is wrong and what to do",
 * from the `reason` of PLUGIN_CONNECTION_FAILED and PRODUCT_CREDENTIAL_INVALID
 * (docs/api.md sections 1 and 3), and the licensing codes (section 5).
 */
export function diagnose(error: ApiError, strict: boolean): Diagnosis {
  const reason = error.reason
  if (error.code === 'PLUGIN_CONNECTION_FAILED' || error.code === 'PRODUCT_CREDENTIAL_INVALID') {
    switch (reason) {
      case 'UNKNOWN_PRODUCT':
        return {
          title: 'The product ID is unknown.',
          hint: 'Use the product ID (prod_...), not the App ID (app_...). Check it against the Credentials screen.',
          fields: ['productId']
        }
      case 'APP_ID_MISMATCH':
        return {
          title: 'The App ID does not belong to this product.',
          hint: 'The App ID (app_...) is per product and stays the same across rotations; copy it from the product again.',
          fields: ['appId']
        }
      case 'KEY_MISMATCH':
        return {
          title: 'The plugin key does not belong to this product.',
          hint: 'It may be the key of another product, or mistyped. Copy the key of this product from a fresh reveal.',
          fields: ['pluginKey']
        }
      case 'KEY_UNKNOWN':
        return {
          title: 'The plugin key is not known at all.',
          hint: 'Check for a typo or a key from another emulator database. Reveal the current key and copy it again.',
          fields: ['pluginKey']
        }
      case 'SECRET_MISMATCH':
        return {
          title: 'The plugin secret does not match the plugin key.',
          hint: 'Key and secret are replaced together on every rotation: take both from the same reveal.',
          fields: ['pluginSecret']
        }
      case 'CREDENTIAL_REVOKED':
        return {
          title: 'This credential was revoked or rotated.',
          hint: 'Packages built with it stop working. Reveal the active credential (or issue one) and regenerate the package.',
          fields: ['pluginKey', 'pluginSecret']
        }
      case 'MISSING_CREDENTIAL':
        return {
          title: 'A credential header is missing.',
          hint: 'Send all three: App ID, plugin key and plugin secret.',
          fields: ['appId', 'pluginKey', 'pluginSecret']
        }
      default:
        return {
          title: error.message,
          hint: strict
            ? 'Strict mode hides which value is wrong, as production does. Turn strict mode off (Scenarios & settings) to see the reason.'
            : 'The server did not say which value is wrong.',
          fields: []
        }
    }
  }
  return { title: error.message, hint: licensingHint(error.code), fields: [] }
}

const LICENSING_HINTS: Record<string, string> = {
  NOT_FOUND: 'No license has this key: check the license key for typos.',
  SUSPENDED: 'The license is suspended. Reinstate it in the Library viewer to continue.',
  EXPIRED: 'The license has expired (on the emulator clock). Move the clock back or extend the license.',
  TRIAL_EXPIRED: 'The trial has ended (on the emulator clock).',
  REVOKED: 'The license was revoked.',
  NOT_ACTIVATED: 'Activate this instance first, or validate without an instance ID.',
  PRODUCT_SCOPE_MISMATCH: 'The license belongs to another product than this credential.',
  TOO_MANY_ACTIVATIONS: 'Every activation slot is taken. Deactivate another instance first.',
  VALIDATION_ERROR: 'The request body was refused; see details in the response.',
  RATE_LIMITED: 'A fault rule is rate limiting this route (Scenarios & settings).',
  FAULT_INJECTED: 'A fault rule answered this request (Scenarios & settings).',
  NETWORK_ERROR: 'No answer: the emulator is not running, or an offline fault rule dropped the connection.'
}

/** What to do about a licensing code (`validate`'s `code`, or an activate/deactivate error). */
export function licensingHint(code: string): string {
  return LICENSING_HINTS[code] ?? ''
}
