import type { CredentialRecovery } from '../../core/errors/domain-error'

/** Where the management API is registered (build-server.ts): the recovery routes hang below it. */
export const MANAGEMENT_PREFIX = '/api/developer/plugin-keys/products'

const ROUTES = {
  create: { key: 'create', suffix: '', words: 'create a new one' },
  ensure: { key: 'ensure', suffix: '/ensure', words: 'ensure one' },
  'rotate-key': { key: 'rotateKey', suffix: '/rotate-key', words: 'rotate the key' },
  'rotate-secret': { key: 'rotateSecret', suffix: '/rotate-secret', words: 'rotate the secret' }
} as const

/**
 * A domain error's recovery as the answer carries it: `recovery` names each route to call, and
 * where the error asks, its message ends by naming them too (docs/api.md section 2).
 */
export function recoveryAnswer(
  recovery: CredentialRecovery,
  message: string
): { recovery: Record<string, string>; message: string } {
  const base = `${MANAGEMENT_PREFIX}/${encodeURIComponent(recovery.productId)}`
  const routes = recovery.actions.map((action) => ({ ...ROUTES[action], path: `${base}${ROUTES[action].suffix}` }))
  const named = routes.map((route) => `${route.words} with POST ${route.path}`).join(' or ')
  return {
    recovery: Object.fromEntries(routes.map((route) => [route.key, route.path])),
    message: recovery.named ? `${message}: ${named}, then regenerate the package.` : message
  }
}
