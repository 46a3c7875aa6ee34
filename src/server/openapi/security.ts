import { TOKEN_KIND_INFO, TOKEN_KINDS } from '../../shared/contract/token-kinds'
import type { TokenKind } from '../../shared/contract/token-kinds'

// The OpenAPI security schemes and each operation's `security`, derived from the token-kind table
// (src/shared/contract/token-kinds.ts) and the kinds each route declares (config.tokens): the
// document says what the server enforces, from the same declaration.

export type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description: string }
  | { type: 'apiKey'; in: 'header' | 'query'; name: string; description: string }

export type SecurityRequirement = Record<string, string[]>

/** The product credential's parts: three headers sent together; the key may travel two other ways. */
const CREDENTIAL = {
  appId: 'productAppId',
  key: 'productPluginKey',
  apiKey: 'productApiKey',
  keyBearer: 'productKeyBearer',
  secret: 'productPluginSecret'
}

const JWT_KINDS: readonly TokenKind[] = ['developerJwt', 'customerJwt']

/** One scheme per way a kind travels: Bearer, a header, a query parameter (its first name). */
export function securitySchemes(headerPrefix: string): Record<string, SecurityScheme> {
  const schemes: Record<string, SecurityScheme> = {}
  for (const kind of TOKEN_KINDS) {
    const info = TOKEN_KIND_INFO[kind]
    const about = `${capitalize(info.label)}: ${info.speaksFor}. Issued by ${info.issuedBy}; lives ${info.lifetime}.`
    if (kind === 'productCredential') {
      const header = (name: string) => name.replace('x-svc-', `x-${headerPrefix}-`)
      schemes[CREDENTIAL.appId] = {
        type: 'apiKey',
        in: 'header',
        name: header('x-svc-app-id'),
        description: `The App ID. ${about}`
      }
      schemes[CREDENTIAL.key] = {
        type: 'apiKey',
        in: 'header',
        name: header('x-svc-plugin-key'),
        description: 'The plugin key.'
      }
      schemes[CREDENTIAL.apiKey] = {
        type: 'apiKey',
        in: 'header',
        name: header('x-svc-api-key'),
        description: `The plugin key under its compatibility name (instead of ${header('x-svc-plugin-key')}).`
      }
      schemes[CREDENTIAL.keyBearer] = {
        type: 'http',
        scheme: 'bearer',
        description: 'The plugin key as a Bearer value (compatibility, licensing routes).'
      }
      schemes[CREDENTIAL.secret] = {
        type: 'apiKey',
        in: 'header',
        name: header('x-svc-plugin-secret'),
        description: 'The plugin secret.'
      }
      continue
    }
    const { bearer, headers, query, body } = info.transport
    if (bearer)
      schemes[kind] = {
        type: 'http',
        scheme: 'bearer',
        ...(JWT_KINDS.includes(kind) ? { bearerFormat: 'JWT' } : {}),
        description: about
      }
    for (const name of headers) schemes[kind] = { type: 'apiKey', in: 'header', name, description: about }
    const [firstQuery, ...otherQuery] = query
    if (firstQuery) {
      const others =
        otherQuery.length > 0 ? ` The same value is taken as ${otherQuery.map((n) => `?${n}=`).join(', ')}` : ''
      const inBody = body.length > 0 ? `${others ? ',' : ' It is also taken'} in a POST body as ${body.join(', ')}` : ''
      schemes[`${kind}Query`] = {
        type: 'apiKey',
        in: 'query',
        name: firstQuery,
        description: `${capitalize(info.label)} as a query parameter.${others}${inBody}.`
      }
    }
  }
  schemes.adminTokenQuery = {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description:
      'The admin token as ?token=, on the request event stream only (a browser EventSource cannot send headers).'
  }
  return schemes
}

/** An operation's `security`: any one of its kinds, each by any way it travels; `[]` for a public route. */
export function securityFor(
  kinds: readonly TokenKind[],
  options: { adminTokenInQuery?: boolean } = {}
): SecurityRequirement[] {
  const requirements: SecurityRequirement[] = []
  for (const kind of kinds) {
    if (kind === 'productCredential') {
      for (const key of [CREDENTIAL.key, CREDENTIAL.apiKey, CREDENTIAL.keyBearer]) {
        requirements.push({ [CREDENTIAL.appId]: [], [key]: [], [CREDENTIAL.secret]: [] })
      }
      continue
    }
    const { bearer, headers, query } = TOKEN_KIND_INFO[kind].transport
    if (bearer || headers.length > 0) requirements.push({ [kind]: [] })
    if (query.length > 0) requirements.push({ [`${kind}Query`]: [] })
    if (kind === 'adminToken' && options.adminTokenInQuery) requirements.push({ adminTokenQuery: [] })
  }
  return requirements
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
