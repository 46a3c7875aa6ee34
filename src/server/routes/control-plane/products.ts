import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DomainError } from '../../../core/errors/domain-error'
import { Nullable, errorResponses } from '../../../shared/schemas/common'
import { AuditEntrySchema, ConnectionStatusSchema, IdParams, ProductListQuery, ProductSchema } from '../../../shared/schemas/control-plane'
import { CredentialRecordSchema } from '../../../shared/schemas/credentials'
import { ADMIN_TOKEN } from '../../auth/route-tokens'
import { shownId } from '../../../core/redaction/shown-id'

const tags = ['Emulator']

export const productControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { products, developers, credentials, audit, connectionStatuses } = app.core

  const requireProduct = (id: string) => {
    const product = products.find(id)
    if (!product) throw new DomainError('PRODUCT_NOT_FOUND', `No product has the id ${shownId(id, 'prod')}.`)
    return product
  }

  app.post(
    '/products',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Create a product owned by a developer',
        body: Type.Object(
          {
            developerId: Type.String({ minLength: 1, maxLength: 200 }),
            name: Type.String({ minLength: 1, maxLength: 200 }),
            storefrontSlug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9-]*$' }))
          },
          { additionalProperties: false }
        ),
        response: { 201: Type.Object({ ok: Type.Literal(true), product: ProductSchema }), ...errorResponses }
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
        response: { 200: Type.Object({ ok: Type.Literal(true), products: Type.Array(ProductSchema) }), ...errorResponses }
      }
    },
    async (request) => {
      const { visibleTo } = request.query
      return { ok: true as const, products: visibleTo === undefined ? products.list() : products.listVisible(developers.actor(visibleTo)) }
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
          201: Type.Object({
            ok: Type.Literal(true),
            credential: CredentialRecordSchema,
            oneTimeReveal: Type.Object({ appId: Type.String(), pluginKey: Type.String(), pluginSecret: Type.String() })
          }),
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
        response: { 200: Type.Object({ ok: Type.Literal(true), credentials: Type.Array(CredentialRecordSchema) }), ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, credentials: credentials.recordsOf(requireProduct(request.params.id).id) })
  )

  app.get(
    '/products/:id/audit',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "The product's credential audit trail, newest first",
        params: IdParams,
        response: { 200: Type.Object({ ok: Type.Literal(true), entries: Type.Array(AuditEntrySchema) }), ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, entries: audit.list(requireProduct(request.params.id).id) })
  )

  app.get(
    '/products/:id/connection',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "The product's connection status record (null before the first verification)",
        params: IdParams,
        response: { 200: Type.Object({ ok: Type.Literal(true), connection: Nullable(ConnectionStatusSchema) }), ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, connection: connectionStatuses.get(requireProduct(request.params.id).id) })
  )
}
