import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import {
  CreateCustomerBody,
  CustomerLibraryTokenResponse,
  CustomerListResponse,
  CustomerResponse,
  LicenseListResponse
} from '../../../shared/schemas/commerce'
import { errorResponses } from '../../../shared/schemas/common'
import { IdParams, SessionBody, SessionResponse } from '../../../shared/schemas/control-plane'
import { ADMIN_TOKEN } from '../../auth/route-tokens'
import { libraryLinks } from '../../http/library-links'

const tags = ['Emulator']

export const customerControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { customers, sessions, library } = app.core

  app.post(
    '/customers',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Create a customer (with a signed-in user identity)',
        body: CreateCustomerBody,
        response: { 201: CustomerResponse, ...errorResponses }
      }
    },
    async (request, reply) => reply.code(201).send({ ok: true as const, customer: customers.create(request.body) })
  )

  app.get(
    '/customers',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'List customers',
        response: { 200: CustomerListResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, customers: customers.list() })
  )

  app.post(
    '/customers/:id/session',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Mint a signed-in customer user JWT (for claims)',
        params: IdParams,
        body: SessionBody,
        response: { 200: SessionResponse, ...errorResponses }
      }
    },
    async (request) => {
      const customer = customers.require(request.params.id)
      const issued = await sessions.issue({
        audience: 'customer',
        subject: customer.userId,
        ttlS: request.body.ttlS,
        claims: { email: customer.email, customer_id: customer.id }
      })
      return { ok: true as const, ...issued }
    }
  )

  app.post(
    '/customers/:id/library-token',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "A library token for the customer's library",
        params: IdParams,
        response: { 200: CustomerLibraryTokenResponse, ...errorResponses }
      }
    },
    async (request) => {
      const issued = await library.issueToken(customers.require(request.params.id), libraryLinks(app.core.apiBaseUrl()))
      return { ok: true as const, libraryToken: issued.library_token, expiresAt: issued.expires_at }
    }
  )

  app.get(
    '/customers/:id/licenses',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "The customer's licenses",
        params: IdParams,
        response: { 200: LicenseListResponse, ...errorResponses }
      }
    },
    async (request) => ({
      ok: true as const,
      licenses: app.core.licenses.ofCustomer(customers.require(request.params.id).id)
    })
  )
}
