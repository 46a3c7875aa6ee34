import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { claimLinkOf } from '../../../core/commerce/claim-link'
import { ORDER_REVERSALS } from '../../../shared/contract/orders'
import type { OrderReversal } from '../../../shared/contract/orders'
import { SUBSCRIPTION_ACTIONS } from '../../../shared/contract/subscriptions'
import type { SubscriptionAction } from '../../../shared/contract/subscriptions'
import {
  LicenseDeactivateBody,
  LicenseDeactivateResponse,
  LicenseDetailResponse,
  LicenseListQuery,
  LicenseListResponse,
  LicensePatchBody,
  LicenseResponse,
  OrderReversalResponse,
  PendingResellerOrderListResponse,
  PurchaseBody,
  PurchaseResponse,
  ResellerOrderBody,
  ResellerOrderResponse,
  SubscriptionStandingResponse
} from '../../../shared/schemas/commerce'
import { EmptyBody, errorResponses } from '../../../shared/schemas/common'
import { IdParams } from '../../../shared/schemas/control-plane'
import { ERROR_ANSWERS, errorAnswers } from '../../../shared/schemas/error-answers'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

export const commerceControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { purchases, resellerOrders, licenses, subscriptions, orders } = app.core

  app.post(
    '/purchases',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'A direct purchase: order, entitlement, license (and subscription)',
        body: PurchaseBody,
        response: { 201: PurchaseResponse, ...errorResponses }
      }
    },
    async (request, reply) => reply.code(201).send({ ok: true as const, ...purchases.purchase(request.body) })
  )

  app.post(
    '/reseller-orders',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'A reseller/partner order waiting for its claim; the claim token is shown once',
        body: ResellerOrderBody,
        response: { 201: ResellerOrderResponse, ...errorResponses }
      }
    },
    async (request, reply) => {
      const result = purchases.createResellerOrder(request.body)
      return reply.code(201).send({
        ok: true as const,
        ...result,
        claimUrl: claimLinkOf(app.core.apiBaseUrl(), result.claimToken)
      })
    }
  )

  app.get(
    '/reseller-orders',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Reseller orders waiting for their claim (paid, unclaimed), newest first, with their claim links',
        description:
          'The claim link is shown again when this emulator keeps the claim token sealed under its runtime key; otherwise `claimUrl` is null and `unrecoverableReason` says why.',
        response: { 200: PendingResellerOrderListResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, orders: resellerOrders.list() })
  )

  app.patch(
    '/licenses/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Suspend, revoke, reinstate or expire a license, or change its activation limit',
        params: IdParams,
        body: LicensePatchBody,
        response: { 200: LicenseResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, license: licenses.update(request.params.id, request.body) })
  )

  app.post(
    '/licenses/:id/deactivate',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Free the seat one instance holds (deactivate one activation), as the plugin would',
        description:
          "Whatever the license's state, as a plugin's deactivate. 404 NOT_ACTIVATED when that instance holds no seat of it.",
        params: IdParams,
        body: LicenseDeactivateBody,
        response: { 200: LicenseDeactivateResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, ...licenses.deactivate(request.params.id, request.body.instanceId) })
  )

  app.get(
    '/licenses',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Licenses, newest first, optionally of one product or one customer (at most 500)',
        querystring: LicenseListQuery,
        response: { 200: LicenseListResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, licenses: licenses.list(request.query) })
  )

  app.get(
    '/licenses/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'A license with every activation, live and deactivated',
        params: IdParams,
        response: { 200: LicenseDetailResponse, ...errorResponses }
      }
    },
    async (request) => ({
      ok: true as const,
      license: licenses.require(request.params.id),
      activations: licenses.activations(request.params.id)
    })
  )

  app.get(
    '/subscriptions/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'A subscription, and how it stands on the emulator clock now (renewals, grace, end)',
        params: IdParams,
        response: {
          200: SubscriptionStandingResponse,
          ...errorAnswers(ERROR_ANSWERS.validation, ERROR_ANSWERS.subscriptionNotFound)
        }
      }
    },
    async (request) => ({ ok: true as const, ...subscriptions.require(request.params.id) })
  )

  for (const reversal of ORDER_REVERSALS) {
    app.post(
      `/orders/:id/${reversal}`,
      {
        config: { tokens: ADMIN_TOKEN },
        schema: {
          tags,
          summary: ORDER_REVERSAL_SUMMARIES[reversal],
          description:
            'Idempotent: the same reversal again answers the order as it stands (`changed: false`); the other one is 409 ORDER_STATE_CONFLICT.',
          params: IdParams,
          body: EmptyBody,
          response: {
            200: OrderReversalResponse,
            ...errorAnswers(ERROR_ANSWERS.validation, ERROR_ANSWERS.orderNotFound, ERROR_ANSWERS.orderStateConflict)
          }
        }
      },
      async (request) => ({ ok: true as const, ...orders.reverse(request.params.id, reversal) })
    )
  }

  for (const action of SUBSCRIPTION_ACTIONS) {
    app.post(
      `/subscriptions/:id/${action}`,
      {
        config: { tokens: ADMIN_TOKEN },
        schema: {
          tags,
          summary: SUBSCRIPTION_ACTION_SUMMARIES[action],
          params: IdParams,
          body: EmptyBody,
          response: {
            200: SubscriptionStandingResponse,
            ...errorAnswers(
              ERROR_ANSWERS.validation,
              ERROR_ANSWERS.subscriptionNotFound,
              ERROR_ANSWERS.subscriptionStateConflict
            )
          }
        }
      },
      async (request) => ({ ok: true as const, ...subscriptions.act(request.params.id, action) })
    )
  }
}

const ORDER_REVERSAL_SUMMARIES: Record<OrderReversal, string> = {
  refund:
    'Refund an order: its entitlements and licenses are revoked (no downloads, REVOKED on activate and validate), a subscription it paid for ends',
  chargeback: 'A chargeback on an order (the bank took the money back): what it granted ends, as with a refund'
}

const SUBSCRIPTION_ACTION_SUMMARIES: Record<SubscriptionAction, string> = {
  'renew-now': 'Renew a subscription now: a successful charge and a fresh paid period from now (from any state)',
  cancel: 'Cancel a subscription at its period end (it stays active until then; 409 unless active)',
  resume: 'Resume a subscription set to cancel at its period end (409 once it has ended)',
  'payment-fails':
    'The renewal charge fails now: past_due, with access for the grace period (runtime setting), then expired',
  'payment-succeeds':
    'A past_due subscription is paid: active again, renewing from the period that failed (409 once expired)'
}
