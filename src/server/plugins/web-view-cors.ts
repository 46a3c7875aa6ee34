import fp from 'fastify-plugin'

import { SOURCE_HEADER } from '../../shared/contract/inspector'

/**
 * The routes an in-plugin web view calls, from its own origin (the vendor's site, a custom
 * scheme): the library, webview-library, library-token and downloads (docs/api.md, "Tokens and
 * scopes"). They carry a Bearer token, never a cookie, so any origin may read them.
 */
const WEB_VIEW_PATHS: readonly RegExp[] = [
  /^\/api\/library\/?$/,
  /^\/api\/license\/v1\/(?:webview-library|library-token)\/?$/,
  /^\/api\/downloads\/[^/]+\/?$/
]

/** What a download answer's page needs to read: the range served, the file name, when to retry. */
const EXPOSED_HEADERS = 'Content-Range, Content-Disposition, Retry-After, Accept-Ranges, Content-Length'

export function isWebViewPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  return WEB_VIEW_PATHS.some((pattern) => pattern.test(path))
}

/**
 * CORS for the web view routes only: preflights answered (204), `Access-Control-Allow-Origin: *`
 * on every answer, errors and injected faults included. The management API and the control plane
 * get nothing here: browsers keep them same-origin (trusted-origins.ts covers the dev server).
 */
export const webViewCors = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      if (!isWebViewPath(request.url)) return
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS)
      if (request.method !== 'OPTIONS') return
      const prefix = app.settings.headerPrefix
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS')
        .header(
          'access-control-allow-headers',
          `Authorization, Content-Type, Range, x-${prefix}-app-id, x-${prefix}-plugin-key, x-${prefix}-plugin-secret, x-${prefix}-api-key, ${SOURCE_HEADER}`
        )
        .header('access-control-max-age', '600')
        .send()
    })
  },
  { name: 'web-view-cors', dependencies: ['emulator-context'] }
)
