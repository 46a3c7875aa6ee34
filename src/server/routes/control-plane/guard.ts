import { timingSafeEqual, createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { DomainError } from '../../../core/errors/domain-error'
import type { ServerSettings } from '../../plugins/emulator-context'

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i

/**
 * Protection of the control plane: the Host must be a loopback name (no DNS rebinding), a
 * browser Origin must be the server's own (or a trusted one), and the admin token must match.
 */
export function controlPlaneGuard(settings: ServerSettings) {
  const expected = digest(settings.adminToken)
  return async function guard(request: FastifyRequest): Promise<void> {
    const host = request.headers.host ?? ''
    if (!LOOPBACK_HOST.test(host)) {
      throw new DomainError('HOST_NOT_ALLOWED', 'The control plane answers only on a loopback host name (127.0.0.1, localhost, [::1]).')
    }
    const origin = request.headers.origin
    if (origin !== undefined && origin !== `http://${host}` && !settings.trustedOrigins.includes(origin)) {
      throw new DomainError('ORIGIN_NOT_ALLOWED', 'Pages from another origin may not drive the emulator control plane.')
    }
    const config = request.routeOptions.config
    if (!config.tokens?.includes('adminToken') || config.adminTokenInQuery) return
    const token = request.headers['x-emulator-token']
    if (typeof token !== 'string' || token === '') {
      throw new DomainError('AUTH_REQUIRED', 'Send the admin token in the x-emulator-token header.')
    }
    if (!timingSafeEqual(digest(token), expected)) {
      throw new DomainError('INVALID_TOKEN', 'The admin token does not match.')
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}
