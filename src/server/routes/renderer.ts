import fastifyStatic from '@fastify/static'
import type { FastifyPluginAsync } from 'fastify'

/** What the UI may load and call: itself only. The same policy as the Electron window's. */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

/** The desktop UI (the built renderer) at /, for the Electron window and for browsers alike. */
export const rendererRoutes: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: 'index.html',
    wildcard: true,
    schemaHide: true,
    setHeaders(response) {
      response.header('content-security-policy', RENDERER_CSP)
      response.header('x-content-type-options', 'nosniff')
      response.header('referrer-policy', 'no-referrer')
    }
  })
}
