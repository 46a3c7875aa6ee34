import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import {
  CreateProductBody,
  IdParams,
  LegacyCredentialResponse,
  ProductAuditResponse,
  ProductConnectionResponse,
  ProductCredentialsResponse,
  ProductListQuery,
  ProductListResponse,
  ProductResponse
} from '../../../shared/schemas/control-plane'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

export const productControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products, developers, credentials, audit, connections } = app.core

  app.post(
    '/products',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Create a product owned by a developer',
        body: CreateProductBody,
        response: { 201: ProductResponse, ...errorResponses }
      }
    },
    async (request, reply) => reply.code(201).send({ ok: true as const, product: products.create(request.body) })
  )

  app.get(
    '/products',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'List every product, or (visibleTo) those one developer sees',
        querystring: ProductListQuery,
        response: { 200: ProductListResponse, ...errorResponses }
      }
    },
    async (request) => {
      const { visibleTo } = request.query
      return {
        ok: true as const,
        products: visibleTo === undefined ? products.list() : products.listVisible(developers.actor(visibleTo))
      }
    }
  )

  app.post(
    '/products/:id/legacy-credential',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Issue an active credential with no recoverable secret, as older credentials are',
        params: IdParams,
        response: {
          201: LegacyCredentialResponse,
          ...errorResponses
        }
      }
    },
    async (request, reply) => {
      const issued = credentials.createLegacy(request.params.id)
      return reply.code(201).send({ ok: true as const, credential: issued.credential, oneTimeReveal: issued.material })
    }
  )

  app.get(
    '/products/:id/credentials',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Every credential of a product, newest first',
        params: IdParams,
        response: { 200: ProductCredentialsResponse, ...errorResponses }
      }
    },
    async (request) => ({
      ok: true as const,
      credentials: credentials.recordsOf(products.require(request.params.id).id)
    })
  )

  app.get(
    '/products/:id/audit',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "The product's credential audit trail, newest first",
        params: IdParams,
        response: { 200: ProductAuditResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, entries: audit.list(products.require(request.params.id).id) })
  )

  app.get(
    '/products/:id/connection',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "The product's connection status record (null before the first verification)",
        params: IdParams,
        response: { 200: ProductConnectionResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, connection: connections.statusOf(request.params.id) })
  )
}
