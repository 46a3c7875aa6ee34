import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'

import type { ClaimLinkState } from '../../../core/commerce/purchases'
import { DomainError } from '../../../core/errors/domain-error'
import { ERROR_ANSWERS, errorAnswers } from '../../../shared/schemas/error-answers'
import { ClaimFields, ClaimResponse, LibraryQuery, LibraryResponse } from '../../../shared/schemas/library'
import { LIBRARY_READ, NO_TOKEN, SIGNED_IN_USER } from '../../auth/route-tokens'
import { requestCustomer } from '../../auth/token-auth'
import { sendJsonInChunks } from '../../http/json-chunks'
import { libraryLinks } from '../../http/library-links'
import { oneValue } from '../../http/one-value'
import { plainJsonSerializer } from '../../plugins/plain-json-serializer'
import { closeIgnoredField } from '../../plugins/tolerant-requests'

const tags = ['Customer library']

/** The customer library (docs/api.md section 4). */
export const libraryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { library, purchases } = app.core

  app.get(
    '/',
    {
      config: { tokens: LIBRARY_READ },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary:
          "The customer's library: products, subscriptions, licenses, orders, preferences, profile, support, download_token",
        description:
          'Library token as Bearer, or query `token`, `library_token`, `libraryToken` or `download_token`. `storefront`/`storefrontSlug` filter to one storefront; `instance_id`/`instanceId`/`machine_id` mark what is activated on that device.',
        querystring: LibraryQuery,
        response: { 200: LibraryResponse, ...errorAnswers(ERROR_ANSWERS.validation, ERROR_ANSWERS.libraryTokenInvalid) }
      }
    },
    async (request, reply) => {
      const q = request.query
      const { customer, scope } = requestCustomer(request)
      const payload = await library.library(customer, {
        links: libraryLinks(app.core.apiBaseUrl()),
        storefront: oneValue({ storefront: q.storefront, storefrontSlug: q.storefrontSlug }, 'query'),
        instanceId: oneValue(
          { instance_id: q.instance_id, instanceId: q.instanceId, machine_id: q.machine_id },
          'query'
        ),
        scope: scope ?? undefined
      })
      const answer: Static<typeof LibraryResponse> = { ok: true as const, ...payload }
      // Megabytes for a large library: sent in chunks, never as one string.
      return sendJsonInChunks(reply, answer)
    }
  )

  app.get(
    '/claim',
    {
      // Opening the link claims nothing (a GET must not change state): the page says how the claim completes.
      config: { tokens: NO_TOKEN },
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
      schema: {
        tags,
        summary: 'The claim link opened in a browser: a page saying what it is and how the claim completes (HTML)',
        querystring: ClaimFields,
        response: {
          200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
          ...errorAnswers(ERROR_ANSWERS.validation)
        }
      }
    },
    async (request, reply) => {
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
      const claimToken = request.query.claim ?? request.query.claim_token
      return claimPage(claimToken ? purchases.claimLinkState(claimToken) : 'unknown')
    }
  )

  app.post(
    '/claim',
    {
      config: { tokens: SIGNED_IN_USER },
      schema: {
        tags,
        summary: 'Claim a reseller/partner order item for the signed-in user (idempotent for the same account)',
        description:
          'Signed-in user JWT (customer or developer). The claim token as `claim` or `claim_token`, in the body or the query. Invalid token: 400 LIBRARY_CLAIM_FAILED reason INVALID_CLAIM_TOKEN; claimed by another account: 409 reason ALREADY_CLAIMED.',
        querystring: ClaimFields,
        body: ClaimFields,
        response: {
          200: ClaimResponse,
          ...errorAnswers(
            ERROR_ANSWERS.validation,
            ERROR_ANSWERS.claimInvalid,
            ERROR_ANSWERS.authRequired,
            ERROR_ANSWERS.invalidToken,
            ERROR_ANSWERS.tokenExpired,
            ERROR_ANSWERS.claimTaken
          )
        }
      }
    },
    async (request) => {
      const { customer } = requestCustomer(request)
      const claimToken = oneValue(
        {
          claim: request.body.claim ?? request.query.claim,
          claim_token: request.body.claim_token ?? request.query.claim_token
        },
        'body or query'
      )
      if (!claimToken) {
        const close = closeIgnoredField(request, 'claim_token') ?? closeIgnoredField(request, 'claim')
        const meant = close && closeIgnoredField(request, 'claim_token') === close ? 'claim_token' : 'claim'
        const hint = close
          ? ` "${close.field}" (${close.location}) is not a field here: did you mean \`${meant}\`?`
          : ''
        throw new DomainError('LIBRARY_CLAIM_FAILED', `Send the claim token as \`claim\` or \`claim_token\`.${hint}`, {
          details: { reason: 'INVALID_CLAIM_TOKEN' }
        })
      }
      const result = purchases.claim(customer.id, claimToken)
      return {
        ok: true as const,
        claimed: true as const,
        already_claimed: result.alreadyClaimed,
        order_item: {
          id: result.item.id,
          order_id: result.item.orderId,
          product_id: result.item.productId,
          claimed_at: result.item.claimedAt ?? ''
        },
        entitlement: {
          id: result.entitlement.id,
          product_id: result.entitlement.productId,
          source: result.entitlement.source,
          status: result.entitlement.status
        },
        license: {
          id: result.license.id,
          license_key: result.license.key,
          product_id: result.license.productId,
          max_activations: result.license.maxActivations
        }
      }
    }
  )
}

/** What the page says first about the link it was opened with (never the claim value itself). */
const CLAIM_LINK_STATES: Record<ClaimLinkState, string> = {
  claimable:
    '<p data-claim-state="claimable"><strong>This claim link is valid</strong>: its purchase waits to be claimed.</p>',
  claimed:
    '<p data-claim-state="claimed"><strong>This claim link was used already</strong>: its purchase is in the library of the account that claimed it. Claiming again from that account changes nothing; another account gets <code>409 LIBRARY_CLAIM_FAILED</code>.</p>',
  reversed:
    '<p data-claim-state="reversed"><strong>This claim link is not valid any more</strong>: its order was refunded or charged back, so there is nothing to claim.</p>',
  unknown:
    '<p data-claim-state="unknown"><strong>This claim link is not valid</strong>: no order has this claim value (mistyped, cut short, or from another emulator database). A claim with it answers <code>400 LIBRARY_CLAIM_FAILED</code>.</p>'
}

function claimPage(state: ClaimLinkState): string {
  return CLAIM_PAGE.replace('<!--claim-state-->', CLAIM_LINK_STATES[state])
}

/** The claim link's page. It never repeats the claim value: that is the secret the link carries. */
const CLAIM_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Claim a purchase - Plugin License Emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Claim a purchase</h1>
<!--claim-state-->
<p>This is a <strong>claim link</strong> for a plugin bought from a reseller or partner store, handed out by the
<strong>Plugin License Emulator</strong>. Opening it claims nothing.</p>
<h2>How the claim completes</h2>
<ol>
<li>The customer signs in to the platform (a customer session token).</li>
<li>Their app or the store page sends <code>POST /api/library/claim</code> with <code>Authorization: Bearer &lt;session token&gt;</code>
and this link's <code>claim</code> value, in the query or the JSON body.</li>
<li>The purchase then appears in that customer's library, with its license and downloads. Claiming again from the same account
changes nothing; another account gets <code>409 LIBRARY_CLAIM_FAILED</code>.</li>
</ol>
<p>In the emulator, the desktop app's Library screen and <code>POST /_emulator/customers/:id/session</code> mint the session token.</p>
</body></html>`
