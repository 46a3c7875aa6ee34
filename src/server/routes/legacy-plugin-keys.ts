import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { DomainError } from '../../core/errors/domain-error'
import { ERROR_ANSWERS, errorAnswers } from '../../shared/schemas/error-answers'
import { NO_TOKEN } from '../auth/route-tokens'

const REPLACEMENT = '/api/developer/plugin-keys/products/:productId'

/**
 * The retired developer-level key model (section 5 rule 2): key creation and secret reveal
 * answer 410 whoever asks, pointing at the product-scoped replacement.
 */
export const legacyPluginKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const retired = async () => {
    throw new DomainError(
      'LEGACY_PLUGIN_KEYS_RETIRED',
      'Developer-level plugin keys are retired. Use product-scoped credentials instead.',
      {
        details: { replacement: REPLACEMENT }
      }
    )
  }
  const schema = {
    tags: ['Legacy'],
    summary: 'Retired: developer-level plugin keys (410 LEGACY_PLUGIN_KEYS_RETIRED)',
    response: errorAnswers(ERROR_ANSWERS.legacyRetired)
  }
  app.post(
    '/api/developer/plugin-keys',
    { config: { tokens: NO_TOKEN }, schema: { ...schema, summary: 'Retired: create a developer-level plugin key' } },
    retired
  )
  app.post(
    '/api/developer/plugin-keys/reveal-secret',
    {
      config: { tokens: NO_TOKEN },
      schema: { ...schema, summary: 'Retired: reveal the developer-level plugin secret' }
    },
    retired
  )
  app.get(
    '/api/developer/plugin-keys/secret',
    { config: { tokens: NO_TOKEN }, schema: { ...schema, summary: 'Retired: read the developer-level plugin secret' } },
    retired
  )
}
