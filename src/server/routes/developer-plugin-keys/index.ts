import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { ActionNoteBody, ProductIdParams } from '../../../shared/schemas/common'
import {
  CredentialListQuery,
  CredentialListResponse,
  CurrentCredentialResponse,
  ExistingResponse,
  IssuedResponse,
  RevealResponse,
  RevokeResponse,
  RotatedResponse
} from '../../../shared/schemas/credentials'
import { ERROR_ANSWERS, errorAnswers, MANAGEMENT_ERRORS } from '../../../shared/schemas/error-answers'
import { actingDeveloper } from '../../auth/developer-auth'
import { DEVELOPER_JWT } from '../../auth/route-tokens'
import { oneTimeReveal, revealedMaterial } from './presenters'

const tags = ['Product credentials']

/**
 * Product credential management, docs/api.md section 2. Developer JWT only;
 * every rule lives in core's credential service.
 */
export const developerPluginKeysRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const credentials = app.core.credentials

  app.get(
    '/',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: 'List the credentials of visible products, newest first (revoked included)',
        querystring: CredentialListQuery,
        response: { 200: CredentialListResponse, ...errorAnswers(...MANAGEMENT_ERRORS) }
      }
    },
    async (request) => {
      const list = credentials.list(actingDeveloper(request), { productId: request.query.productId })
      return { ok: true as const, credentials: list, count: list.length }
    }
  )

  app.get(
    '/:productId',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: "The product's active credential, else its most recent revoked one",
        params: ProductIdParams,
        response: {
          200: CurrentCredentialResponse,
          ...errorAnswers(...MANAGEMENT_ERRORS, ERROR_ANSWERS.credentialNotFound)
        }
      }
    },
    async (request) => {
      const credential = credentials.current(actingDeveloper(request), request.params.productId)
      return { ok: true as const, credential, status: credential.status, isActive: credential.isActive }
    }
  )

  app.post(
    '/:productId',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: 'Create the first active credential (409 ACTIVE_CREDENTIAL_EXISTS if one exists)',
        params: ProductIdParams,
        body: ActionNoteBody,
        response: { 201: IssuedResponse, ...errorAnswers(...MANAGEMENT_ERRORS, ERROR_ANSWERS.activeCredentialExists) }
      }
    },
    async (request, reply) => {
      const issued = credentials.create(actingDeveloper(request), request.params.productId, request.body)
      return reply.code(201).send({
        ok: true as const,
        credential: issued.credential,
        created: true,
        one_time_reveal: oneTimeReveal(issued.material)
      })
    }
  )

  app.post(
    '/:productId/ensure',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: 'Return the active credential, creating it if none exists (one_time_reveal only when created)',
        params: ProductIdParams,
        body: ActionNoteBody,
        response: { 200: ExistingResponse, 201: IssuedResponse, ...errorAnswers(...MANAGEMENT_ERRORS) }
      }
    },
    async (request, reply) => {
      const outcome = credentials.ensure(actingDeveloper(request), request.params.productId, request.body)
      if (!outcome.material) return { ok: true as const, credential: outcome.credential, created: false as const }
      return reply.code(201).send({
        ok: true as const,
        credential: outcome.credential,
        created: true,
        one_time_reveal: oneTimeReveal(outcome.material)
      })
    }
  )

  app.post(
    '/:productId/reveal-secret',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: 'Reveal the full key and secret of the active credential, when recoverable',
        params: ProductIdParams,
        body: ActionNoteBody,
        response: {
          200: RevealResponse,
          ...errorAnswers(...MANAGEMENT_ERRORS, ERROR_ANSWERS.credentialNotFound, ERROR_ANSWERS.secretUnavailable)
        }
      }
    },
    async (request) => {
      const revealed = credentials.revealSecret(actingDeveloper(request), request.params.productId, request.body)
      return {
        ok: true as const,
        credential: revealed.credential,
        one_time_reveal: revealedMaterial(revealed.material)
      }
    }
  )

  for (const what of ['key', 'secret'] as const) {
    app.post(
      `/:productId/rotate-${what}`,
      {
        config: { tokens: DEVELOPER_JWT },
        schema: {
          tags,
          summary: `Rotate the ${what}: revoke the active credential and issue a new key and secret`,
          params: ProductIdParams,
          body: ActionNoteBody,
          response: { 201: RotatedResponse, ...errorAnswers(...MANAGEMENT_ERRORS, ERROR_ANSWERS.credentialNotFound) }
        }
      },
      async (request, reply) => {
        const rotated = credentials.rotate(actingDeveloper(request), request.params.productId, what, request.body)
        return reply.code(201).send({
          ok: true as const,
          credential: rotated.credential,
          one_time_reveal: oneTimeReveal(rotated.material),
          previous_credential: rotated.previous,
          rotated: true as const
        })
      }
    )
  }

  app.post(
    '/:productId/revoke',
    {
      config: { tokens: DEVELOPER_JWT },
      schema: {
        tags,
        summary: 'Revoke the active credential (revoked: false when nothing was active)',
        params: ProductIdParams,
        body: ActionNoteBody,
        response: { 200: RevokeResponse, ...errorAnswers(...MANAGEMENT_ERRORS) }
      }
    },
    async (request) => {
      const outcome = credentials.revoke(actingDeveloper(request), request.params.productId, request.body)
      return {
        ok: true as const,
        revoked: outcome.revoked,
        status: outcome.credential?.status ?? null,
        credential: outcome.credential
      }
    }
  )
}
