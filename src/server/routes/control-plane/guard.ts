import type { FastifyRequest } from 'fastify'

import { TransportError } from '../../errors/transport-codes'
import type { ServerSettings } from '../../plugins/emulator-context'

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i

/**
 * Protection of the control plane: the Host must be a loopback name (no DNS rebinding), a
 * browser Origin must be the server's own (or a trusted one). The admin token each route declares
 * (`config.tokens`) is checked by token-auth, after this.
 */
export function controlPlaneGuard(settings: ServerSettings) {
  return async function guard(request: FastifyRequest): Promise<void> {
    const host = request.headers.host ?? ''
    if (!LOOPBACK_HOST.test(host)) {
      throw new TransportError(
        'HOST_NOT_ALLOWED',
        'The control plane answers only on a loopback host name (127.0.0.1, localhost, [::1]).'
      )
    }
    const origin = request.headers.origin
    if (origin !== undefined && origin !== `http://${host}` && !settings.trustedOrigins.includes(origin)) {
      throw new TransportError(
        'ORIGIN_NOT_ALLOWED',
        'Pages from another origin may not drive the emulator control plane.'
      )
    }
  }
}
