import type { FastifyPluginAsync } from 'fastify'

import { errorResponses } from '../../shared/schemas/common'
import { NO_TOKEN } from '../auth/route-tokens'

/**
 * The page behind the library's `support.help_url`: the emulator hands that URL out, so it must
 * resolve (a web view or a browser follows it). A small page of the emulator's own: what a
 * customer would find on the platform's help centre, in the emulator's words. Query parameters
 * (`?_=`, `utm_*`) are ignored like everywhere on the service.
 */
export const supportPageRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/support',
    {
      config: { tokens: NO_TOKEN },
      // The declared 200 documents the page (text/html); the HTML goes out as written, errors as JSON
      // (no `produces`: it would declare the error answers as HTML too).
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
      schema: {
        tags: ['Customer library'],
        summary: "The support page the library's support.help_url points to (HTML)",
        response: {
          200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
          // Fault rules (rate limits, injected errors) reach every service route.
          ...errorResponses
        }
      }
    },
    async (_request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache')
      return SUPPORT_PAGE
    }
  )
}

const SUPPORT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Support - Plugin License Emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Customer support</h1>
<p>This is the support page of the <strong>Plugin License Emulator</strong>, which stands in for the licensing
and distribution platform on this computer. No request leaves this machine and no real support team reads it.</p>
<h2>What a customer would do here</h2>
<ul>
<li>Find a license key: it is in the library, under <em>Licenses</em>.</li>
<li>Free an activation slot: deactivate the plugin on the old computer, or ask the developer to.</li>
<li>Download again: the library lists a link per platform and version while the purchase, trial or subscription grants it.</li>
<li>Claim a reseller purchase: sign in and use the claim code from the reseller's email.</li>
</ul>
<p>The contact addresses in the library (<code>support.contact_email</code>, <code>support.product_contacts</code>) are
placeholders in the <code>.test</code> domain; they never deliver mail.</p>
</body></html>`
