import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import {
  CreateDeveloperBody,
  DeveloperListResponse,
  DeveloperResponse,
  IdParams,
  SessionBody,
  SessionResponse
} from '../../../shared/schemas/control-plane'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

export const developerControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { developers, sessions } = app.core

  app.post(
    '/developers',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Create a developer (role developer or admin)',
        body: CreateDeveloperBody,
        response: { 201: DeveloperResponse, ...errorResponses }
      }
    },
    async (request, reply) => reply.code(201).send({ ok: true as const, developer: developers.create(request.body) })
  )

  app.get(
    '/developers',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'List developers',
        response: { 200: DeveloperListResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, developers: developers.list() })
  )

  app.post(
    '/developers/:id/session',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Mint a developer JWT for the management API',
        params: IdParams,
        body: SessionBody,
        response: { 200: SessionResponse, ...errorResponses }
      }
    },
    async (request) => {
      const developer = developers.require(request.params.id)
      const issued = await sessions.issue({
        audience: 'developer',
        subject: developer.id,
        ttlS: request.body.ttlS,
        claims: { role: developer.role, email: developer.email }
      })
      return { ok: true as const, ...issued }
    }
  )
}
