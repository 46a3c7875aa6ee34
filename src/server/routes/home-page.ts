import type { FastifyPluginAsync } from 'fastify'

import { NO_TOKEN } from '../auth/route-tokens'

/** A placeholder at `/` until the renderer is served here: says what is running and where. */
export const homePageRoutes: FastifyPluginAsync = async (app) => {
  app.get('/', { config: { tokens: NO_TOKEN }, schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/html; charset=utf-8')
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plugin License Emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Plugin License Emulator</h1>
<p>The emulator is running (version ${app.settings.version}).</p>
<ul>
<li><a href="/openapi.json">OpenAPI document</a></li>
<li><a href="/.well-known/jwks.json">Signing keys (JWKS)</a></li>
<li><a href="/_emulator/health">Health</a></li>
</ul>
</body></html>`
  })
}
